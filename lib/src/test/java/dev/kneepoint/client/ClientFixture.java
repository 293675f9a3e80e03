package dev.kneepoint.client;

import dev.kneepoint.metrics.RequestRecord;
import dev.kneepoint.metrics.RunClock;
import dev.kneepoint.workload.RequestSpec;
import java.util.ArrayList;
import java.util.List;
import java.util.function.UnaryOperator;
import mockwebserver3.MockResponse;
import mockwebserver3.MockWebServer;
import mockwebserver3.SocketEffect;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;

/** A MockWebServer per test, scripted bodies released at teardown, and helpers to send one request. */
abstract class ClientFixture {
    static final long MS = 1_000_000L;

    MockWebServer server;
    /** The transport under test; subclasses named {@code ...OkHttpTest} rerun every scenario on OKHTTP. */
    Transport transport = Transport.NIO;
    final RunClock clock = RunClock.system();
    final List<ScriptedBody> bodies = new ArrayList<>();

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
        try (OpenAiClient client = new OpenAiClient(t)) {
            return client.execute(spec, new RequestContext(7, "step-1", false, clock.now(), clock), c);
        }
    }

    static double ms(long nanos) {
        return nanos / 1e6;
    }
}
