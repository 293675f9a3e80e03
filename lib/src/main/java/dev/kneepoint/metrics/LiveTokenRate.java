package dev.kneepoint.metrics;

import java.util.Arrays;

/**
 * The live token rate of a running step ({@link StepAggregator#progress}): tokens arriving in the last
 * {@link StepAggregator#PROGRESS_SPAN_NANOS}, counted in a ring of 64 bins of 250 ms (16 s of history) on the run
 * clock, so memory stays constant however long the step. A bin is reused for a later time once that time comes;
 * tokens older than the bin's current time are dropped. Not thread-safe: the aggregator calls it under its lock.
 */
final class LiveTokenRate {
    private static final long BIN_NANOS = 250_000_000L;
    private static final int BINS = 64;

    /** The bin number ({@code time / BIN_NANOS}) each slot counts now, -1 when none. */
    private final long[] binId = new long[BINS];
    private final long[] binTokens = new long[BINS];

    LiveTokenRate() {
        Arrays.fill(binId, -1);
    }

    /** Counts the record's token arrivals (chunks without a time are skipped). */
    void add(RequestRecord r) {
        long[] t = r.timing().chunkNanos();
        int[] k = r.timing().chunkTokens();
        for (int i = 0; i < t.length; i++) {
            if (t[i] < 0) {
                continue;
            }
            long id = t[i] / BIN_NANOS;
            int slot = (int) (id % BINS);
            if (binId[slot] < id) {
                binId[slot] = id;
                binTokens[slot] = 0;
            }
            if (binId[slot] == id) {
                binTokens[slot] += k[i];
            }
        }
    }

    /** Tokens per second over the whole bins of the span before {@code nowNanos}'s bin. */
    double tokensPerS(long nowNanos) {
        long from = (nowNanos - StepAggregator.PROGRESS_SPAN_NANOS) / BIN_NANOS;
        long to = nowNanos / BIN_NANOS;
        long tokens = 0;
        for (int s = 0; s < BINS; s++) {
            if (binId[s] >= from && binId[s] < to) {
                tokens += binTokens[s];
            }
        }
        double span = (to - from) * BIN_NANOS / 1e9;
        return tokens / span;
    }
}
