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
        long maxRequests) {

    public static final String CLOSED = "closed";
    public static final String OPEN = "open";

    public StepInfo {
        Objects.requireNonNull(label, "label");
        Objects.requireNonNull(mode, "mode");
        arrival = arrival == null ? "" : arrival;
        capPolicy = capPolicy == null ? "" : capPolicy;
    }

    public boolean isOpenLoop() {
        return OPEN.equals(mode);
    }

    /** The load level as one number: concurrency for closed loop, rate for open loop. */
    public double load() {
        return isOpenLoop() ? rateRps : concurrency;
    }
}
