package dev.kneepoint.client;

import static dev.kneepoint.client.RawServer.SSE_HEAD;
import static dev.kneepoint.client.RawServer.reset;
import static dev.kneepoint.client.RawServer.send;
import static dev.kneepoint.client.ScriptedBody.content;
import static dev.kneepoint.client.ScriptedBody.finish;
import static dev.kneepoint.client.ScriptedBody.role;
import static org.assertj.core.api.Assertions.assertThat;

import dev.kneepoint.metrics.RequestRecord;
import dev.kneepoint.metrics.RunClock;
import dev.kneepoint.request.Cancellation;
import dev.kneepoint.request.RequestContext;
import dev.kneepoint.request.RequestSpec;
import java.net.ServerSocket;
import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.concurrent.TimeUnit;
import java.util.stream.Stream;
import mockwebserver3.MockResponse;
import mockwebserver3.MockWebServer;
import okhttp3.Protocol;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.MethodSource;

/**
 * The fault matrix of docs/RELIABILITY.md in one place: every fault a server or the network can produce,
 * the one outcome it must end as, what its detail must name, and how long it may take. Each case is sent
 * once through the real {@link StreamingClient} against a scripted server (MockWebServer for HTTP-level
 * faults and TLS, {@link RawServer} for resets, split writes and endless streams) and bounded by
 * {@code @Timeout}, so a hang fails the case instead of the build.
 *
 * <p>Time bounds: a deadline cannot fire early, so its lower bound is the configured value (hard); the
 * upper bound adds {@value #SLACK_MS} ms for okio's watchdog wake-up and a loaded shared CI machine (the
 * scripted stalls last 5 s or forever, so a deadline that did not fire blows the bound). Cases without a
 * deadline only have to end within {@value #QUICK_MS} ms.
 */
@Timeout(value = 30, unit = TimeUnit.SECONDS)
class FaultMatrixTest {
    static final long SLACK_MS = 1500;
    static final long QUICK_MS = 5000;
    static final String KEY = "sk-fault-matrix-planted-key";
    private static final String DONE = "data: [DONE]\n\n";

    private final RunClock clock = RunClock.system();
    private final List<AutoCloseable> servers = new ArrayList<>();
    private RawServer raw;
    /** The transport under test: NIO for http:// (the TLS cases always run on OkHttp); {@link FaultMatrixOkHttpTest} reruns on OKHTTP. */
    Transport transport = Transport.NIO;

    /** How a case builds its server and target. */
    interface Setup {
        TargetConfig.Builder target(FaultMatrixTest env) throws Exception;
    }

    /** Extra checks on the record. */
    interface Check {
        void verify(RequestRecord r, FaultMatrixTest env) throws Exception;
    }

    /** One row of the matrix. {@code detail}: null = not checked, "" = must be empty, else must contain. */
    record Fault(String name, Setup setup, String label, String detail, long atLeastMs, long atMostMs, Check check) {
        static Fault of(String name, String label, Setup setup) {
            return new Fault(name, setup, label, null, 0, QUICK_MS, (r, env) -> { });
        }

        Fault detail(String d) {
            return new Fault(name, setup, label, d, atLeastMs, atMostMs, check);
        }

        Fault within(long min, long max) {
            return new Fault(name, setup, label, detail, min, max, check);
        }

        Fault then(Check c) {
            return new Fault(name, setup, label, detail, atLeastMs, atMostMs, c);
        }

        @Override
        public String toString() {
            return name + " -> " + label;
        }
    }

    @AfterEach
    void closeServers() throws Exception {
        for (AutoCloseable s : servers.reversed()) {
            s.close();
        }
    }

    MockWebServer mock(MockResponse... responses) throws Exception {
        MockWebServer m = new MockWebServer();
        for (MockResponse r : responses) {
            m.enqueue(r);
        }
        m.start();
        servers.add(m);
        return m;
    }

    TargetConfig.Builder raw(RawServer.Script script) throws Exception {
        raw = new RawServer(script);
        servers.add(raw);
        return at(raw.url());
    }

    static TargetConfig.Builder at(String url) {
        return TargetConfig.builder().baseUrl(url).model("m");
    }

    static String event(String json) {
        return "data: " + json + "\n\n";
    }

