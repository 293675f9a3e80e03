package dev.kneepoint.metrics;

/** Hand-made request records for tests; times in milliseconds on the run clock. */
public final class TestRecords {
    private TestRecords() {}

    public static final long MS = 1_000_000L;

    /**
     * An OK streamed record dispatched at {@code dispatchMs} (intended at {@code intendedMs}) whose token
     * events arrive at {@code chunkMs} carrying {@code tokens}; it ends 1 ms after its last token.
     */
    public static RequestRecord.Builder ok(long id, String step, double intendedMs, double dispatchMs,
                                           double[] chunkMs, int[] tokens) {
        RequestRecord.Builder b = new RequestRecord.Builder();
        b.id = id;
        b.step = step;
        b.intendedNanos = nanos(intendedMs);
        b.dispatchNanos = nanos(dispatchMs);
        b.firstByteNanos = b.dispatchNanos;
        long[] t = new long[chunkMs.length];
        int total = 0;
        for (int i = 0; i < t.length; i++) {
            t[i] = nanos(chunkMs[i]);
            total += tokens[i];
        }
        b.chunkNanos = t;
        b.chunkTokens = tokens.clone();
        b.firstTokenNanos = t.length > 0 ? t[0] : RequestRecord.ABSENT;
        b.lastTokenNanos = t.length > 0 ? t[t.length - 1] : RequestRecord.ABSENT;
        b.endNanos = (t.length > 0 ? t[t.length - 1] : b.dispatchNanos) + MS;
        b.outputTokens = total;
        b.promptTokens = 100;
        b.tokenSource = TokenSource.SERVER_USAGE;
        b.finishReason = "stop";
        return b;
    }

    /** A failed record dispatched at {@code dispatchMs}, ending at {@code endMs}, with no tokens. */
    public static RequestRecord failed(long id, String step, double dispatchMs, double endMs, Outcome outcome) {
        RequestRecord.Builder b = new RequestRecord.Builder();
        b.id = id;
        b.step = step;
        b.intendedNanos = nanos(dispatchMs);
        b.dispatchNanos = outcome instanceof Outcome.Dropped ? RequestRecord.ABSENT : nanos(dispatchMs);
        b.endNanos = nanos(endMs);
        b.outcome = outcome;
        b.promptTokens = 100;
        return b.build();
    }

    public static long nanos(double ms) {
        return Math.round(ms * MS);
    }

    public static StepInfo closedStep(String label, int concurrency) {
        return new StepInfo(0, label, StepInfo.CLOSED, concurrency, Double.NaN, "", -1, "", 0, -1, -1);
    }

    public static StepInfo openStep(String label, double rate) {
        return new StepInfo(1, label, StepInfo.OPEN, -1, rate, "poisson", -1, "", 0, -1, -1);
    }

    public static StepWindow window(double startMs, double endMs) {
        return new StepWindow(0, nanos(startMs), nanos(endMs), true);
    }
}
