package dev.kneepoint.metrics;

/**
 * How a request reached the server ({@link RequestRecord.Response#connection()}): a connection opened for it, or a
 * kept-alive one (no setup paid). Phases are durations in ns inside its TTFT, {@link RequestRecord#ABSENT} when not
 * paid (reused connection; IP address: no DNS; HTTP: no TLS).
 *
 * @param fresh        true when a new connection was opened for the request (the last one, when it was sent again)
 * @param dnsNanos     the host name's lookup
 * @param connectNanos the TCP connect (every address tried), up to the TLS handshake or the connection's use
 * @param tlsNanos     the TLS handshake
 */
public record Connection(boolean fresh, long dnsNanos, long connectNanos, long tlsNanos) {
    /** A kept-alive connection, or a record from before connections were recorded. */
    public static final Connection UNKNOWN =
            new Connection(false, RequestRecord.ABSENT, RequestRecord.ABSENT, RequestRecord.ABSENT);

    /** The time the new connection's setup took (DNS, connect, TLS), ns; 0 for a reused one. */
    public long setupNanos() {
        return Math.max(0, dnsNanos) + Math.max(0, connectNanos) + Math.max(0, tlsNanos);
    }
}