    static MockResponse sse(String body) {
        return new MockResponse.Builder().addHeader("Content-Type", "text/event-stream").body(body).build();
    }

    static Stream<Fault> faults() {
        List<Fault> f = new ArrayList<>();
        for (int status : new int[] {400, 401, 404, 429, 500, 503}) {
            String body = "{\"error\":{\"message\":\"fault " + status + "\",\"type\":\"x\"}}";
            f.add(Fault.of("HTTP " + status + " with a body", "HTTP_ERROR(" + status + ")",
                    env -> at(env.mock(new MockResponse.Builder().code(status).body(body).build()).url("/").toString()))
                    .detail("fault " + status));
            f.add(Fault.of("HTTP " + status + " without a body", "HTTP_ERROR(" + status + ")",
                    env -> at(env.mock(new MockResponse.Builder().code(status).build()).url("/").toString()))
                    .detail(""));
        }
        f.add(Fault.of("HTTP 500 with a 5000-char body: snippet cut to 500 chars", "HTTP_ERROR(500)",
                env -> at(env.mock(new MockResponse.Builder().code(500).body("x".repeat(5000)).build())
                        .url("/").toString()))
                .then((r, env) -> assertThat(r.outcome().detail()).hasSize(503).endsWith("...")));
        f.add(Fault.of("HTTP 401 whose body echoes the API key", "HTTP_ERROR(401)",
                env -> at(env.mock(new MockResponse.Builder().code(401)
                        .body("{\"error\":\"bad key Bearer " + KEY + "\"}").build()).url("/").toString())
                        .apiKeyFromEnv("KP_FAULT_KEY").environment(k -> KEY))
                .detail("bad key Bearer <redacted>"));

        f.add(Fault.of("connection refused", "CONNECTION_ERROR", env -> at("http://127.0.0.1:" + closedPort()))
                .detail("refused"));
        f.add(Fault.of("connect timeout (a listener whose accept queue is full drops the SYN)", "TIMEOUT(connect)",
                env -> at(env.fullBacklog()).connectTimeout(Duration.ofMillis(300)))
                .within(300, 300 + SLACK_MS));
        f.add(Fault.of("DNS failure (.invalid host)", "CONNECTION_ERROR",
                env -> at("http://nonexistent.invalid:8000").connectTimeout(Duration.ofSeconds(2)))
                .detail("unknown host 'nonexistent.invalid' (DNS lookup failed").within(0, 2000 + SLACK_MS));
        f.add(Fault.of("reset before response headers", "CONNECTION_ERROR",
                        env -> env.raw((srv, s, out) -> reset(s)))
                .detail("before response headers").then(FaultMatrixTest::sentOnce));
        f.add(Fault.of("closed (EOF) before response headers", "CONNECTION_ERROR",
                        env -> env.raw((srv, s, out) -> s.close()))
                .detail("before response headers").then(FaultMatrixTest::sentOnce));
        f.add(Fault.of("reset mid-stream", "CONNECTION_ERROR", env -> env.raw((srv, s, out) -> {
            send(out, SSE_HEAD + event(role()) + event(content("a")) + event(content("b")));
            srv.pause(200); // let the client read both tokens: a reset discards unread data
            reset(s);
        })).detail("lost mid-stream after 2 token events")
                .then((r, env) -> assertThat(r.timing().chunkNanos()).hasSize(2)));
        f.add(Fault.of("reset after the last token (finish reason) before [DONE]", "CONNECTION_ERROR",
                env -> env.raw((srv, s, out) -> {
                    send(out, SSE_HEAD + event(content("a")) + event(finish("b")));
                    srv.pause(200);
                    reset(s);
                })).detail("after finish reason 'stop', before [DONE]")
                .then((r, env) -> assertThat(r.timing().chunkNanos()).hasSize(2)));
        f.add(Fault.of("reset after [DONE]", "OK", env -> env.raw((srv, s, out) -> {
            send(out, SSE_HEAD + event(content("a")) + event(finish("b")) + DONE);
            srv.pause(200);
            reset(s);
        })));
        f.add(Fault.of("clean end after the finish reason, without [DONE]", "OK",
                env -> env.raw((srv, s, out) -> send(out, SSE_HEAD + event(content("a")) + event(finish("b"))))));
        f.add(Fault.of("stream ends without finish reason nor [DONE]", "TRUNCATED",
                env -> env.raw((srv, s, out) -> send(out, SSE_HEAD + event(role()) + event(content("a")))))
                .detail("") // a real event stream cut short: nothing more to say
                .then((r, env) -> assertThat(r.tokens().outputTokens()).isEqualTo(1)));
        String page = "<!DOCTYPE html>\n<html><head><title>Gateway login</title></head>\n<body>"
                + "x".repeat(200) + "</body></html>";
        f.add(Fault.of("a 200 answer that is not an event stream (an HTML page)", "TRUNCATED",
                env -> at(env.mock(new MockResponse.Builder().addHeader("Content-Type", "text/html; charset=utf-8")
                        .body(page).build()).url("/").toString()))
                .detail("the answer is not an event stream (text/event-stream): content type 'text/html; charset=utf-8',"
                        + " body starts '<!DOCTYPE html> <html><head><title>Gateway login</title></head> <body>xxx")
                .then((r, env) -> {
                    // bounded: the first 80 bytes, whitespace folded, never the whole page
                    String starts = r.outcome().detail().substring(r.outcome().detail().indexOf("body starts '") + 13);
                    assertThat(starts).endsWith("'").hasSizeLessThanOrEqualTo(StreamState.HEAD_BYTES + 1);
                }));
        f.add(Fault.of("stream with zero tokens", "EMPTY",
                env -> env.raw((srv, s, out) -> send(out, SSE_HEAD + event(role()) + event(finish("")) + DONE))));

        f.add(Fault.of("stall longer than the idle timeout", "TIMEOUT(idle)", env -> env.raw((srv, s, out) -> {
            send(out, SSE_HEAD + event(content("a")));
            srv.pause(5000);
            send(out, event(finish("b")) + DONE);
        }).idleTimeout(Duration.ofMillis(300)).firstTokenTimeout(Duration.ofSeconds(4)))
                .within(300, 300 + SLACK_MS).then((r, env) -> {
                    assertThat(r.timing().chunkNanos()).hasSize(1);
                    assertThat(r.timing().endNanos() - r.timing().firstTokenNanos())
                            .isGreaterThanOrEqualTo(ms(300) - ms(5));
                }));
        f.add(Fault.of("slow response headers", "TIMEOUT(first_token)", env -> env.raw((srv, s, out) -> {
            srv.pause(5000);
            send(out, SSE_HEAD + event(finish("b")) + DONE);
        }).firstTokenTimeout(Duration.ofMillis(300)))
                .within(300, 300 + SLACK_MS)
                .then((r, env) -> assertThat(r.timing().firstByteNanos()).isEqualTo(RequestRecord.ABSENT)));
        f.add(Fault.of("headers, then no token", "TIMEOUT(first_token)", env -> env.raw((srv, s, out) -> {
            send(out, SSE_HEAD + event(role()));
            srv.pause(5000);
        }).idleTimeout(Duration.ofMillis(100)).firstTokenTimeout(Duration.ofMillis(400)))
                .within(400, 400 + SLACK_MS));
        f.add(Fault.of("a response that never ends", "TIMEOUT(total)", env -> env.raw((srv, s, out) -> {
            send(out, SSE_HEAD);
            do {
                send(out, event(content("t")));
            } while (!srv.pause(20));
        }).totalTimeout(Duration.ofMillis(600)).idleTimeout(Duration.ofMillis(300)))
                .within(600, 600 + SLACK_MS)
                // one token per 20 ms for 600 ms: ~30; at least a few must have arrived before the deadline
                .then((r, env) -> assertThat(r.timing().chunkNanos().length).isGreaterThanOrEqualTo(3)));

        f.add(Fault.of("malformed SSE lines (no colon, unknown field, comment, retry, CRLF) are ignored", "OK",
                env -> env.raw((srv, s, out) -> send(out, SSE_HEAD + "garbage without a colon\n: keep-alive\n"
                        + "retry: 10\nfoo: bar\r\ndata: " + content("a") + "\r\n\r\n" + event(finish("b")) + DONE)))
                .then((r, env) -> assertThat(r.timing().chunkNanos()).hasSize(2)));
        f.add(Fault.of("invalid JSON in an event", "STREAM_ERROR", env -> env.raw((srv, s, out) ->
                send(out, SSE_HEAD + event(content("a")) + event("{\"choices\":[{\"delta\":") + DONE)))
                .detail("malformed stream event"));
        f.add(Fault.of("UTF-8 sequences split across reads", "OK", env -> env.raw((srv, s, out) -> {
            byte[] bytes = (SSE_HEAD + event(content("caf\u00e9 \uD83D\uDE00")) + event(finish("!")) + DONE)
                    .getBytes(StandardCharsets.UTF_8);
            int cut = indexOf(bytes, (byte) 0xF0) + 2; // inside the 4-byte emoji
            send(out, Arrays.copyOfRange(bytes, 0, cut));
            srv.pause(100);
            send(out, Arrays.copyOfRange(bytes, cut, bytes.length));
        })).within(100, QUICK_MS).then((r, env) -> assertThat(r.timing().chunkNanos()).hasSize(2)));
        f.add(Fault.of("invalid UTF-8", "STREAM_ERROR", env -> env.raw((srv, s, out) -> {
            send(out, SSE_HEAD + event(content("a")));
            send(out, new byte[] {'d', 'a', 't', 'a', ':', ' ', (byte) 0xC3, (byte) 0x28, '\n', '\n'});
        })).detail("invalid_utf8"));
        f.add(Fault.of("an error object inside the stream", "STREAM_ERROR", env -> env.raw((srv, s, out) ->
                send(out, SSE_HEAD + event(content("a"))
                        + event("{\"error\":{\"message\":\"CUDA out of memory\",\"code\":500}}") + DONE)))
                .detail("CUDA out of memory"));
        f.add(Fault.of("an SSE 'event: error'", "STREAM_ERROR", env -> env.raw((srv, s, out) ->
                send(out, SSE_HEAD + "event: error\ndata: {\"message\":\"overloaded\"}\n\n" + DONE)))
                .detail("overloaded"));
        String big = event(content("x".repeat(10 << 20))) + event(finish("b")) + DONE;
        f.add(Fault.of("a 10 MB event under the default maximum (64 MiB)", "OK",
                env -> at(env.mock(sse(big)).url("/").toString()))
                .then((r, env) -> assertThat(r.timing().chunkNanos()).hasSize(2)));
        f.add(Fault.of("a 10 MB event over a configured 1 MiB maximum", "STREAM_ERROR",
                env -> at(env.mock(sse(big)).url("/").toString()).maxEventBytes(1 << 20))
                .detail("oversize"));

        String ok = event(content("a")) + event(finish("b")) + DONE;
        f.add(Fault.of("TLS: self-signed server certificate, verification on (default)", "CONNECTION_ERROR",
                env -> at(env.https(sse(ok))))
                .detail("trustCertificate(path)")
                .then((r, env) -> assertThat(r.outcome().detail()).contains("certificate verification failed")));
        f.add(Fault.of("TLS: self-signed certificate trusted with trustCertificate(pem)", "OK",
                env -> at(env.https(sse(ok))).trustCertificate(TlsFixture.get().pem))
                .then((r, env) -> {
                    // the new connection's handshake is its own phase, after the TCP connect
                    assertThat(r.response().connection().fresh()).isTrue();
                    assertThat(r.response().connection().tlsNanos()).isPositive();
                    assertThat(r.response().connection().connectNanos()).isNotNegative();
                }));
        f.add(Fault.of("TLS: verification off with insecureSkipTlsVerify(true)", "OK",
                env -> at(env.https(sse(ok))).insecureSkipTlsVerify(true)));
        return f.stream();
    }

