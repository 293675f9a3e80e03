package dev.kneepoint.metrics;

/**
 * A live snapshot of a running step, for progress displays; separate from the final {@link StepResult}.
 * Token and request counts cover requests that have finished so far: tokens of requests still in
 * flight are not yet known, so the live token rate lags a little behind the final windowed one.
 *
 * @param step             step label
 * @param requestsDone     non-warm-up requests finished (any outcome)
 * @param requestsFailed   of those, not OK and not cancelled
 * @param warmupRequests   warm-up requests finished
 * @param outputTokensPerS output tokens that arrived in the last {@link StepAggregator#PROGRESS_SPAN_NANOS}
 *                         before {@code now}, per second
 * @param ttftP99Ms        p99 of {@code ttft} so far, ms (NaN when none)
 * @param ttftSchedP99Ms   p99 of {@code ttft_sched} so far, ms (NaN when none)
 * @param inFlight         requests in flight, or -1 when unknown to the aggregator
 */
public record StepProgress(String step, long requestsDone, long requestsFailed, long warmupRequests,
                           double outputTokensPerS, double ttftP99Ms, double ttftSchedP99Ms, int inFlight) {}
