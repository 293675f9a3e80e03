package dev.kneepoint.metrics;

import java.util.Locale;

/**
 * When a step counts as {@link ClientCheck#clientBound() client-bound}: the limit of each client-health signal
 * (docs/METRICS.md "Client self-check" gives the defaults' rationale). A signal whose limit is
 * {@link Double#POSITIVE_INFINITY} is still measured and reported but never flags a step.
 *
 * @param scheduleLagFloorMs  schedule lag p99 limit floor, ms (default 5)
 * @param scheduleLagFraction schedule lag p99 limit as a fraction of the mean inter-arrival gap (default 0.05);
 *                            the limit is {@code max(floor, fraction × gap)}
 * @param cpuFraction         client process CPU limit, as a fraction of the available processors (default 0.85)
 * @param gcPauseFraction     GC pause time limit, as a fraction of the window (default 0.05)
 * @param probeDelayP99Ms     probe delay p99 limit, ms (default 10)
 */
public record ClientThresholds(double scheduleLagFloorMs, double scheduleLagFraction, double cpuFraction,
                               double gcPauseFraction, double probeDelayP99Ms) {

    /** Default schedule lag floor, ms. */
    public static final double DEFAULT_LAG_FLOOR_MS = 5;
    /** Default schedule lag fraction of the mean inter-arrival gap. */
    public static final double DEFAULT_LAG_FRACTION = 0.05;
    /** Default CPU limit, fraction of the available processors. */
    public static final double DEFAULT_CPU_FRACTION = 0.85;
    /** Default GC pause limit, fraction of the window. */
    public static final double DEFAULT_GC_PAUSE_FRACTION = 0.05;
    /** Default probe delay p99 limit, ms. */
    public static final double DEFAULT_PROBE_DELAY_P99_MS = 10;

    /** Validates, reporting every problem at once. */
    public ClientThresholds {
        Problems problems = new Problems();
        positive("scheduleLagFloorMs", scheduleLagFloorMs, problems);
        positive("scheduleLagFraction", scheduleLagFraction, problems);
        positive("probeDelayP99Ms", probeDelayP99Ms, problems);
        fraction("cpuFraction", cpuFraction, problems);
        fraction("gcPauseFraction", gcPauseFraction, problems);
        problems.throwIfAny("client-check thresholds");
    }

    private static void positive(String name, double v, Problems problems) {
        problems.check(v > 0, name + " must be > 0 (Double.POSITIVE_INFINITY turns the signal off), got " + v);
    }

    private static void fraction(String name, double v, Problems problems) {
        problems.check(v > 0 && (v <= 1 || v == Double.POSITIVE_INFINITY),
                name + " must be a fraction in (0, 1] (Double.POSITIVE_INFINITY turns the signal off), got " + v);
    }

    /** The documented defaults. */
    public static ClientThresholds defaults() {
        return builder().build();
    }

    /** A builder holding the defaults. */
    public static Builder builder() {
        return new Builder();
    }

    /** A builder holding these thresholds. */
    public Builder toBuilder() {
        return new Builder().scheduleLagFloorMs(scheduleLagFloorMs).scheduleLagFraction(scheduleLagFraction)
                .cpuFraction(cpuFraction).gcPauseFraction(gcPauseFraction).probeDelayP99Ms(probeDelayP99Ms);
    }

    /** The schedule lag p99 limit for a mean inter-arrival gap (NaN gap: the floor). */
    public double scheduleLagLimitMs(double meanInterArrivalMs) {
        return Double.isNaN(meanInterArrivalMs) ? scheduleLagFloorMs
                : Math.max(scheduleLagFloorMs, scheduleLagFraction * meanInterArrivalMs);
    }

    @Override
    public String toString() {
        return String.format(Locale.ROOT, "ClientThresholds[schedule_lag_p99 > max(%s ms, %s of the inter-arrival gap), "
                        + "cpu > %s of the cores, gc pauses > %s of the window, probe_delay_p99 > %s ms]",
                plain(scheduleLagFloorMs), plain(scheduleLagFraction), plain(cpuFraction), plain(gcPauseFraction),
                plain(probeDelayP99Ms));
    }

    private static String plain(double v) {
        return v == Double.POSITIVE_INFINITY ? "off" : java.math.BigDecimal.valueOf(v).stripTrailingZeros().toPlainString();
    }

    /** Builds {@link ClientThresholds}; {@link #build()} reports every invalid limit at once. */
    public static final class Builder {
        private double scheduleLagFloorMs = DEFAULT_LAG_FLOOR_MS;
        private double scheduleLagFraction = DEFAULT_LAG_FRACTION;
        private double cpuFraction = DEFAULT_CPU_FRACTION;
        private double gcPauseFraction = DEFAULT_GC_PAUSE_FRACTION;
        private double probeDelayP99Ms = DEFAULT_PROBE_DELAY_P99_MS;

        private Builder() {}

        /** Schedule lag p99 limit floor, ms. */
        public Builder scheduleLagFloorMs(double ms) { this.scheduleLagFloorMs = ms; return this; }
        /** Schedule lag p99 limit as a fraction of the mean inter-arrival gap. */
        public Builder scheduleLagFraction(double fraction) { this.scheduleLagFraction = fraction; return this; }
        /** Client process CPU limit, fraction of the available processors. */
        public Builder cpuFraction(double fraction) { this.cpuFraction = fraction; return this; }
        /** GC pause limit, fraction of the window. */
        public Builder gcPauseFraction(double fraction) { this.gcPauseFraction = fraction; return this; }
        /** Probe delay p99 limit, ms. */
        public Builder probeDelayP99Ms(double ms) { this.probeDelayP99Ms = ms; return this; }

        /** @throws IllegalArgumentException listing every invalid limit */
        public ClientThresholds build() {
            return new ClientThresholds(scheduleLagFloorMs, scheduleLagFraction, cpuFraction, gcPauseFraction,
                    probeDelayP99Ms);
        }
    }
}