    @ParameterizedTest(name = "{0}")
    @MethodSource("faults")
    void fault(Fault f) throws Exception {
        TargetConfig.Builder builder = f.setup().target(this);
        // NIO serves plain http:// only; the TLS cases run on OkHttp in both classes
        TargetConfig t = builder.transport(builder.build().baseUrl().isHttps() ? Transport.OKHTTP : transport).build();
        long t0 = System.nanoTime();
        RequestRecord r;
        try (StreamingClient client = new StreamingClient(t)) {
            r = client.execute(RequestSpec.of("hello", 16), new RequestContext(1, "faults", false, clock.now(), clock),
                    new Cancellation());
        }
        double took = (System.nanoTime() - t0) / 1e6;
        assertThat(r.outcome().label()).as("%s (detail: %s)", f.name(), r.outcome().detail()).isEqualTo(f.label());
        if (f.detail() != null && f.detail().isEmpty()) {
            assertThat(r.outcome().detail()).as("detail").isEmpty();
        } else if (f.detail() != null) {
            assertThat(r.outcome().detail()).as("detail").contains(f.detail());
        }
        assertThat(r.outcome().detail()).doesNotContain(KEY);
        assertThat(r.dispatched()).isTrue();
        assertThat(took).as("ms taken").isBetween((double) f.atLeastMs(), (double) f.atMostMs());
        f.check().verify(r, this);
    }

