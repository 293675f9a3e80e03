package dev.kneepoint.metrics;

import java.util.Arrays;

/**
 * The time facts of a step's requests that windowed rates need once the window is known: every token
 * arrival (packed as {@code t << 14 | tokens}, 8 bytes per token-carrying event) and one span per request.
 * When the window is known in advance (a run read back from disk), the arrivals are counted as they come
 * instead of kept. Not thread-safe: {@link StepAggregator} guards it.
 */
final class OldWindowFacts {
    private static final int TOKEN_BITS = 14;
    private static final int MAX_TOKENS = (1 << TOKEN_BITS) - 1;
    private static final byte OK = 1;
    private static final byte GOOD = 2;
    private static final byte CANCELLED = 4;

    private final StepWindow known;
    private long knownOutTokens;
    private long[] arrivals = new long[1024];
    private int arrivalCount;
    private long[] spans = new long[3 * 256]; // dispatch, end, prompt tokens << 8 | flags
    private int spanCount;

    /** Keeps every token arrival until the window is known. */
    OldWindowFacts() {
        this(null);
    }

    /** Counts only the tokens arriving in {@code known} (null: keeps every arrival); {@link #rates} must get it. */
    OldWindowFacts(StepWindow known) {
        this.known = known;
        if (known != null) {
            arrivals = null;
        }
    }

    void add(RequestRecord r, boolean good) {
        long[] t = r.timing().chunkNanos();
        int[] k = r.timing().chunkTokens();
        if (known != null) {
            for (int i = 0; i < t.length; i++) {
                if (k[i] > 0 && t[i] >= 0 && known.contains(t[i])) {
                    knownOutTokens += k[i];
                }
            }
        }
        for (int i = 0; known == null && i < t.length; i++) {
            int tokens = k[i];
            while (tokens > 0 && t[i] >= 0) {
                int part = Math.min(tokens, MAX_TOKENS);
                addArrival(t[i] << TOKEN_BITS | part);
                tokens -= part;
            }
        }
        if (3 * spanCount + 3 > spans.length) {
            spans = Arrays.copyOf(spans, spans.length * 2);
        }
        int flags = (r.isOk() ? OK : 0) | (good ? GOOD : 0) | (r.outcome() instanceof Outcome.Cancelled ? CANCELLED : 0);
        long end = r.timing().endNanos() >= 0 ? r.timing().endNanos()
                : Math.max(r.timing().lastTokenNanos(), r.timing().dispatchNanos());
        spans[3 * spanCount] = r.timing().dispatchNanos();
        spans[3 * spanCount + 1] = end;
        spans[3 * spanCount + 2] = (long) Math.max(0, r.tokens().promptTokens()) << 8 | flags;
        spanCount++;
    }

    private void addArrival(long packed) {
        if (arrivalCount == arrivals.length) {
            arrivals = Arrays.copyOf(arrivals, arrivals.length * 2);
        }
        arrivals[arrivalCount++] = packed;
    }

    /** Rates over {@code w}; NaN for all when the window has zero length. */
    Rates rates(StepWindow w) {
        if (known != null && !known.equals(w)) {
            throw new IllegalArgumentException("this step's token arrivals were counted for the window " + known
                    + " given in advance, not kept: finish it with that window, not " + w);
        }
        double seconds = w.lengthNanos() / 1e9;
        long outTokens = knownOutTokens;
        for (int i = 0; i < arrivalCount; i++) {
            if (w.contains(arrivals[i] >>> TOKEN_BITS)) {
                outTokens += arrivals[i] & MAX_TOKENS;
            }
        }
        long inTokens = 0;
        long ok = 0;
        long good = 0;
        long outcomes = 0;
        double busyNanos = 0;
        for (int i = 0; i < spanCount; i++) {
            long dispatch = spans[3 * i];
            long end = spans[3 * i + 1];
            long promptAndFlags = spans[3 * i + 2];
            int flags = (int) (promptAndFlags & 0xff);
            if (dispatch >= 0 && w.contains(dispatch)) {
                inTokens += promptAndFlags >>> 8;
            }
            if (w.contains(end) && (flags & CANCELLED) == 0) {
                outcomes++;
                ok += (flags & OK) != 0 ? 1 : 0;
                good += (flags & GOOD) != 0 ? 1 : 0;
            }
            if (dispatch >= 0) {
                busyNanos += Math.max(0, Math.min(end, w.endNanos()) - Math.max(dispatch, w.startNanos()));
            }
        }
        if (w.lengthNanos() == 0) {
            return new Rates(Double.NaN, Double.NaN, Double.NaN, Double.NaN,
                    outcomes == 0 ? Double.NaN : (double) good / outcomes, Double.NaN);
        }
        return new Rates(outTokens / seconds, inTokens / seconds, ok / seconds, good / seconds,
                outcomes == 0 ? Double.NaN : (double) good / outcomes, busyNanos / w.lengthNanos());
    }

    /** Largest end (or token arrival) seen, or -1: the end of a window that never got closed. */
    long lastNanos() {
        long last = -1;
        for (int i = 0; i < spanCount; i++) {
            last = Math.max(last, spans[3 * i + 1]);
        }
        return last;
    }

    record Rates(double outputTokensPerS, double inputTokensPerS, double requestsPerS, double goodputRps,
                 double goodFraction, double concurrencyMean) {}
}
