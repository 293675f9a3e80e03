package dev.kneepoint.metrics;

import java.util.SplittableRandom;

/** Random request records for the equivalence tests: every outcome, tokens at random times, some split counts. */
final class RandomRecords {
    private RandomRecords() {}

    /**
     * Completes {@code b} (identity, intended time and prompt already set) from its dispatch at {@code dispatch}:
     * 1 in 20 dropped (never dispatched), otherwise up to {@code maxChunks - 1} chunks {@code 0..maxGapNanos} apart
     * (1 in 30 with a count over 2^14), then 503, cancelled or OK, and 1 in 15 without an end time.
     */
    static RequestRecord finish(SplittableRandom rnd, RequestRecord.Builder b, long dispatch, int maxChunks,
                                long maxGapNanos) {
        int kind = rnd.nextInt(20);
        if (kind == 0) { // dropped: never dispatched
            b.endNanos = dispatch;
            b.outcome = Outcome.DROPPED;
            return b.build();
        }
        b.dispatchNanos = dispatch;
        int chunks = kind == 1 ? 0 : rnd.nextInt(0, maxChunks);
        long[] t = new long[chunks];
        int[] k = new int[chunks];
        long at = dispatch + rnd.nextLong(0, 800);
        int total = 0;
        for (int c = 0; c < chunks; c++) {
            t[c] = at;
            k[c] = rnd.nextInt(30) == 0 ? 20_000 + rnd.nextInt(20_000) : rnd.nextInt(0, 4); // > 2^14: split
            total += k[c];
            at += rnd.nextLong(0, maxGapNanos);
        }
        b.chunkNanos = t;
        b.chunkTokens = k;
        b.outputTokens = total;
        if (chunks > 0) {
            b.firstByteNanos = t[0];
            b.firstTokenNanos = t[0];
            b.lastTokenNanos = t[chunks - 1];
        }
        long last = chunks > 0 ? t[chunks - 1] : dispatch;
        b.endNanos = rnd.nextInt(15) == 0 ? RequestRecord.ABSENT : last + rnd.nextLong(0, 3);
        b.outcome = kind == 1 ? new Outcome.HttpError(503, "")
                : kind == 2 ? Outcome.CANCELLED : Outcome.OK;
        b.finishReason = "stop";
        b.tokenSource = TokenSource.SERVER_USAGE;
        return b.build();
    }

    /** The latest clock reading a record carries (when it can be handed over at the earliest). */
    static long latest(RequestRecord r) {
        long l = Math.max(Math.max(r.timing().dispatchNanos(), r.timing().endNanos()), r.timing().lastTokenNanos());
        for (long t : r.timing().chunkNanos()) {
            l = Math.max(l, t);
        }
        return l;
    }
}
