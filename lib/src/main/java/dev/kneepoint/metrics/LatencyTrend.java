package dev.kneepoint.metrics;

/**
 * How a step's queueing moved through its window (METRICS.md "Latency trend"): the least-squares line of each OK
 * request's {@code ttft_sched} against its intended start, over the step's requests (warm-up excluded). A server
 * that keeps up has no trend (a flat line within noise); one whose queue grows shows a rising line; one that had not
 * warmed up, a falling one. TTFT, not E2E: the requests that start late in the window decode while the step's load
 * winds down, so their E2E falls even when the queue grows, while the wait for a first token reflects the load they
 * arrived into. Computed exactly (integer sums), so every way a step is aggregated gives the same trend, bit for
 * bit.
 *
 * @param requests    OK requests the line is fitted to
 * @param spanS       seconds between the first and the last intended start of those requests
 * @param slopeMsPerS latency change per second of intended start (ms/s); NaN with fewer than
 *                    {@link #MIN_REQUESTS} requests or a zero span
 * @param meanMs      mean {@code ttft_sched} of those requests (ms); NaN without requests
 * @param t           the slope's t statistic (slope over its standard error), at most {@link #T_CAP} in size (a
 *                    perfect line); NaN when the slope is
 */
public record LatencyTrend(long requests, double spanS, double slopeMsPerS, double meanMs, double t) {

    /** Requests below which no line is fitted: a slope through a handful of points says nothing. */
    public static final long MIN_REQUESTS = 10;

    /** The largest t statistic reported: points exactly on a line would have an infinite one. */
    public static final double T_CAP = 1e6;

    /** No requests: nothing measured. */
    public static final LatencyTrend NONE = new LatencyTrend(0, 0, Double.NaN, Double.NaN, Double.NaN);

    /** Whether a line was fitted (enough requests over a non-zero span). */
    public boolean measured() {
        return !Double.isNaN(slopeMsPerS);
    }

    /** The fitted latency change from the first to the last intended start (ms): slope × span; NaN when unmeasured. */
    public double riseMs() {
        return slopeMsPerS * spanS;
    }
}
