package dev.kneepoint.client;

import dev.kneepoint.metrics.Outcome;
import dev.kneepoint.metrics.RequestRecord;
import dev.kneepoint.request.Cancellation;
import dev.kneepoint.request.RequestContext;
import dev.kneepoint.request.RequestSender;
import dev.kneepoint.request.RequestSpec;
import java.time.Duration;
import java.util.Objects;
import java.util.Set;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.TimeUnit;
import okhttp3.Call;
import okhttp3.ConnectionPool;
import okhttp3.MediaType;
import okhttp3.OkHttpClient;
import okhttp3.Request;
import okhttp3.RequestBody;

/**
 * Sends requests to an LLM server, streaming by default, and measures each one by METRICS.md: an
 * OpenAI-compatible one ({@code /v1/chat/completions} or {@code /v1/completions}) or a native API
 * (TGI, Ollama, llama.cpp, SGLang), as the target's {@link ApiKind} says.
 *
 * <p>Threading: {@link #execute} is synchronous on the caller's thread (the load layer gives each
 * request its own virtual thread), so thousands of concurrent streams need no platform thread each.
 * The transport follows {@link TargetConfig#transport()}: on {@link Transport#NIO} (the default for
 * {@code http://}) the process-wide selector thread does the I/O and parsing and the caller parks until
 * its request ended; on {@link Transport#OKHTTP} the caller runs the OkHttp call itself, on a client
 * derived from {@link HttpClients#shared()} (its dispatcher and socket factory) with a connection pool of
 * its own, emptied by {@link #close()}, the target's TLS options ({@link TargetConfig#trustCertificate()},
 * {@link TargetConfig#insecureSkipTlsVerify()}) and a DNS lookup bounded by the connect timeout. Both
 * produce the same records. Thread-safe; one instance per target.
 *
 * <p>Timestamps: {@code t_dispatch} just before the call executes, {@code t_first_byte} when the
 * response headers are in, then one timestamp right after each read returns, used for every event
 * decoded from that read: {@code t_first_token} at the first event carrying content or reasoning
 * text (never a role-only or usage-only chunk), a chunk per token-carrying event, {@code t_end} at
 * {@code [DONE]} or end of stream.
 *
 * <p>Outcomes (exactly one): {@code HTTP_ERROR(status)} with a body snippet for status >= 400;
 * {@code CONNECTION_ERROR} for refused, unknown host, TLS or a reset before or during the stream;
 * {@code STREAM_ERROR} for an error object, malformed JSON, invalid UTF-8 or an oversize event;
 * {@code EMPTY} for a finished stream without tokens; {@code TRUNCATED} for end of stream without
 * {@code [DONE]} nor a finish reason; {@code TIMEOUT(kind)} naming the deadline that passed;
 * {@code CANCELLED} when the {@link Cancellation} fires, the thread is interrupted or the client is
 * closed, keeping what was measured. A platform thread blocked in a read notices an interrupt only
 * when the read returns; virtual threads are woken at once by the JDK.
 */
public final class StreamingClient implements RequestSender, AutoCloseable {
    private static final MediaType JSON = MediaType.get("application/json; charset=utf-8");

    private final TargetConfig target;
    private final OkHttpClient http;
    /**
     * Set once OkHttp had to resend a request (a pooled connection the server had closed, as llama-server does after
     * every streamed response): the same client without idle connections, so that no request meets a stale one again.
     */
    private volatile OkHttpClient httpNoReuse;
    private final Set<Call> inFlight = ConcurrentHashMap.newKeySet();
    private final Set<NioExchange> nioInFlight = ConcurrentHashMap.newKeySet();
    private volatile boolean closed;

    /** A client for {@code target}, with its own connection pool. */
    public StreamingClient(TargetConfig target) {
        this.target = Objects.requireNonNull(target, "target");
        OkHttpClient.Builder builder = HttpClients.shared().newBuilder()
                .connectTimeout(target.connectTimeout())
                // a pool of its own, emptied by close(): a finished sweep leaves no idle socket behind
                .connectionPool(new ConnectionPool(HttpClients.MAX_IDLE_CONNECTIONS, 5, TimeUnit.MINUTES))
                // the system resolver cannot be interrupted and is not covered by the connect timeout
                .dns(new BoundedDns(BoundedDns.SYSTEM, target.connectTimeout()))
                // first-token, idle and total deadlines are enforced per request by RequestDeadlines,
                // which knows which one passed; OkHttp's own would fire the idle limit while queued
                .readTimeout(Duration.ZERO)
                .writeTimeout(Duration.ZERO)
                .callTimeout(Duration.ZERO)
                .eventListenerFactory(CallProbe.FACTORY);
        TlsSettings.apply(builder, target);
        this.http = builder.build();
    }

