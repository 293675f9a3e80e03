package dev.kneepoint.client;

import okhttp3.Call;
import okhttp3.Connection;
import okhttp3.EventListener;

/**
 * Per-call OkHttp event listener (attached as a request tag) noting whether a connection was obtained, and how
 * many times: more than once means OkHttp sent the request again after a connection failure (its
 * {@code retryOnConnectionFailure}, typically a pooled connection the server had closed); and, when OkHttp opened a
 * connection for the call, how long its DNS lookup, TCP connect and TLS handshake took.
 */
final class CallProbe extends EventListener {
    /** Finds the probe tagged on the call's request; OkHttp calls this once per call. */
    static final EventListener.Factory FACTORY = call -> {
        CallProbe p = call.request().tag(CallProbe.class);
        return p != null ? p : EventListener.NONE;
    };

    private volatile boolean connected;
    private volatile int acquired;
    // a new connection's phases, System.nanoTime(); OkHttp reports them from the calling thread
    private boolean fresh;
    private long dnsStart = -1;
    private long dnsNanos = -1;
    private long connectStart = -1;
    private long connectNanos = -1;
    private long tlsStart = -1;
    private long tlsNanos = -1;

    @Override
    public void dnsStart(Call call, String domainName) {
        dnsStart = System.nanoTime();
    }

    @Override
    public void dnsEnd(Call call, String domainName, java.util.List<java.net.InetAddress> addresses) {
        dnsNanos = System.nanoTime() - dnsStart;
    }

    @Override
    public void connectStart(Call call, java.net.InetSocketAddress address, java.net.Proxy proxy) {
        fresh = true;
        if (connectStart < 0) {
            connectStart = System.nanoTime(); // the first address tried: a failed one's time counts
        }
    }

    @Override
    public void secureConnectStart(Call call) {
        tlsStart = System.nanoTime();
        connectNanos = tlsStart - connectStart;
    }

    @Override
    public void secureConnectEnd(Call call, okhttp3.Handshake handshake) {
        tlsNanos = System.nanoTime() - tlsStart;
    }

    @Override
    public void connectEnd(Call call, java.net.InetSocketAddress address, java.net.Proxy proxy,
                           okhttp3.Protocol protocol) {
        if (tlsStart < 0) {
            connectNanos = System.nanoTime() - connectStart;
        }
    }

    /** Writes whether a new connection was opened and its phases into {@code b} (the calling thread, after the call). */
    void phasesTo(dev.kneepoint.metrics.RequestRecord.Builder b) {
        b.newConnection = fresh;
        if (fresh) {
            b.dnsNanos = dnsNanos;
            b.connectNanos = connectNanos;
            b.tlsNanos = tlsNanos;
        }
    }

    @Override
    public void connectionAcquired(Call call, Connection connection) {
        connected = true;
        acquired++; // OkHttp reports a call's events from the calling thread, one at a time
    }

    /** True when the call was sent on more than one connection (OkHttp retried it). */
    boolean retried() {
        return acquired > 1;
    }

    boolean connected() {
        return connected;
    }
}
