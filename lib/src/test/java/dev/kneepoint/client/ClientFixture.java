package dev.kneepoint.client;

import dev.kneepoint.metrics.RequestRecord;
import dev.kneepoint.metrics.RunClock;
import dev.kneepoint.request.Cancellation;
import dev.kneepoint.request.RequestContext;
import dev.kneepoint.request.RequestSpec;
import java.util.ArrayList;
import java.util.List;
import java.util.function.UnaryOperator;
import mockwebserver3.MockResponse;
import mockwebserver3.MockWebServer;
import mockwebserver3.SocketEffect;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.BeforeEach;

/** A MockWebServer per test, scripted bodies released at teardown, and helpers to send one request. */
abstract class ClientFixture {
    static final long MS = 1_000_000L;

    MockWebServer server;
    /** The transport under test; subclasses named {@code ...OkHttpTest} rerun every scenario on OKHTTP. */
    Transport transport = Transport.NIO;
    final RunClock clock = RunClock.system();
    final List<ScriptedBody> bodies = new ArrayList<>();
    private static boolean warm;

    /**
     * One request per transport, once per JVM, before any test measures: the first request of a JVM loads and
     * initialises the client's and MockWebServer's classes (Jackson, okio, the NIO transport) between the dispatch
     * stamp and the first byte: 165-190 ms measured here, on top of the scripted delays, against the 300 ms of
     * slack the timing tests allow for a loaded machine. What they check is the client's timestamps, not class
     * loading, so that cost is paid here.
     */
    @BeforeAll
    static synchronized void warmUpOncePerJvm() throws Exception {
        if (warm) {
            return;
        }
        for (Transport t : List.of(Transport.NIO, Transport.OKHTTP)) {
            try (MockWebServer s = new MockWebServer()) {
                s.start();
                s.enqueue(new MockResponse.Builder().addHeader("Content-Type", "text/event-stream")
                        .body("data: " + ScriptedBody.content("a") + "\n\ndata: " + ScriptedBody.finish("b")
                                + "\n\ndata: [DONE]\n\n").build());
                TargetConfig target = TargetConfig.builder().baseUrl(s.url("/").toString()).model("warm-up")
                        .transport(t).build();
                RunClock c = RunClock.system();
                try (StreamingClient client = new StreamingClient(target)) {
                    client.execute(RequestSpec.of("warm-up", 2), new RequestContext(0, "warm-up", true, c.now(), c),
                            new Cancellation());
                }
            }
        }
        warm = true;
    }

    @BeforeEach
    void startServer() throws Exception {
        server = new MockWebServer();
        server.start();
    }

    @AfterEach
    void stopServer() {
        bodies.forEach(ScriptedBody::release);
        server.close();
    }

    ScriptedBody body() {
        ScriptedBody b = new ScriptedBody();
        bodies.add(b);
        return b;
    }

    void enqueueSse(ScriptedBody body) {
        server.enqueue(new MockResponse.Builder().addHeader("Content-Type", "text/event-stream")
                .addHeader("Transfer-Encoding", "chunked").body(body)
                .onResponseEnd(SocketEffect.ShutdownConnection.INSTANCE).build());
    }

    TargetConfig target(UnaryOperator<TargetConfig.Builder> custom) {
        return custom.apply(TargetConfig.builder().baseUrl(server.url("/").toString()).model("test-model")
                .transport(transport)).build();
    }

    RequestRecord send(TargetConfig t) {
        return send(t, RequestSpec.of("hello", 16), new Cancellation());
    }

    RequestRecord send(TargetConfig t, RequestSpec spec, Cancellation c) {
        try (StreamingClient client = new StreamingClient(t)) {
            return client.execute(spec, new RequestContext(7, "step-1", false, clock.now(), clock), c);
        }
    }

    static double ms(long nanos) {
        return nanos / 1e6;
    }
}
