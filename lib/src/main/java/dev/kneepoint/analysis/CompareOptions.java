package dev.kneepoint.analysis;

import java.util.ArrayList;
import java.util.List;

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
 */
public record CompareOptions(List<LatencyMetric> metrics, double[] percentiles, double confidence, int resamples,
                             long seed, double budgetTolerance) {

    public CompareOptions {
        metrics = List.copyOf(metrics);
        percentiles = percentiles.clone();
    }

    @Override
    public double[] percentiles() {
        return percentiles.clone();
    }

    /** TTFT, TTFT (sched), ITL, TPOT, E2E at p50, p90, p99; 95%, 2000 replicates, seed 1, 10%. */
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

        private Builder() {}

        public Builder metrics(LatencyMetric... m) { this.metrics = List.of(m); return this; }

        public Builder percentiles(double... p) { this.percentiles = p.clone(); return this; }

        public Builder confidence(double c) { this.confidence = c; return this; }

        public Builder resamples(int r) { this.resamples = r; return this; }

        public Builder seed(long s) { this.seed = s; return this; }

        public Builder budgetTolerance(double t) { this.budgetTolerance = t; return this; }

        public CompareOptions build() {
            List<String> problems = new ArrayList<>();
            if (metrics.isEmpty()) {
                problems.add("metrics must not be empty");
            }
            for (double p : percentiles) {
                if (!(p > 0 && p <= 100)) {
                    problems.add("percentiles must be in (0, 100], got " + p);
                }
            }
            if (!(confidence > 0 && confidence < 1)) {
                problems.add("confidence must be in (0, 1), got " + confidence);
            }
            if (resamples < 100) {
                problems.add("resamples must be at least 100, got " + resamples);
            }
            if (!(budgetTolerance >= 0)) {
                problems.add("budgetTolerance must be >= 0, got " + budgetTolerance);
            }
            if (!problems.isEmpty()) {
                throw new IllegalArgumentException("Invalid compare options: " + String.join("; ", problems));
            }
            return new CompareOptions(metrics, percentiles, confidence, resamples, seed, budgetTolerance);
        }
    }
}
