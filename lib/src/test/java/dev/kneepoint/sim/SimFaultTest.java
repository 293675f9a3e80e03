package dev.kneepoint.sim;

import static org.assertj.core.api.Assertions.assertThat;

import com.fasterxml.jackson.databind.ObjectMapper;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;

/** Every fault, provoked exactly by header (or by configuration), checked on the wire. */
class SimFaultTest {
    static final ObjectMapper JSON = new ObjectMapper();
    static final String STREAM = "{\"prompt\":\"a b\",\"max_tokens\":10,\"ignore_eos\":true,\"stream\":true}";
    static Simulator sim;

    @BeforeAll
    static void start() throws Exception {
        sim = Simulator.start(SimConfig.preset("fast"));
        // A request before any test measures: the first one of a simulator loads its classes (~0.2 s on the first
        // in a JVM), which would come out of the 300 ms bound of the stall test below.
        assertThat(RawSse.post(sim.port(), "/v1/completions", STREAM).done()).as("warm-up request").isTrue();
    }

    @AfterAll
    static void stop() {
        sim.close();
    }

    static RawSse.Result fault(String header) throws Exception {
        return RawSse.post(sim.port(), "/v1/completions", STREAM, "X-Sim-Fault: " + header);
    }

    static boolean anyFinishReason(RawSse.Result r) {
        return r.events().stream().anyMatch(e -> e.data().contains("\"finish_reason\":\""));
    }

    @Test
    void httpErrorsCarryStatusAndErrorBody() throws Exception {
        for (int status : new int[] {429, 500, 503}) {
            RawSse.Result r = fault("http_" + status);
            assertThat(r.status()).isEqualTo(status);
            assertThat(JSON.readTree(r.body()).at("/error/message").asText()).contains("http_" + status);
        }
    }

    @Test
    void connectionResetMidStreamIsATcpReset() throws Exception {
        RawSse.Result r = fault("connection_reset");
        assertThat(r.status()).isEqualTo(200);
        assertThat(r.events()).hasSize(5); // half of the 10 tokens, then RST
        assertThat(r.reset()).as("reset, got %s", r.error()).isTrue();
        assertThat(r.cleanEnd()).isFalse();
    }

    @Test
    void noDoneEndsCleanlyWithoutFinishReasonOrDone() throws Exception {
        RawSse.Result r = fault("no_done");
        assertThat(r.cleanEnd()).isTrue();
        assertThat(r.events()).hasSize(5);
        assertThat(r.done()).isFalse();
        assertThat(anyFinishReason(r)).isFalse();
    }

    @Test
    void malformedEventIsInvalidJsonAndTheStreamGoesOn() throws Exception {
        RawSse.Result r = fault("malformed_event");
        long invalid = r.events().stream().filter(e -> {
            try {
                JSON.readTree(e.data());
                return false;
            } catch (Exception x) {
                return !e.data().equals("[DONE]");
            }
        }).count();
        assertThat(invalid).isEqualTo(1);
        assertThat(r.done()).isTrue();
        assertThat(anyFinishReason(r)).isTrue();
    }

    @Test
    void errorObjectInTheStreamThenDone() throws Exception {
        RawSse.Result r = fault("error_in_stream");
        List<RawSse.Event> ev = r.events();
        assertThat(ev).hasSize(5 + 2);
        assertThat(JSON.readTree(ev.get(5).data()).at("/error/code").asInt()).isEqualTo(500);
        assertThat(ev.get(6).data()).isEqualTo("[DONE]");
        assertThat(anyFinishReason(r)).isFalse();
    }

    @Test
    void slowFirstByteDelaysTheHeaders() throws Exception {
        RawSse.Result r = fault("slow_first_byte:300");
        // a sleep never ends early; the normal first byte comes in well under a millisecond
        assertThat(r.headerNanos()).isGreaterThanOrEqualTo(300_000_000L);
        assertThat(r.done()).isTrue();
    }

    @Test
    void streamStallAndEngineStallShowAsAGapInTheStream() throws Exception {
        RawSse.Result stream = fault("stream_stall:300");
        // The gap between the events around the stall is not a hard bound (a late read of the event before the
        // stall shortens it), so both events are measured from the send: the one after the stall cannot arrive
        // before 300 ms (the server sleeps 300 ms after receiving the request); the one before it is written
        // ~15 ms in (5 tokens, ~2 ms steps; 209 ms was seen for the same read in the client's test under load).
        // A stall that is not mid-stream, or events stamped late, put it at >= 300 ms (hard), so < 300 ms is
        // the widest bound that still fails them.
        List<RawSse.Event> ev = stream.events();
        int afterStall = 1;
        for (int i = 2; i < ev.size(); i++) {
            if (ev.get(i).arrivalNanos() - ev.get(i - 1).arrivalNanos()
                    > ev.get(afterStall).arrivalNanos() - ev.get(afterStall - 1).arrivalNanos()) {
                afterStall = i;
            }
        }
        assertThat(ev.get(afterStall).arrivalNanos() - stream.sendNanos()).isGreaterThanOrEqualTo(300_000_000L);
        assertThat(ev.get(afterStall - 1).arrivalNanos() - stream.sendNanos()).isLessThan(300_000_000L);
        assertThat(stream.done()).isTrue();
        long before = sim.stats().faultsInjected().get(FaultKind.ENGINE_STALL);
        RawSse.Result engine = fault("engine_stall:300");
        // the stall is added to the first step, so it delays the first token, not a gap between tokens
        assertThat(engine.events().get(0).arrivalNanos() - engine.sendNanos()).isGreaterThanOrEqualTo(300_000_000L);
        assertThat(engine.done()).isTrue();
        assertThat(sim.stats().faultsInjected().get(FaultKind.ENGINE_STALL)).isEqualTo(before + 1);
    }

