package dev.kneepoint.client;

/**
 * Splits a response body into payloads as bytes arrive: {@link SseParser} or {@link NdjsonParser}.
 * This is the seam between a transport and the decoding: a transport feeds whatever bytes one read
 * returned (after setting the read's timestamp on the {@link StreamState}) and calls
 * {@link #finish()} at end of stream. Not thread-safe: one framer per stream.
 */
interface StreamFramer {

    /** Parses {@code len} bytes of {@code buf} from {@code off}; complete payloads are reported at once. */
    void feed(byte[] buf, int off, int len);

    /**
     * Ends the stream.
     *
     * @return true when a partial payload was pending (the stream was cut mid-event)
     */
    boolean finish();

    /**
     * Checks a framer's size limit.
     *
     * @return {@code limit}, when positive
     * @throws IllegalArgumentException when it is not
     */
    static int positiveLimit(int limit, String name) {
        if (limit <= 0) {
            throw new IllegalArgumentException(name + " must be positive, got " + limit);
        }
        return limit;
    }

    /**
     * A framer's pending-bytes buffer grown to hold at least {@code need} bytes (at least doubled, at most
     * {@code Integer.MAX_VALUE - 16}), with the first {@code used} bytes of {@code pending} copied in. Called only
     * when {@code need} exceeds {@code pending.length}.
     */
    static byte[] grow(byte[] pending, int used, int need) {
        long grown = Math.max((long) pending.length * 2, need);
        byte[] bigger = new byte[(int) Math.min(grown, Integer.MAX_VALUE - 16)];
        System.arraycopy(pending, 0, bigger, 0, used);
        return bigger;
    }
}
