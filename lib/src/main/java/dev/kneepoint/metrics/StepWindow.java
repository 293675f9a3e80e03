package dev.kneepoint.metrics;

/**
 * The measurement window of a finished step, on the run clock: from the end of warm-up to the
 * moment the step stopped issuing load. Requests still in flight then finish afterwards (the drain):
 * their tokens after the window's end do not count in windowed rates, but the requests themselves are
 * part of the step's latency distributions.
 *
 * @param stepStartNanos when the step began (warm-up included)
 * @param startNanos     window start (after warm-up)
 * @param endNanos       window end
 * @param completed      false when the step was stopped early (interrupt, close, stop condition)
 */
public record StepWindow(long stepStartNanos, long startNanos, long endNanos, boolean completed) {
    public StepWindow {
        if (endNanos < startNanos || startNanos < stepStartNanos) {
            throw new IllegalArgumentException("window must satisfy stepStart <= start <= end, got "
                    + stepStartNanos + ", " + startNanos + ", " + endNanos);
        }
    }

    public long lengthNanos() {
        return endNanos - startNanos;
    }

    public boolean contains(long nanos) {
        return nanos >= startNanos && nanos < endNanos;
    }
}