    /** A slow resolver (the JDK's cannot be interrupted) is bounded by the connect timeout. */
    @Test
    void aSlowResolverIsBoundedByTheConnectTimeout() {
        BoundedDns dns = new BoundedDns(host -> {
            try {
                Thread.sleep(10_000);
            } catch (InterruptedException e) {
                Thread.currentThread().interrupt();
            }
            throw new java.net.UnknownHostException(host);
        }, Duration.ofMillis(300));
        long t0 = System.nanoTime();
        java.net.UnknownHostException e = org.junit.jupiter.api.Assertions.assertThrows(
                java.net.UnknownHostException.class, () -> dns.lookup("slow.example"));
        double took = (System.nanoTime() - t0) / 1e6;
        assertThat(took).isBetween(300.0 - 5, 300.0 + SLACK_MS);
        assertThat(e.getMessage()).contains("no DNS answer within the connect timeout of 300 ms");
        assertThat(Failures.classify(e, okhttp3.HttpUrl.get("http://slow.example:8000/"), false, false, 0).detail())
                .isEqualTo("unknown host 'slow.example' (DNS lookup failed: slow.example: no DNS answer within"
                        + " the connect timeout of 300 ms)");
    }

    /** No silent retry: a request that failed on the wire was sent exactly once (a retry would be measured as one). */
    private static void sentOnce(RequestRecord r, FaultMatrixTest env) throws InterruptedException {
        Thread.sleep(100); // a retry would connect right away
        assertThat(env.raw.connections.get()).as("connections (a silent retry shows as 2)").isEqualTo(1);
    }

