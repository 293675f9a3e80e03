package dev.kneepoint.metrics;

/**
 * What the load layer knows of a step's {@link StepWindow} when the step starts, on the run clock: where the
 * window will start, and a planned time the window's end may be set back to. With it a live aggregator counts
 * windowed facts as records arrive instead of keeping every token arrival until the step ends
 * ({@link StepAggregator#forPlannedWindow}).
 *
 * <p>The promise the load layer makes with a plan (and {@link RunListener#stepLoadStopping}):
 * <ul>
 *   <li>the window's start will be {@code startNanos}, or equal to its end when the step ends before
 *       {@code startNanos} (then the window is empty);</li>
 *   <li>the window's end will be at least {@code min(endCapNanos, t)} for every run-clock reading {@code t}
 *       taken before {@code stepLoadStopping} was called for the step. The end is the clock read when the
 *       step stops issuing load, after that call; an open-loop step held for a duration may set it back to
 *       its planned end ({@code endCapNanos}), because its last arrival comes before that.</li>
 * </ul>
 *
 * @param startNanos  the window's start: the end of the step's warm-up
 * @param endCapNanos the planned end the window may be set back to, or {@link Long#MAX_VALUE} when there is none
 */
public record WindowPlan(long startNanos, long endCapNanos) {
    public WindowPlan {
        if (endCapNanos < startNanos) {
            throw new IllegalArgumentException("a window plan's end cap must not lie before its start, got start "
                    + startNanos + ", end cap " + endCapNanos + " (use Long.MAX_VALUE for no cap)");
        }
    }

    /** A plan whose window starts at {@code startNanos} and ends when the step stops issuing load. */
    public static WindowPlan startingAt(long startNanos) {
        return new WindowPlan(startNanos, Long.MAX_VALUE);
    }
}
