package dev.kneepoint.metrics;

import java.util.List;
import java.util.NoSuchElementException;
import java.util.Objects;

/**
 * The background traffic of a run, measured apart from the foreground ladder.
 *
 * <p>Attribution: a background request belongs to the foreground step whose measurement window contains
 * its intended start ({@code t_intended}); its latencies and outcome count there. Windowed rates of a
 * step's background result are over that step's window and count every background token, prompt and
 * completion that falls inside it (METRICS.md), exactly as for the foreground. Background requests
 * intended during a step's warm-up or a pause between steps belong to no step, but to {@link #total()}.
 *
 * @param tag     the stream's tag (e.g. {@code bg})
 * @param rateRps planned mean arrival rate of a steady stream; NaN for a stream with per-step rates, whose planned
 *                rate per step is each step result's {@code info().rateRps()}
 * @param arrival arrival process label ({@code poisson}, ...)
 * @param steps   one result per foreground step, same label and index as the foreground step
 * @param total   every background request of the run, over the window from the first step's start to the
 *                last background or foreground event
 */
public record BackgroundResult(String tag, double rateRps, String arrival, List<StepResult> steps, StepResult total) {

    public BackgroundResult {
        Objects.requireNonNull(tag, "tag");
        arrival = arrival == null ? "" : arrival;
        steps = List.copyOf(steps);
        Objects.requireNonNull(total, "total");
    }

    /**
     * The background measured during the foreground step with this label.
     *
     * @throws NoSuchElementException naming the labels that exist
     */
    public StepResult step(String label) {
        return steps.stream().filter(s -> s.info().label().equals(label)).findFirst()
                .orElseThrow(() -> new NoSuchElementException("No background step '" + label + "'; steps are "
                        + steps.stream().map(s -> s.info().label()).toList()));
    }

    /** All background requests of the run (every outcome, cancelled included). */
    public long requests() {
        return total.counts().requestsOk() + total.counts().requestsFailed() + total.counts().cancelled();
    }

    /**
     * Measures background records that are all at hand over the foreground steps' windows, as a live run does: the
     * definition the streamed paths reproduce bit for bit ({@code RunAggregator} live, {@link BackgroundReadBack}
     * when {@code RunLoader} reads a run back, neither keeping the records). {@code runStartNanos} opens the total's
     * window (-1: the first record).
     */
    public static BackgroundResult measure(String tag, double rateRps, String arrival, Slo slo,
                                           List<RequestRecord> records, List<StepResult> foreground,
                                           long runStartNanos, boolean complete) {
        return measure(tag, rateRps, arrival, List.of(), slo, records, foreground, runStartNanos, complete);
    }

    /** As above, for a stream with a planned rate per ladder step index ({@code stepRatesRps}; empty: steady). */
    public static BackgroundResult measure(String tag, double rateRps, String arrival, List<Double> stepRatesRps,
                                           Slo slo, List<RequestRecord> records, List<StepResult> foreground,
                                           long runStartNanos, boolean complete) {
        return BackgroundReplay.measure(tag, rateRps, arrival, stepRatesRps, slo, records, foreground, runStartNanos,
                complete);
    }
}
