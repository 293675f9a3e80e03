package dev.kneepoint.metrics;

import java.util.ArrayList;
import java.util.List;

/**
 * Keeps a run's background records and turns them into a {@link BackgroundResult} once the foreground
 * windows are known. Records are kept whole until the run ends (a few kB each: the chunk timestamps),
 * which bounds a background stream to what fits in memory, e.g. about 5 MB for 10 rps over 10 minutes
 * of 128-token answers. Thread-safe.
 */
final class BackgroundAggregator {
    private final String tag;
    private final double rateRps;
    private final String arrival;
    private final Slo slo;
    private final List<Double> stepRatesRps;
    private final List<RequestRecord> records = new ArrayList<>();

    BackgroundAggregator(String tag, double rateRps, String arrival, Slo slo) {
        this(tag, rateRps, arrival, slo, List.of());
    }

    /** {@code stepRatesRps}: the planned rate per ladder step index (empty: {@code rateRps} for every step). */
    BackgroundAggregator(String tag, double rateRps, String arrival, Slo slo, List<Double> stepRatesRps) {
        this.tag = tag;
        this.rateRps = rateRps;
        this.arrival = arrival;
        this.slo = slo;
        this.stepRatesRps = stepRatesRps == null ? List.of() : List.copyOf(stepRatesRps);
    }

    String tag() {
        return tag;
    }

    synchronized void add(RequestRecord r) {
        records.add(r);
    }

    /** The background over {@code foreground}'s windows; {@code runStartNanos} opens the total's window. */
    BackgroundResult result(List<StepResult> foreground, long runStartNanos, boolean complete) {
        List<RequestRecord> all;
        synchronized (this) {
            all = List.copyOf(records);
        }
        List<StepResult> steps = new ArrayList<>();
        for (StepResult fg : foreground) {
            StepWindow w = fg.window();
            StepInfo info = info(fg.info().index(), fg.info().label(), w.lengthNanos());
            StepWindow window = new StepWindow(w.startNanos(), w.startNanos(), w.endNanos(), w.completed());
            StepAggregator a = new StepAggregator(info, slo, window); // known: counts, keeps no token arrival
            for (RequestRecord r : all) {
                a.accept(withWarmup(r, !w.contains(r.intendedNanos())));
            }
            steps.add(a.finish(window));
        }
        long start = runStartNanos < 0 ? 0 : runStartNanos;
        long end = start;
        for (StepResult fg : foreground) {
            end = Math.max(end, fg.window().endNanos());
        }
        for (RequestRecord r : all) {
            start = Math.min(start, Math.max(0, r.intendedNanos()));
            end = Math.max(end, Math.max(r.endNanos(), r.lastTokenNanos()) + 1);
        }
        StepWindow window = new StepWindow(start, start, end, complete);
        StepAggregator total = new StepAggregator(info(-1, "total", end - start), slo, window);
        all.forEach(r -> total.accept(withWarmup(r, false)));
        return new BackgroundResult(tag, rateRps, arrival, steps, total.finish(window));
    }

    private StepInfo info(int index, String label, long durationNanos) {
        double rate = stepRatesRps.isEmpty() ? rateRps
                : index >= 0 && index < stepRatesRps.size() ? stepRatesRps.get(index) : Double.NaN;
        return new StepInfo(index, label, StepInfo.OPEN, -1, rate, arrival, -1, "", 0, durationNanos, -1);
    }

    /** The record with its warm-up flag set to {@code warmup} (membership of one step). */
    static RequestRecord withWarmup(RequestRecord r, boolean warmup) {
        if (r.warmup() == warmup) {
            return r;
        }
        return new RequestRecord(r.id(), r.step(), r.tag(), warmup, r.intendedNanos(), r.dispatchNanos(),
                r.firstByteNanos(), r.firstTokenNanos(), r.lastTokenNanos(), r.endNanos(), r.chunkNanos(),
                r.chunkTokens(), r.promptTokens(), r.outputTokens(), r.reasoningTokens(), r.requestedPromptTokens(),
                r.requestedOutputTokens(), r.clientCountedTokens(), r.tokenSource(), r.outcome(), r.finishReason(),
                r.streamed(), r.serverTimings(), null, r.firstAnswerNanos(), r.retried());
    }
}
