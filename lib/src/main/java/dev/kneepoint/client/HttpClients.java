package dev.kneepoint.client;

import java.time.Duration;
import java.util.concurrent.TimeUnit;
import okhttp3.ConnectionPool;
import okhttp3.Dispatcher;
import okhttp3.OkHttpClient;

/**
 * The one {@link OkHttpClient} of the process. Targets derive their own clients from it with
 * {@code newBuilder()}, which share its connection pool and dispatcher.
 *
 * <p>The pool keeps up to 4096 idle connections for five minutes so that thousands of concurrent
 * streams reuse their sockets; the dispatcher's limits are raised far above any load level (they
 * only matter for asynchronous calls, which Kneepoint does not make: requests run with
 * {@code execute()} on the caller's virtual thread, so no executor is ever created).
 *
 * <p>OkHttp's {@code retryOnConnectionFailure} stays on: OkHttp checks a pooled connection before reuse only after
 * 10 s idle, so without it every request that met a connection the server had closed (llama-server closes one
 * after each streamed response) would fail. Each such resend is marked on the record
 * ({@code RequestRecord.retried}), and the client then stops reusing connections (docs/RELIABILITY.md,
 * "Stale keep-alive connections").
 */
public final class HttpClients {
    /** Idle connections kept in the shared pool. */
    public static final int MAX_IDLE_CONNECTIONS = 4096;
    /** Dispatcher limits (total and per host). */
    public static final int MAX_REQUESTS = 1 << 16;

    private static volatile OkHttpClient shared;

    private HttpClients() {
    }

    /** The shared client, created on first use. */
    public static OkHttpClient shared() {
        OkHttpClient c = shared;
        if (c == null) {
            synchronized (HttpClients.class) {
                c = shared;
                if (c == null) {
                    Dispatcher d = new Dispatcher();
                    d.setMaxRequests(MAX_REQUESTS);
                    d.setMaxRequestsPerHost(MAX_REQUESTS);
                    c = new OkHttpClient.Builder()
                            .connectionPool(new ConnectionPool(MAX_IDLE_CONNECTIONS, 5, TimeUnit.MINUTES))
                            .dispatcher(d)
                            .connectTimeout(Duration.ofSeconds(10))
                            .socketFactory(new NoDelaySocketFactory())
                            .build();
                    shared = c;
                }
            }
        }
        return c;
    }

    /**
     * A client for side calls to {@code target} (e.g. {@code /tokenize} during calibration) on the shared
     * pool, with the target's TLS options, its DNS bound and its credentials: the API key as
     * {@code Authorization: Bearer} and the extra headers on every request.
     */
    public static OkHttpClient forTarget(TargetConfig target) {
        OkHttpClient.Builder b = shared().newBuilder()
                .connectTimeout(target.connectTimeout())
                .dns(new BoundedDns(BoundedDns.SYSTEM, target.connectTimeout()))
                .addInterceptor(chain -> {
                    okhttp3.Request.Builder r = chain.request().newBuilder();
                    if (target.hasApiKey()) {
                        r.header("Authorization", "Bearer " + target.apiKey());
                    }
                    target.extraHeaders().forEach(r::header);
                    return chain.proceed(r.build());
                });
        TlsSettings.apply(b, target);
        return b.build();
    }

    /**
     * {@link #forTarget} for the few requests made before a run (preflight, tokenizer calibration): each call is
     * bounded by the target's connect plus first-token timeouts (a server that streams forever cannot hold it), and
     * asks {@code Connection: close}, so the shared pool keeps no idle connection to the target afterwards.
     */
    public static OkHttpClient forChecks(TargetConfig target) {
        return forTarget(target).newBuilder().callTimeout(target.connectTimeout().plus(target.firstTokenTimeout()))
                .addInterceptor(chain -> chain.proceed(chain.request().newBuilder().header("Connection", "close")
                        .build()))
                .build();
    }

    /**
     * Closes the shared pools' idle connections, OkHttp's and the {@link Transport#NIO} transport's (e.g.
     * between runs); in-flight requests are untouched.
     */
    public static void evictIdleConnections() {
        OkHttpClient c = shared;
        if (c != null) {
            c.connectionPool().evictAll();
        }
        NioLoop.evictIdleConnections();
    }
}
