package dev.kneepoint.metrics;

import java.util.Objects;

/**
 * Describes one load step (one load level held for a while) as planned: the facts a result needs
 * to say what load produced it.
 *
 * @param index               position in the run, from 0
 * @param label               unique label within the run, e.g. {@code c=8} or {@code rate=4.0}
 * @param mode                {@code closed} (concurrency) or {@code open} (request rate)
 * @param concurrency         users in a closed-loop step; -1 for open loop
 * @param rateRps             mean arrival rate of an open-loop step; NaN for closed loop
 * @param arrival             arrival process of an open-loop step ({@code constant}, {@code poisson},
 *                            {@code gamma(cv=2.0)}); empty for closed loop
 * @param maxInFlight         open-loop in-flight cap; -1 when uncapped
 * @param capPolicy           what happens at the cap ({@code queue} or {@code drop}); empty when uncapped
 * @param warmupNanos         warm-up excluded from statistics, measured from the step start
 * @param durationNanos       planned measurement length after warm-up; -1 when bounded by count only
 * @param maxRequests         request bound; -1 when bounded by duration only
 * @param trial               which measurement of a repeated load this step is, 1 to N ({@code repeat(N)}: the
 *                            ladder is run N times over, trial after trial); 0 when the load is measured once
 */
public record StepInfo(
        int index,
        String label,
        String mode,
        int concurrency,
        double rateRps,
        String arrival,
        int maxInFlight,
        String capPolicy,
        long warmupNanos,
        long durationNanos,
        long maxRequests,
        int trial) {

    public static final String CLOSED = "closed";
    public static final String OPEN = "open";

    public StepInfo {
        Objects.requireNonNull(label, "label");
        Objects.requireNonNull(mode, "mode");
        arrival = arrival == null ? "" : arrival;
        capPolicy = capPolicy == null ? "" : capPolicy;
        if (trial < 0) {
            throw new IllegalArgumentException("trial must be >= 0 (0: not repeated), got " + trial);
        }
    }

    /** A step measured once ({@code trial} 0). */
    public StepInfo(int index, String label, String mode, int concurrency, double rateRps, String arrival,
                    int maxInFlight, String capPolicy, long warmupNanos, long durationNanos, long maxRequests) {
        this(index, label, mode, concurrency, rateRps, arrival, maxInFlight, capPolicy, warmupNanos, durationNanos,
                maxRequests, 0);
    }

    /** The label of trial {@code trial} (1 to N) of the load labelled {@code load}: {@code c=8 #2}. */
    public static String trialLabel(String load, int trial) {
        return load + " #" + trial;
    }

    /** Whether this step is one trial of a repeated load. */
    public boolean isTrial() {
        return trial > 0;
    }

    /** The label of the load this step measured, the same for all its trials: {@code c=8} for {@code c=8 #2}. */
    public String loadLabel() {
        String suffix = " #" + trial;
        return isTrial() && label.endsWith(suffix) ? label.substring(0, label.length() - suffix.length()) : label;
    }

    /** This step as the one measurement of its load: the load's label, trial 0. */
    public StepInfo pooled() {
        return new StepInfo(index, loadLabel(), mode, concurrency, rateRps, arrival, maxInFlight, capPolicy,
                warmupNanos, durationNanos, maxRequests, 0);
    }

    public boolean isOpenLoop() {
        return OPEN.equals(mode);
    }

    /** The load level as one number: concurrency for closed loop, rate for open loop. */
    public double load() {
        return isOpenLoop() ? rateRps : concurrency;
    }
}
