package dev.kneepoint.metrics;

import java.util.Comparator;
import java.util.List;
import java.util.Map;
import java.util.TreeMap;
import java.util.function.Function;
import java.util.function.ToDoubleFunction;
import org.HdrHistogram.Histogram;

/**
 * The trials of one load pooled into one step, as if they were one long window: counts and token totals add up,
 * latency histograms merge (so a pooled p99 is the p99 of every trial's requests, not a mean of p99s), windowed
 * rates are the window-weighted means (total tokens over total window time), token means are weighted by OK
 * requests. What belongs to one window stays that of the last trial: its {@link StepWindow} (telemetry readings of
 * the load come from it). The latency trend is the trial's that rose most, and the client check the first that
 * found the client the bottleneck, else the last trial's: a pooled step hides neither.
 */
final class StepPool {
    private StepPool() {}

    /** One step of the trials of one load (at least one, in run order), labelled by the load, trial 0. */
    static StepResult pool(List<StepResult> trials) {
        if (trials.size() == 1) {
            return rebuilt(trials.get(0));
        }
        StepResult first = trials.get(0);
        StepResult last = trials.get(trials.size() - 1);
        double windowS = trials.stream().mapToDouble(StepResult::windowS).sum();
        StepResultBuilder b = StepResult.builder().info(first.info().pooled()).window(last.window()).windowS(windowS)
                .slo(first.slo());
        b.requestsOk(sum(trials, s -> s.counts().requestsOk())).requestsFailed(sum(trials, s -> s.counts().requestsFailed()))
                .cancelled(sum(trials, s -> s.counts().cancelled()))
                .abandoned(sum(trials, s -> s.counts().abandoned()))
                .outputInvalid(sum(trials, s -> s.counts().outputInvalid())).dropped(sum(trials, s -> s.counts().dropped()))
                .warmupRequests(sum(trials, s -> s.counts().warmupRequests())).retried(sum(trials, s -> s.counts().retried()))
                .outputLenMismatch(sum(trials, s -> s.counts().outputLenMismatch()))
                .countDiscrepancy(sum(trials, s -> s.counts().countDiscrepancy()))
                .reasoningTokens(sum(trials, s -> s.tokens().reasoningTokens()))
                .cachedPromptTokens(sum(trials, s -> s.tokens().cachedPromptTokens()),
                        sum(trials, s -> s.tokens().reportedPromptTokens()))
                .failuresByClass(merged(trials, s -> s.counts().failuresByClass()))
                .tokenSources(merged(trials, s -> s.counts().tokenSources()));
        StepResult.Latency l = first.latency();
        b.ttft(mergedLatency(trials, x -> x.latency().ttft())).ttftSched(mergedLatency(trials, x -> x.latency().ttftSched()))
                .itl(mergedLatency(trials, x -> x.latency().itl())).chunkGap(mergedLatency(trials, x -> x.latency().chunkGap()))
                .tpot(mergedLatency(trials, x -> x.latency().tpot())).e2e(mergedLatency(trials, x -> x.latency().e2e()))
                .e2eSched(mergedLatency(trials, x -> x.latency().e2eSched()))
                .scheduleLag(mergedLatency(trials, x -> x.latency().scheduleLag()))
                .ttfat(mergedLatency(trials, x -> x.latency().ttfat()))
                .trend(trials.stream().map(x -> x.latency().trend()).filter(LatencyTrend::measured)
                        .max(Comparator.comparingDouble(LatencyTrend::t)).orElse(l.trend()));
        b.outputTokensPerS(byWindow(trials, s -> s.rates().outputTokensPerS()))
                .inputTokensPerS(byWindow(trials, s -> s.rates().inputTokensPerS()))
                .requestsPerS(byWindow(trials, s -> s.rates().requestsPerS()))
                .goodputRps(byWindow(trials, s -> s.rates().goodputRps()))
                .concurrencyMean(byWindow(trials, s -> s.rates().concurrencyMean()))
                .itemsPerS(byWindow(trials, s -> s.rates().itemsPerS()))
                .goodFraction(weighted(trials, s -> s.rates().goodFraction(),
                        s -> s.counts().requestsOk() + s.counts().requestsFailed()))
                .meanPromptTokens(weighted(trials, s -> s.tokens().meanPromptTokens(), s -> s.counts().requestsOk()))
                .meanOutputTokens(weighted(trials, s -> s.tokens().meanOutputTokens(), s -> s.counts().requestsOk()));
        b.clientCheck(trials.stream().filter(StepResult::clientBound).findFirst().orElse(last).clientCheck());
        return b.build();
    }

    /** A single trial as the load's step: the same numbers under the load's label. */
    private static StepResult rebuilt(StepResult s) {
        return new StepResult(s.info().pooled(), s.window(), s.windowS(), s.counts(), s.latency(), s.rates(),
                s.tokens(), s.slo(), s.clientCheck());
    }

    private static long sum(List<StepResult> trials, java.util.function.ToLongFunction<StepResult> f) {
        return trials.stream().mapToLong(f).sum();
    }

    private static Map<String, Long> merged(List<StepResult> trials, Function<StepResult, Map<String, Long>> f) {
        Map<String, Long> m = new TreeMap<>();
        trials.forEach(s -> f.apply(s).forEach((k, v) -> m.merge(k, v, Long::sum)));
        return m;
    }

    private static Distribution mergedLatency(List<StepResult> trials, Function<StepResult, Distribution> f) {
        Histogram h = Distribution.newHistogram();
        trials.stream().map(f).filter(d -> d.histogram() != null).forEach(d -> h.add(d.histogram()));
        return Distribution.of(h);
    }

    /** The window-weighted mean of a windowed rate over the trials that measured it (NaN: none did). */
    private static double byWindow(List<StepResult> trials, ToDoubleFunction<StepResult> rate) {
        return weighted(trials, rate, StepResult::windowS);
    }

    private static double weighted(List<StepResult> trials, ToDoubleFunction<StepResult> value,
                                   ToDoubleFunction<StepResult> weight) {
        double sum = 0;
        double weights = 0;
        for (StepResult s : trials) {
            double v = value.applyAsDouble(s);
            double w = weight.applyAsDouble(s);
            if (!Double.isNaN(v) && w > 0) {
                sum += v * w;
                weights += w;
            }
        }
        return weights > 0 ? sum / weights : Double.NaN;
    }
}
