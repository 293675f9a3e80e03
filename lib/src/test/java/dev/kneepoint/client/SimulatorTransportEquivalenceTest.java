package dev.kneepoint.client;

import static org.assertj.core.api.Assertions.assertThat;

import dev.kneepoint.metrics.RequestRecord;
import dev.kneepoint.metrics.RunClock;
import dev.kneepoint.request.Cancellation;
import dev.kneepoint.request.RequestContext;
import dev.kneepoint.request.RequestSpec;
import dev.kneepoint.sim.FaultKind;
import dev.kneepoint.sim.SimConfig;
import dev.kneepoint.sim.Simulator;
import java.time.Duration;
import java.util.Map;
import java.util.function.UnaryOperator;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;

/**
 * The embedded simulator's streams and every per-request fault it injects give the same record
 * signature ({@link TransportEquivalenceTest#signature}) on {@link Transport#OKHTTP} and
 * {@link Transport#NIO}, including the server timings the simulator reports.
 */
class SimulatorTransportEquivalenceTest {
    private static Simulator sim;
    private final RunClock clock = RunClock.system();

    @BeforeAll
    static void start() {
        sim = Simulator.start(SimConfig.presetBuilder("fast").build());
    }

    @AfterAll
    static void stop() {
        sim.close();
    }

    private Map<String, Object> run(Transport t, UnaryOperator<TargetConfig.Builder> custom) {
        TargetConfig target = custom.apply(TargetConfig.builder().baseUrl(sim.url()).model(sim.config().modelName())
                .extraBody("ignore_eos", true).transport(t)).build();
        try (StreamingClient client = new StreamingClient(target)) {
            RequestRecord r = client.execute(RequestSpec.of("tell me a story about transports", 24),
                    new RequestContext(1, "s", false, clock.now(), clock), new Cancellation());
            return TransportEquivalenceTest.signature(r);
        }
    }

    private Map<String, Object> same(UnaryOperator<TargetConfig.Builder> custom) {
        Map<String, Object> ok = run(Transport.OKHTTP, custom);
        Map<String, Object> nio = run(Transport.NIO, custom);
        assertThat(nio).isEqualTo(ok);
        return nio;
    }

    @Test
    void plainStreamsChatAndCompletions() {
        for (int i = 0; i < 3; i++) { // the second and third reuse pooled connections
            assertThat(same(b -> b)).containsEntry("outcome", "OK").containsEntry("output", 24);
        }
        assertThat(same(b -> b.apiKind(ApiKind.COMPLETIONS).continuousUsageStats(true)))
                .containsEntry("outcome", "OK").containsEntry("output", 24);
        assertThat(same(b -> b.stream(false))).containsEntry("outcome", "OK").containsEntry("streamed", false);
    }

    @Test
    void everyInjectedFault() {
        for (FaultKind k : FaultKind.values()) {
            if (k == FaultKind.QUEUE_FULL || k == FaultKind.ENGINE_STALL) {
                continue; // not provoked per request
            }
            // The idle limit applies to every case, so it must stay well above the simulator's normal gaps of a few ms
            // as a loaded machine stretches them (else a NO_DONE or a malformed event ends as TIMEOUT(idle)), and well
            // below the scripted stall (else the stall ends first and the stream is OK): 300 ms against 1 s leaves
            // ~300 ms on one side and 700 ms on the other (it was 150 ms against 400 ms).
            String header = k.hasDuration() ? k.wireName() + ":1000" : k.wireName();
            Map<String, Object> s = same(b -> b.header("X-Sim-Fault", header).idleTimeout(Duration.ofMillis(300))
                    .firstTokenTimeout(k == FaultKind.SLOW_FIRST_BYTE ? Duration.ofMillis(300) : Duration.ofSeconds(30)));
            String expected = switch (k) {
                case HTTP_429 -> "HTTP_ERROR(429)";
                case HTTP_500 -> "HTTP_ERROR(500)";
                case HTTP_503 -> "HTTP_ERROR(503)";
                case CONNECTION_RESET -> "CONNECTION_ERROR";
                case STREAM_STALL -> "TIMEOUT(idle)";
                case SLOW_FIRST_BYTE -> "TIMEOUT(first_token)";
                case MALFORMED_EVENT, ERROR_IN_STREAM -> "STREAM_ERROR";
                case NO_DONE -> "TRUNCATED";
                default -> throw new IllegalStateException();
            };
            assertThat(s.get("outcome")).as(k.name()).isEqualTo(expected);
        }
    }
}
