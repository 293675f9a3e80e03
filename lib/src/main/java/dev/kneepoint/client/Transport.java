package dev.kneepoint.client;

/**
 * How a target's requests travel on the wire. Both transports feed the same SSE parser and stream
 * state, so they produce the same records (outcomes, token counts, finish reasons, server timings).
 */
public enum Transport {
    /**
     * The default: {@link #OKHTTP} for now. {@link #NIO} is opt-in until a connection error seen once against
     * llama-server in CI is understood (docs/PERFORMANCE.md, "NIO transport").
     */
    AUTO,
    /**
     * OkHttp, one blocking call per request on the request's (virtual) thread: HTTPS, HTTP/2, proxies,
     * transparent gzip, a silent retry of a request that met a stale pooled connection.
     */
    OKHTTP,
    /**
     * Kneepoint's own HTTP/1.1 client for plain {@code http://}: one selector thread owns every
     * socket, parses responses and feeds the SSE parser with one timestamp per read; the request's
     * thread only waits. Several times cheaper per token than {@link #OKHTTP} at thousands of streams.
     * A stale kept-alive connection is reported as a failure, never silently retried.
     */
    NIO
}
