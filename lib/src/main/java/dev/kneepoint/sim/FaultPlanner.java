package dev.kneepoint.sim;

import java.util.SplittableRandom;

/** Decides each request's fault: header first, then a scheduled window, then one probability draw. */
final class FaultPlanner {
    /** Header that provokes a fault on one request: {@code KIND[:MILLIS]}. */
    static final String HEADER = "x-sim-fault";

    /**
     * A decision.
     *
     * @param kind the fault, {@code null} for none
     * @param durationNanos duration for stalls and slow first byte
     */
    record Decision(FaultKind kind, long durationNanos) {
        static final Decision NONE = new Decision(null, 0);
    }

    private final FaultConfig config;
    private final long startNanos;

    FaultPlanner(FaultConfig config, long startNanos) {
        this.config = config;
        this.startNanos = startNanos;
    }

    /**
     * @throws IllegalArgumentException when the header names no known fault
     */
    Decision decide(String header, SplittableRandom random, long nowNanos) {
        long dflt = config.faultDuration().toNanos();
        if (header != null && !header.isBlank()) {
            String[] parts = header.split(":", 2);
            FaultKind kind = FaultKind.fromWireName(parts[0]).orElseThrow(() -> new IllegalArgumentException(
                    "unknown X-Sim-Fault '" + parts[0] + "'; known: " + java.util.Arrays.stream(FaultKind.values())
                            .map(FaultKind::wireName).toList()));
            long nanos = parts.length > 1 ? Long.parseLong(parts[1].trim()) * 1_000_000L : dflt;
            return new Decision(kind, nanos);
        }
        long t = nowNanos - startNanos;
        for (FaultConfig.Scheduled s : config.schedule()) {
            if (s.kind() != FaultKind.ENGINE_STALL && t >= s.at().toNanos()
                    && t < s.at().toNanos() + s.duration().toNanos()) {
                return new Decision(s.kind(), dflt);
            }
        }
        if (config.probabilities().isEmpty()) {
            return Decision.NONE;
        }
        double u = random.nextDouble();
        double cumulative = 0;
        for (FaultKind k : FaultKind.values()) {
            cumulative += config.probability(k);
            if (u < cumulative) {
                return new Decision(k, dflt);
            }
        }
        return Decision.NONE;
    }
}
