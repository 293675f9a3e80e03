package dev.kneepoint.client;

import okhttp3.Call;
import okhttp3.Connection;
import okhttp3.EventListener;

/**
 * Per-call OkHttp event listener (attached as a request tag) noting whether a connection was obtained, and how
 * many times: more than once means OkHttp sent the request again after a connection failure (its
 * {@code retryOnConnectionFailure}, typically a pooled connection the server had closed).
 */
final class CallProbe extends EventListener {
    /** Finds the probe tagged on the call's request; OkHttp calls this once per call. */
    static final EventListener.Factory FACTORY = call -> {
        CallProbe p = call.request().tag(CallProbe.class);
        return p != null ? p : EventListener.NONE;
    };

    private volatile boolean connected;
    private volatile int acquired;

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