    @Test
    void unknownFaultHeaderIs400ListingTheKnownOnes() throws Exception {
        RawSse.Result r = fault("gremlins");
        assertThat(r.status()).isEqualTo(400);
        assertThat(r.body()).contains("http_503").contains("connection_reset");
    }

    @Test
    void fullWaitingQueueRejectsWith503() throws Exception {
        SimConfig c = SimConfig.presetBuilder("fast").maxNumSeqs(1).maxNumBatchedTokens(64).maxWaiting(1).build();
        try (Simulator s = Simulator.start(c); ExecutorService pool = Executors.newVirtualThreadPerTaskExecutor()) {
            String longReq = "{\"prompt\":\"a\",\"max_tokens\":100,\"ignore_eos\":true,\"stream\":true}";
            Future<RawSse.Result> first = pool.submit(() -> RawSse.post(s.port(), "/v1/completions", longReq));
            awaitUntil(() -> s.stats().running() == 1);
            Future<RawSse.Result> second = pool.submit(() -> RawSse.post(s.port(), "/v1/completions", longReq));
            awaitUntil(() -> s.stats().waiting() == 1);
            RawSse.Result third = RawSse.post(s.port(), "/v1/completions", longReq);
            assertThat(third.status()).isEqualTo(503);
            assertThat(third.body()).contains("waiting queue is full");
            assertThat(first.get().done()).isTrue();
            assertThat(second.get().done()).isTrue();
            assertThat(s.stats().faultsInjected().get(FaultKind.QUEUE_FULL)).isEqualTo(1);
        }
    }

    @Test
    void probabilisticFaultsAreSeededAndScheduledWindowsApply() throws Exception {
        SimConfig c = SimConfig.presetBuilder("fast").seed(7)
                .faults(FaultConfig.builder().probability(FaultKind.HTTP_503, 0.5).build()).build();
        List<Integer> a = statuses(c, 40);
        List<Integer> b = statuses(c, 40);
        assertThat(a).isEqualTo(b);
        long errors = a.stream().filter(s -> s == 503).count();
        // binomial(40, 0.5): mean 20, sd 3.2; [8, 32] is beyond 3.5 sd (and the sequence is fixed by the seed)
        assertThat(errors).isBetween(8L, 32L);
        SimConfig window = SimConfig.presetBuilder("fast").faults(FaultConfig.builder()
                .schedule(FaultKind.HTTP_500, Duration.ZERO, Duration.ofHours(1)).build()).build();
        assertThat(statuses(window, 3)).containsOnly(500);
    }

    @Test
    void scheduledEngineStallDelaysTheFirstStep() throws Exception {
        SimConfig c = SimConfig.presetBuilder("fast").faults(FaultConfig.builder()
                .schedule(FaultKind.ENGINE_STALL, Duration.ZERO, Duration.ofMillis(300)).build()).build();
        try (Simulator s = Simulator.start(c)) {
            RawSse.Result r = RawSse.post(s.port(), "/v1/completions", STREAM);
            assertThat(r.events().get(0).arrivalNanos() - r.sendNanos()).isGreaterThanOrEqualTo(300_000_000L);
            RawSse.Result after = RawSse.post(s.port(), "/v1/completions", STREAM);
            // only once: the next request's first token comes after one ordinary prefill step (~2 ms). A second
            // stall would make it >= 300 ms (a hard bound), so 300 ms is the widest bound that still catches it;
            // noise only lengthens the ~2 ms.
            assertThat(after.events().get(0).arrivalNanos() - after.sendNanos()).isLessThan(300_000_000L);
            assertThat(s.stats().faultsInjected().get(FaultKind.ENGINE_STALL)).isEqualTo(1);
        }
    }

    @Test
    void clientThatGoesAwayIsAbortedAndFreesItsSlot() throws Exception {
        try (Simulator s = Simulator.start(SimConfig.preset("fast"))) {
            try (java.net.Socket sock = new java.net.Socket("127.0.0.1", s.port())) {
                String body = "{\"prompt\":\"a\",\"max_tokens\":5000,\"ignore_eos\":true,\"stream\":true}";
                sock.getOutputStream().write(("POST /v1/completions HTTP/1.1\r\nHost: x\r\nContent-Length: "
                        + body.length() + "\r\n\r\n" + body).getBytes(java.nio.charset.StandardCharsets.US_ASCII));
                sock.getInputStream().readNBytes(2000);
                awaitUntil(() -> s.stats().running() == 1);
            }
            // the next write fails, the writer aborts the sequence and the engine frees it
            awaitUntil(() -> s.stats().running() == 0 && s.stats().kvUsage() == 0);
            assertThat(s.stats().tokensGenerated()).isLessThan(5000);
        }
    }

    static List<Integer> statuses(SimConfig c, int n) throws Exception {
        List<Integer> out = new ArrayList<>();
        try (Simulator s = Simulator.start(c)) {
            for (int i = 0; i < n; i++) {
                out.add(RawSse.post(s.port(), "/v1/completions", "{\"prompt\":\"a\",\"max_tokens\":1}").status());
            }
        }
        return out;
    }

    static void awaitUntil(java.util.function.BooleanSupplier cond) throws InterruptedException {
        long end = System.nanoTime() + 5_000_000_000L;
        while (!cond.getAsBoolean()) {
            if (System.nanoTime() > end) {
                throw new AssertionError("condition not reached in 5 s");
            }
            Thread.sleep(2);
        }
    }
}
