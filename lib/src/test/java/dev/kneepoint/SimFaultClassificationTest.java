package dev.kneepoint;

import static org.assertj.core.api.Assertions.assertThat;

import dev.kneepoint.client.StreamingClient;
import dev.kneepoint.client.TargetConfig;
import dev.kneepoint.metrics.RequestRecord;
import dev.kneepoint.metrics.RunClock;
import dev.kneepoint.request.Cancellation;
import dev.kneepoint.request.RequestContext;
import dev.kneepoint.request.RequestSpec;
import dev.kneepoint.sim.SimConfig;
import dev.kneepoint.sim.Simulator;
import dev.kneepoint.workload.SyntheticPrompts;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;
import java.util.function.UnaryOperator;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;

/**
 * Each fault the simulator injects, as Kneepoint's own client classifies it: the simulator and the client
 * agree on what every failure looks like on the wire (METRICS.md "Outcomes").
 */
class SimFaultClassificationTest {
    private static Simulator sim;
    private static final RunClock CLOCK = RunClock.system();

    @BeforeAll
    static void start() {
        sim = Simulator.start(SimConfig.preset("fast"));
        // A request before any test measures: the first one of a JVM and of a simulator loads classes on both
        // sides (~0.2 s), which would come out of the 300 ms bounds of the stall test below.
        assertThat(send(null).isOk()).as("warm-up request").isTrue();
    }

    @AfterAll
    static void stop() {
        sim.close();
    }

    private static RequestRecord send(String fault, UnaryOperator<TargetConfig.Builder> tweak) {
        TargetConfig.Builder b = Kneepoint.targetBuilder().baseUrl(sim.url()).model("sim-fast");
        if (fault != null) {
            b.header("X-Sim-Fault", fault);
        }
        try (StreamingClient client = new StreamingClient(tweak.apply(b).build())) {
            RequestSpec spec = new RequestSpec(new SyntheticPrompts(1).prompt(0, 32), List.of(), 20, 32,
                    Map.of("ignore_eos", true), "faults");
            return client.execute(spec, new RequestContext(0, "faults", false, CLOCK.now(), CLOCK), new Cancellation());
        }
    }

    private static RequestRecord send(String fault) {
        return send(fault, b -> b);
    }

    @Test
    void httpErrorsKeepTheirStatus() {
        assertThat(send("http_429").outcome().label()).isEqualTo("HTTP_ERROR(429)");
        assertThat(send("http_500").outcome().label()).isEqualTo("HTTP_ERROR(500)");
        RequestRecord r503 = send("http_503");
        assertThat(r503.outcome().label()).isEqualTo("HTTP_ERROR(503)");
        assertThat(r503.outcome().detail()).isNotEmpty();
    }

    @Test
    void midStreamFaultsAreClassifiedAndKeepTheTokensSeenBeforeThem() {
        RequestRecord reset = send("connection_reset");
        assertThat(reset.outcome().label()).isEqualTo("CONNECTION_ERROR");
        // The fault fires after half of the 20 tokens: the first token was measured.
        assertThat(reset.timing().firstTokenNanos()).isPositive();
        assertThat(send("malformed_event").outcome().label()).isEqualTo("STREAM_ERROR");
        RequestRecord error = send("error_in_stream");
        assertThat(error.outcome().label()).isEqualTo("STREAM_ERROR");
        assertThat(error.outcome().detail()).isNotEmpty();
        assertThat(send("no_done").outcome().label()).isEqualTo("TRUNCATED");
    }

    @Test
    void stallsAreOkWhenShorterThanTheTimeoutsAndTimeoutsWhenLonger() {
        // A 300 ms stall inside one stream (after 10 of the 20 tokens): still OK, and the stall shows in the chunk
        // timestamps. The gap itself is not a hard bound (a late read of the chunk before the stall shortens
        // it: 297 ms was seen), so both sides of it are measured from dispatch: the chunk after the stall cannot
        // arrive before 300 ms (the server sleeps 300 ms after receiving the request); the chunk before it is
        // written ~25 ms in ("fast": ~2 ms steps; 209 ms was seen on a loaded machine). A client that stamps
        // chunks when the stream ends, or a stall that is not mid-stream, puts it at >= 300 ms (hard), so
        // < 300 ms is the widest bound that still fails them.
        RequestRecord stalled = send("stream_stall:300");
        assertThat(stalled.isOk()).isTrue();
        long[] chunks = stalled.timing().chunkNanos();
        int afterStall = 1;
        for (int i = 2; i < chunks.length; i++) {
            if (chunks[i] - chunks[i - 1] > chunks[afterStall] - chunks[afterStall - 1]) {
                afterStall = i;
            }
        }
        assertThat(chunks[afterStall] - stalled.timing().dispatchNanos()).as("chunk after the stall, from dispatch")
                .isGreaterThanOrEqualTo(Duration.ofMillis(300).toNanos());
        assertThat(chunks[afterStall - 1] - stalled.timing().dispatchNanos())
                .as("chunk before the stall, from dispatch")
                .isLessThan(Duration.ofMillis(300).toNanos());
        // The same stall against a 100 ms idle timeout.
        assertThat(send("stream_stall:1000", b -> b.idleTimeout(Duration.ofMillis(100))).outcome().label())
                .isEqualTo("TIMEOUT(idle)");
        // Slow first byte: TTFT includes it; a shorter first-token timeout fires.
        RequestRecord slow = send("slow_first_byte:300");
        assertThat(slow.isOk()).isTrue();
        assertThat(slow.ttftNanos()).isGreaterThanOrEqualTo(Duration.ofMillis(300).toNanos());
        assertThat(send("slow_first_byte:1000", b -> b.firstTokenTimeout(Duration.ofMillis(150))).outcome().label())
                .isEqualTo("TIMEOUT(first_token)");
    }

    @Test
    void aFullWaitingQueueAnswers503() throws Exception {
        // One running sequence, one waiting: of four long concurrent requests at least one is rejected (how
        // many depends on how quickly the engine moves arrivals into its queue), and every other one is OK.
        try (Simulator small = Simulator.start(SimConfig.presetBuilder("fast").maxNumSeqs(1)
                .maxNumBatchedTokens(2048).maxWaiting(1).build());
             StreamingClient client = new StreamingClient(Kneepoint.target(small.url(), "sim-fast"));
             ExecutorService pool = Executors.newVirtualThreadPerTaskExecutor()) {
            List<Future<RequestRecord>> futures = new ArrayList<>();
            for (int i = 0; i < 4; i++) {
                long id = i;
                futures.add(pool.submit(() -> client.execute(
                        new RequestSpec("alpha beta", List.of(), 400, 2, Map.of("ignore_eos", true), "q"),
                        new RequestContext(id, "q", false, CLOCK.now(), CLOCK), new Cancellation())));
            }
            long rejected = 0;
            for (Future<RequestRecord> f : futures) {
                String label = f.get().outcome().label();
                assertThat(label).isIn("OK", "HTTP_ERROR(503)");
                if (label.equals("HTTP_ERROR(503)")) {
                    rejected++;
                }
            }
            assertThat(rejected).isBetween(1L, 3L);
        }
    }
}
