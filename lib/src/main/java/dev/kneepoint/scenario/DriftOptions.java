package dev.kneepoint.scenario;

import dev.kneepoint.metrics.Problems;
import java.util.List;

/**
 * Settings of a soak drift analysis ({@link SoakDrift}). Build with {@link #builder()}; {@link #defaults()}
 * is what {@link SoakDrift#analyze} uses when none are given.
 *
 * @param metrics           time-series columns to test (default output_tokens_per_s, ttft_p50_ms, ttft_p99_ms,
 *                          itl_p50_ms, itl_p99_ms)
 * @param segmentFraction   share of the intervals in the early and in the late segment (default 1/3 each)
 * @param alpha             significance level of each metric's two-sided test (default 0.01)
 * @param minRelativeChange smallest |late − early| / early (Hodges–Lehmann shift over the early median) that
 *                          counts as drift; a significant but smaller change is reported, not flagged
 *                          (default 0.10)
 * @param burstAlpha        family-wise level of the failure-burst search, Bonferroni over intervals
 *                          (default 0.001)
 * @param minBurstFailures  an interval needs at least this many failures to be a burst (default 3)
 */
public record DriftOptions(List<String> metrics, double segmentFraction, double alpha, double minRelativeChange,
                           double burstAlpha, int minBurstFailures) {

    /** The default metrics: throughput, then latency medians and tails. */
    public static final List<String> DEFAULT_METRICS =
            List.of("output_tokens_per_s", "ttft_p50_ms", "ttft_p99_ms", "itl_p50_ms", "itl_p99_ms");

    public DriftOptions {
        new Problems()
                .check(metrics != null && !metrics.isEmpty(), "metrics must name at least one time-series column")
                .check(segmentFraction > 0 && segmentFraction <= 0.5,
                        "segmentFraction must be in (0, 0.5], got " + segmentFraction)
                .check(alpha > 0 && alpha < 1, "alpha must be in (0, 1), got " + alpha)
                .check(minRelativeChange >= 0 && !Double.isInfinite(minRelativeChange),
                        "minRelativeChange must be a finite number >= 0, got " + minRelativeChange)
                .check(burstAlpha > 0 && burstAlpha < 1, "burstAlpha must be in (0, 1), got " + burstAlpha)
                .check(minBurstFailures >= 1, "minBurstFailures must be >= 1, got " + minBurstFailures)
                .throwListIfAny("drift options");
        metrics = List.copyOf(metrics);
    }

    public static DriftOptions defaults() {
        return builder().build();
    }

    public static Builder builder() {
        return new Builder();
    }

    /** Builds {@link DriftOptions}; {@link #build()} reports every invalid setting at once. */
    public static final class Builder {
        private List<String> metrics = DEFAULT_METRICS;
        private double segmentFraction = 1.0 / 3;
        private double alpha = 0.01;
        private double minRelativeChange = 0.10;
        private double burstAlpha = 0.001;
        private int minBurstFailures = 3;

        private Builder() {}

        public Builder metrics(String... columns) { this.metrics = List.of(columns); return this; }
        public Builder segmentFraction(double fraction) { this.segmentFraction = fraction; return this; }
        public Builder alpha(double level) { this.alpha = level; return this; }
        public Builder minRelativeChange(double fraction) { this.minRelativeChange = fraction; return this; }
        public Builder burstAlpha(double level) { this.burstAlpha = level; return this; }
        public Builder minBurstFailures(int count) { this.minBurstFailures = count; return this; }

        public DriftOptions build() {
            return new DriftOptions(metrics, segmentFraction, alpha, minRelativeChange, burstAlpha, minBurstFailures);
        }
    }
}