    private String https(MockResponse response) throws Exception {
        MockWebServer m = new MockWebServer();
        m.useHttps(TlsFixture.get().serverSockets);
        m.setProtocols(List.of(Protocol.HTTP_1_1));
        m.enqueue(response);
        m.start();
        servers.add(m);
        return m.url("/").toString();
    }

    /**
     * A listener that never accepts, with its accept queue filled by other connections: Linux then drops
     * further SYNs, so a connect hangs until the client's connect timeout.
     */
    private String fullBacklog() throws Exception {
        org.junit.jupiter.api.Assumptions.assumeTrue(System.getProperty("os.name").startsWith("Linux"),
                "dropping SYNs on a full accept queue is Linux's behaviour");
        ServerSocket listener = new ServerSocket(0, 1, java.net.InetAddress.getLoopbackAddress());
        servers.add(listener);
        for (int i = 0; i < 4; i++) {
            java.net.Socket s = new java.net.Socket();
            servers.add(s);
            try {
                s.connect(listener.getLocalSocketAddress(), 100);
            } catch (java.io.IOException e) {
                break; // the queue is full
            }
        }
        return "http://127.0.0.1:" + listener.getLocalPort();
    }

    private static int closedPort() throws Exception {
        try (ServerSocket s = new ServerSocket(0)) {
            return s.getLocalPort();
        }
    }

    private static int indexOf(byte[] bytes, byte b) {
        for (int i = 0; i < bytes.length; i++) {
            if (bytes[i] == b) {
                return i;
            }
        }
        throw new IllegalArgumentException("byte not found");
    }

    private static long ms(long m) {
        return m * 1_000_000L;
    }
}