    /** The target this client sends to. */
    public TargetConfig target() {
        return target;
    }

    /**
     * Sends one request and blocks until it ended; never throws for a request failure.
     *
     * @throws IllegalArgumentException only when the spec's extra body cannot be written as JSON
     *                                  (a configuration bug, not a server behaviour)
     */
    @Override
    public RequestRecord execute(RequestSpec spec, RequestContext context, Cancellation cancellation) {
        return prepare(spec, context).send(cancellation);
    }

    /**
     * Builds the request's bytes now (on NIO the whole HTTP request, else the body); {@code send} stamps
     * {@code t_dispatch} and sends them.
     */
    @Override
    public Prepared prepare(RequestSpec spec, RequestContext context) {
        byte[] body = RequestBodies.body(target, spec);
        byte[] payload = target.usesNio() ? Http1Request.post(target, body) : body;
        return cancellation -> send(spec, context, cancellation, payload);
    }

    /** Sends {@code payload}: the whole HTTP request on NIO, the body on OkHttp. */
    private RequestRecord send(RequestSpec spec, RequestContext context, Cancellation cancellation, byte[] payload) {
        RequestRecord.Builder b = context.recordBuilder(spec);
        b.streamed = target.stream();
        if (closed || cancellation.isCancelled() || Thread.currentThread().isInterrupted()) {
            b.outcome = Outcome.CANCELLED;
            b.endNanos = context.clock().now();
            return b.build();
        }
        if (target.usesNio()) {
            return executeNio(spec, context, cancellation, b, payload);
        }
        CallProbe probe = new CallProbe();
        OkHttpClient noReuse = httpNoReuse;
        Call call = (noReuse != null ? noReuse : http).newCall(request(payload, probe));
        inFlight.add(call);
        try {
            cancellation.onCancel(call::cancel);
            if (closed) {
                call.cancel();
            }
            Exchange x = new Exchange(target, call, probe, context.clock(), b).answering(spec);
            cancellation.onProgress(x::inFlight);
            x.tokenListener(cancellation.tokenListener());
            x.run(cancellation, spec.requestedPromptTokens());
            if (closed && !b.outcome.isOk() && call.isCanceled()) {
                b.outcome = Outcome.CANCELLED;
            }
            if (b.retried && noReuse == null) {
                stopReusingConnections();
            }
        } finally {
            inFlight.remove(call);
        }
        return b.build();
    }

    private RequestRecord executeNio(RequestSpec spec, RequestContext context, Cancellation cancellation,
                                     RequestRecord.Builder b, byte[] wire) {
        NioExchange x = new NioExchange(target, wire, context.clock(), b, spec.requestedPromptTokens())
                .answering(spec);
        nioInFlight.add(x);
        try {
            cancellation.onProgress(() -> x.state.tally.inFlight(b));
            x.state.tally.tokenListener(cancellation.tokenListener());
            cancellation.onCancel(x::cancel);
            if (closed) {
                x.cancel();
            }
            x.run(NioLoop.shared());
        } finally {
            nioInFlight.remove(x);
        }
        return b.build();
    }

    private synchronized void stopReusingConnections() {
        if (httpNoReuse == null) {
            httpNoReuse = http.newBuilder().connectionPool(new ConnectionPool(0, 1, TimeUnit.SECONDS)).build();
            http.connectionPool().evictAll();
        }
    }

    private Request request(byte[] body, CallProbe probe) {
        Request.Builder r = new Request.Builder()
                .url(target.endpoint())
                .post(RequestBody.create(body, JSON))
                .header("Accept", !target.stream() ? "application/json"
                        : target.apiKind().framing() == ApiKind.Framing.NDJSON ? "application/x-ndjson" : "text/event-stream")
                .tag(CallProbe.class, probe);
        if (target.hasApiKey()) {
            r.header("Authorization", "Bearer " + target.apiKey());
        }
        target.extraHeaders().forEach(r::header);
        return r.build();
    }

    /**
     * Cancels every request in flight (they end as {@code CANCELLED}), refuses new ones and closes this
     * client's idle connections.
     */
    @Override
    public void close() {
        closed = true;
        for (Call c : inFlight) {
            c.cancel();
        }
        for (NioExchange x : nioInFlight) {
            x.cancel();
        }
        http.connectionPool().evictAll();
        OkHttpClient noReuse = httpNoReuse;
        if (noReuse != null) {
            noReuse.connectionPool().evictAll();
        }
        if (target.usesNio()) {
            NioLoop.evictIdleConnections(target);
        }
    }

    @Override
    public String toString() {
        return "StreamingClient[" + target.describe() + "]";
    }
}
