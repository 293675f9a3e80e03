package dev.kneepoint.analysis;

import dev.kneepoint.metrics.Problems;
import java.util.EnumMap;
import java.util.List;
import java.util.Map;

/**
 * How {@link Compare#runs(List, CompareOptions)} compares runs; build with {@link #builder()}.
 *
 * @param metrics      latency distributions to compare
 * @param percentiles  percentiles of each, in (0, 100]
 * @param confidence   two-sided confidence of the bootstrap intervals, in (0, 1); default 0.95
 * @param resamples    bootstrap replicates; default 2000
 * @param seed         random seed (results are deterministic for a seed); default 1
 * @param budgetTolerance relative difference of tokens per request above which a token-budget warning is
 *                     raised; default 0.10
 * @param minRelativeEffect smallest difference, as a fraction of the baseline value, that gets a {@code better}
 *                     or {@code worse} verdict; smaller significant differences are {@code same (within X)};
 *                     default 0.02 (2%), see docs/COMPARE.md
 * @param minAbsoluteEffectMs per latency metric, smallest difference in milliseconds that counts (all its
 *                     percentiles); the practical threshold of a row is the larger of this and
 *                     {@code minRelativeEffect × |baseline|}; default none
 */
public record CompareOptions(List<LatencyMetric> metrics, double[] percentiles, double confidence, int resamples,
                             long seed, double budgetTolerance, double minRelativeEffect,
                             Map<LatencyMetric, Double> minAbsoluteEffectMs) {

    /** The default relative practical threshold: 2% of the baseline value. */
    public static final double DEFAULT_MIN_RELATIVE_EFFECT = 0.02;

    public CompareOptions {
        metrics = List.copyOf(metrics);
        percentiles = percentiles.clone();
        minAbsoluteEffectMs = Map.copyOf(minAbsoluteEffectMs);
    }

    /** The options without a practical threshold's settings: 2% relative, no absolute floors. */
    public CompareOptions(List<LatencyMetric> metrics, double[] percentiles, double confidence, int resamples,
                          long seed, double budgetTolerance) {
        this(metrics, percentiles, confidence, resamples, seed, budgetTolerance, DEFAULT_MIN_RELATIVE_EFFECT,
                Map.of());
    }

    /**
     * The practical threshold of a difference of {@code metric} (null for a rate row) from {@code baseline}:
     * the larger of {@link #minRelativeEffect()} × |baseline| and the metric's absolute floor.
     */
    public double minEffect(LatencyMetric metric, double baseline) {
        double rel = minRelativeEffect * Math.abs(baseline);
        Double abs = metric == null ? null : minAbsoluteEffectMs.get(metric);
        return abs == null ? rel : Math.max(rel, abs);
    }

    @Override
    public double[] percentiles() {
        return percentiles.clone();
    }

    /**
     * TTFT, TTFT (sched), ITL, TPOT, E2E at p50, p90, p99; 95%, 2000 replicates, seed 1, 10% budget
     * tolerance, 2% minimum effect.
     */
    public static CompareOptions defaults() {
        return builder().build();
    }

    public static Builder builder() {
        return new Builder();
    }

    /** Builder of {@link CompareOptions}; {@link #build()} reports every problem at once. */
    public static final class Builder {
        private List<LatencyMetric> metrics = List.of(LatencyMetric.TTFT, LatencyMetric.TTFT_SCHED, LatencyMetric.ITL,
                LatencyMetric.TPOT, LatencyMetric.E2E);
        private double[] percentiles = {50, 90, 99};
        private double confidence = 0.95;
        private int resamples = 2000;
        private long seed = 1;
        private double budgetTolerance = 0.10;
        private double minRelativeEffect = DEFAULT_MIN_RELATIVE_EFFECT;
        private final Map<LatencyMetric, Double> minAbsoluteEffectMs = new EnumMap<>(LatencyMetric.class);

        private Builder() {}

        public Builder metrics(LatencyMetric... m) { this.metrics = List.of(m); return this; }

        public Builder percentiles(double... p) { this.percentiles = p.clone(); return this; }

        public Builder confidence(double c) { this.confidence = c; return this; }

        public Builder resamples(int r) { this.resamples = r; return this; }

        public Builder seed(long s) { this.seed = s; return this; }

        public Builder budgetTolerance(double t) { this.budgetTolerance = t; return this; }

        /**
         * Smallest relative difference (a fraction of the baseline: 0.02 is 2%) that earns a {@code better} or
         * {@code worse} verdict; 0 gives a verdict to every significant difference (the behaviour before
         * thresholds). Default 0.02.
         */
        public Builder minRelativeEffect(double fraction) { this.minRelativeEffect = fraction; return this; }

        /**
         * Smallest absolute difference of {@code metric}, in milliseconds, that earns a verdict (for each of its
         * percentiles); combined with the relative threshold by taking the larger. E.g. {@code ITL, 0.5}.
         */
        public Builder minAbsoluteEffect(LatencyMetric metric, double ms) {
            this.minAbsoluteEffectMs.put(metric, ms);
            return this;
        }

        public CompareOptions build() {
            Problems problems = new Problems().check(!metrics.isEmpty(), "metrics must not be empty");
            for (double p : percentiles) {
                problems.check(p > 0 && p <= 100, "percentiles must be in (0, 100], got " + p);
            }
            problems.check(confidence > 0 && confidence < 1, "confidence must be in (0, 1), got " + confidence)
                    .check(resamples >= 100, "resamples must be at least 100, got " + resamples)
                    .check(budgetTolerance >= 0, "budgetTolerance must be >= 0, got " + budgetTolerance)
                    .check(minRelativeEffect >= 0 && minRelativeEffect < 1,
                            "minRelativeEffect must be a fraction in [0, 1) (0.02 is 2%), got " + minRelativeEffect);
            minAbsoluteEffectMs.forEach((m, v) -> problems.check(v >= 0 && Double.isFinite(v),
                    "minAbsoluteEffect of " + m.baseName() + " must be finite and >= 0 ms, got " + v));
            problems.throwPlainIfAny("Invalid compare options");
            return new CompareOptions(metrics, percentiles, confidence, resamples, seed, budgetTolerance,
                    minRelativeEffect, minAbsoluteEffectMs);
        }
    }
}
