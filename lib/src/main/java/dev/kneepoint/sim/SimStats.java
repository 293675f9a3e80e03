package dev.kneepoint.sim;

import java.time.Duration;
import java.util.Map;

/**
 * A snapshot of the simulator's state and counters.
 *
 * @param running sequences in the running batch
 * @param waiting sequences waiting for admission (preempted ones included)
 * @param kvUsage KV-cache blocks in use / all blocks, in [0, 1]
 * @param preemptions preemptions so far
 * @param prefixCacheHitRate cached prompt tokens / prompt tokens looked up (0 when none)
 * @param steps engine steps executed
 * @param requestsReceived completion requests received (errors included)
 * @param requestsServed requests that finished with a finish reason
 * @param tokensGenerated output tokens the engine generated
 * @param tokensEmitted output tokens written to clients
 * @param emissionLagP50 median emission lag (write time minus scheduled time)
 * @param emissionLagP99 99th percentile emission lag
 * @param emissionLagMax largest emission lag
 * @param emissionLagCount token events whose lag was recorded
 * @param faultsInjected faults injected, by kind (every kind present)
 */
public record SimStats(int running, int waiting, double kvUsage, long preemptions, double prefixCacheHitRate,
                       long steps, long requestsReceived, long requestsServed, long tokensGenerated,
                       long tokensEmitted, Duration emissionLagP50, Duration emissionLagP99, Duration emissionLagMax,
                       long emissionLagCount, Map<FaultKind, Long> faultsInjected) {
    public SimStats {
        faultsInjected = java.util.Collections.unmodifiableMap(new java.util.EnumMap<>(faultsInjected));
    }

    /** Total faults injected, all kinds. */
    public long faultsTotal() {
        return faultsInjected.values().stream().mapToLong(Long::longValue).sum();
    }
}
