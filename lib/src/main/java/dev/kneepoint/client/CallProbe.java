package dev.kneepoint.client;

import okhttp3.Call;
import okhttp3.Connection;
import okhttp3.EventListener;

/** Per-call OkHttp event listener (attached as a request tag) noting whether a connection was obtained. */
final class CallProbe extends EventListener {
    /** Finds the probe tagged on the call's request; OkHttp calls this once per call. */
    static final EventListener.Factory FACTORY = call -> {
        CallProbe p = call.request().tag(CallProbe.class);
        return p != null ? p : EventListener.NONE;
    };

    private volatile boolean connected;

    @Override
    public void connectionAcquired(Call call, Connection connection) {
        connected = true;
    }

    boolean connected() {
        return connected;
    }
}
