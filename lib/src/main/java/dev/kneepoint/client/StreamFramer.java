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
}
