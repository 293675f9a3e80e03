package dev.kneepoint.io;

/**
 * One load level as one tool measured it ({@link PeerResults}), in Kneepoint's terms (docs/METRICS.md "Names in other tools"):
 * {@code tpotP50Ms} is Kneepoint's {@code tpot}, which AIPerf and GuideLLM call ITL; {@code lag*} is the
 * tool's own dispatch lag (Kneepoint {@code schedule_lag}, AIPerf {@code credit_to_start_latency}, GuideLLM
 * {@code request_dispatch_delay}). {@code dispatchRps} is measured from the tool's per-request start times:
 * (starts − 1) / (last start − first start). NaN where a figure is not available.
 *
 * @param mode {@code closed} (load = concurrency) or {@code open} (load = target request rate, req/s)
 * @param load concurrency or target rate
 * @param requestsOk requests that completed successfully
 * @param requestsFailed requests that failed
 * @param outputTokens output tokens received (the tool's own count)
 * @param durationS the tool's measurement duration, s
 * @param ttftP50Ms TTFT p50, ms
 * @param ttftP99Ms TTFT p99, ms
 * @param tpotP50Ms TPOT p50 (AIPerf/GuideLLM ITL), ms
 * @param outputTokensPerS output token throughput as the tool reports it
 * @param requestsPerS request throughput as the tool reports it
 * @param lagP50Ms dispatch lag p50, ms
 * @param lagP99Ms dispatch lag p99, ms
 * @param dispatchRps achieved dispatch rate from per-request start times, req/s
 */
public record PeerPoint(String mode, double load, long requestsOk, long requestsFailed, long outputTokens,
        double durationS, double ttftP50Ms, double ttftP99Ms, double tpotP50Ms, double outputTokensPerS,
        double requestsPerS, double lagP50Ms, double lagP99Ms, double dispatchRps) {

    /** Whether the client kept up with this open-loop rate: no failure, dispatched at ≥ 95 % of the
     *  target rate, and (where the tool reports it) dispatch lag p99 within {@code maxLagP99Ms}. */
    public boolean sustained(double maxLagP99Ms) {
        return mode.equals("open") && requestsFailed == 0 && requestsOk > 0 && dispatchRps >= 0.95 * load
                && (Double.isNaN(lagP99Ms) || lagP99Ms <= maxLagP99Ms);
    }
}
