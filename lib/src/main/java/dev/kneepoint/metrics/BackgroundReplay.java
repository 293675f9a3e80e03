package dev.kneepoint.metrics;

import java.util.ArrayList;
import java.util.List;

/**
 * Measures background records that are all at hand over foreground steps whose windows are all known
 * ({@link BackgroundResult#measure}). Every record enters every step's aggregator (as warm-up where the step's window
 * does not contain its intended start), and the total. The definition {@link BackgroundAggregator} reproduces as
 * records stream in, live and for a run read back ({@link BackgroundReadBack}), and the oracle of their tests.
 */
final class BackgroundReplay {
    private BackgroundReplay() {}

    static BackgroundResult measure(String tag, double rateRps, String arrival, List<Double> stepRatesRps, Slo slo,
                                    List<RequestRecord> records, List<StepResult> foreground, long runStartNanos,
                                    boolean complete) {
        List<Double> rates = stepRatesRps == null ? List.of() : List.copyOf(stepRatesRps);
        List<StepResult> steps = new ArrayList<>();
        for (StepResult fg : foreground) {
            StepWindow w = fg.window();
            StepInfo info = BackgroundAggregator.info(fg.info().index(), fg.info().label(), w.lengthNanos(), rateRps,
                    arrival, rates);
            StepWindow window = BackgroundAggregator.window(w);
            StepAggregator a = StepAggregator.forKnownWindow(info, slo, ClientThresholds.defaults(), window);
            for (RequestRecord r : records) {
                a.accept(BackgroundAggregator.withWarmup(r, !w.contains(r.timing().intendedNanos())));
            }
            steps.add(a.finish(window));
        }
        long start = runStartNanos < 0 ? 0 : runStartNanos;
        long end = start;
        for (StepResult fg : foreground) {
            end = Math.max(end, fg.window().endNanos());
        }
        for (RequestRecord r : records) {
            start = Math.min(start, Math.max(0, r.timing().intendedNanos()));
            end = Math.max(end, Math.max(r.timing().endNanos(), r.timing().lastTokenNanos()) + 1);
        }
        StepWindow window = new StepWindow(start, start, end, complete);
        StepInfo totalInfo = BackgroundAggregator.info(-1, "total", end - start, rateRps, arrival, rates);
        StepAggregator total = StepAggregator.forKnownWindow(totalInfo, slo, ClientThresholds.defaults(), window);
        records.forEach(r -> total.accept(BackgroundAggregator.withWarmup(r, false)));
        return new BackgroundResult(tag, rateRps, arrival, steps, total.finish(window));
    }
}
