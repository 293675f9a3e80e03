package dev.kneepoint.client;

/**
 * How a target's requests travel on the wire. Both transports feed the same SSE parser and stream
 * state, so they produce the same records (outcomes, token counts, finish reasons, server timings).
 */
public enum Transport {
    /**
     * The default: {@link #NIO} for plain {@code http://} targets, {@link #OKHTTP} for {@code https://}. (It meant
     * OkHttp for a while, until the connection error once seen against llama-server was understood and fixed:
     * docs/RELIABILITY.md, "Stale keep-alive connections".)
     */
    AUTO,
    /**
     * OkHttp, one blocking call per request on the request's (virtual) thread: HTTPS, HTTP/2, proxies,
     * transparent gzip. OkHttp resends a request that met a stale pooled connection (it checks a connection
     * before reuse only after 10 s idle); the record says so ({@code RequestRecord.retried}), and after the
     * first such resend the client stops reusing connections to that server.
     */
    OKHTTP,
    /**
     * Kneepoint's own HTTP/1.1 client for plain {@code http://}: one selector thread owns every
     * socket, parses responses and feeds the SSE parser with one timestamp per read; the request's
     * thread only waits. Several times cheaper per token than {@link #OKHTTP} at thousands of streams.
     * A pooled connection is checked before reuse and dropped when the server closed it; a server that closes
     * connections after responses without saying {@code Connection: close} (llama-server after each stream)
     * gets no more pooled connections; a request that still meets a stale connection, before any byte of its
     * response, is resent once on a fresh connection and its record says so ({@code RequestRecord.retried}).
     */
    NIO
}
