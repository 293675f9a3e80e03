package dev.kneepoint.sim;

import static org.assertj.core.api.Assertions.assertThat;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import java.io.InputStream;
import java.net.InetSocketAddress;
import java.net.Socket;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.Test;

/**
 * The emission path: the engine thread writes each stream's chunk at its due time ({@link EmitStream}); a
 * full send buffer hands the stream to its connection's thread without stalling the others.
 */
class EmitStreamTest {
    static final ObjectMapper JSON = new ObjectMapper();

    static String request(int maxTokens) {
        return "{\"prompt\":\"a b\",\"max_tokens\":" + maxTokens + ",\"ignore_eos\":true,\"stream\":true,"
                + "\"stream_options\":{\"include_usage\":true,\"continuous_usage_stats\":true}}";
    }

    /** Completion-token counts of the content events, in arrival order. */
    static List<Integer> counts(RawSse.Result r) throws Exception {
        List<Integer> out = new ArrayList<>();
        for (RawSse.Event e : r.events()) {
            if (e.data().equals("[DONE]")) {
                continue;
            }
            JsonNode n = JSON.readTree(e.data());
            if (n.path("choices").size() == 1 && !n.at("/choices/0/text").asText().isEmpty()) {
                out.add(n.at("/usage/completion_tokens").asInt());
            }
        }
        return out;
    }

    @Test
    void concurrentStreamsArriveInOrderWithOneLagRecordPerOutput() throws Exception {
        // 40 concurrent streams, outputs spread over the step: every stream's events must arrive in order
        // (1, 2, ..., 30 tokens), complete, and each output must have exactly one emission-lag record
        SimConfig c = SimConfig.presetBuilder("fast").emitNanosPerSeq(20_000).build();
        int streams = 40;
        int tokens = 30;
        try (Simulator sim = Simulator.start(c); ExecutorService pool = Executors.newVirtualThreadPerTaskExecutor()) {
            List<Future<RawSse.Result>> fs = new ArrayList<>();
            for (int i = 0; i < streams; i++) {
                fs.add(pool.submit(() -> RawSse.post(sim.port(), "/v1/completions", request(tokens))));
            }
            List<Integer> expected = new ArrayList<>();
            for (int k = 1; k <= tokens; k++) {
                expected.add(k);
            }
            for (Future<RawSse.Result> f : fs) {
                RawSse.Result r = f.get(20, TimeUnit.SECONDS);
                assertThat(r.cleanEnd()).isTrue();
                assertThat(counts(r)).isEqualTo(expected);
                assertThat(r.events().get(r.events().size() - 1).data()).isEqualTo("[DONE]");
            }
            SimStats st = sim.stats();
            assertThat(st.emissionLagCount()).isEqualTo((long) streams * tokens);
            assertThat(st.tokensEmitted()).isEqualTo((long) streams * tokens);
            assertThat(sim.slowWrites()).isZero();
        }
    }

    @Test
    void aSlowReaderDoesNotStallTheOtherStreamsAndGetsItsWholeStreamInOrder() throws Exception {
        // 8,192 tokens per event (~55 KB) and 1.2 M tokens: ~8 MB that a reader with a 4 KB receive buffer does
        // not take, more than loopback's largest send buffer (4 MB), so the server's send buffer fills and the
        // stream's connection thread takes over
        SimConfig c = SimConfig.presetBuilder("fast").tokensPerChunk(8192).maxModelLen(1_300_000)
                .kvCapacityTokens(2_000_000).build();
        try (Simulator sim = Simulator.start(c); Socket slow = new Socket()) {
            slow.setReceiveBufferSize(4096);
            slow.connect(new InetSocketAddress("127.0.0.1", sim.port()));
            byte[] body = request(1_200_000).getBytes(StandardCharsets.UTF_8);
            slow.getOutputStream().write(("POST /v1/completions HTTP/1.1\r\nHost: x\r\nContent-Length: " + body.length
                    + "\r\n\r\n").getBytes(StandardCharsets.US_ASCII));
            slow.getOutputStream().write(body);
            SimFaultTest.awaitUntil(() -> sim.slowWrites() > 0);
            // meanwhile other streams go on: 20 requests one after another, each on time
            for (int i = 0; i < 20; i++) {
                long t0 = System.nanoTime();
                RawSse.Result r = RawSse.post(sim.port(), "/v1/completions", request(600));
                assertThat(r.cleanEnd()).isTrue();
                // two steps (prefill, one 512-token decode) of a few ms each; 2 s is a generous bound for a loaded CI
                assertThat((System.nanoTime() - t0) / 1e9).isLessThan(2.0);
            }
            // the slow reader now reads everything: in order, complete
            slow.setSoTimeout(20_000);
            String all = readUntilTerminalChunk(slow.getInputStream());
            assertThat(all).endsWith("data: [DONE]\n\n\r\n0\r\n\r\n");
            int last = 0;
            int from = 0;
            String key = "\"completion_tokens\":";
            int at;
            while ((at = all.indexOf(key, from)) >= 0) {
                int end = at + key.length();
                while (Character.isDigit(all.charAt(end))) {
                    end++;
                }
                int n = Integer.parseInt(all.substring(at + key.length(), end));
                assertThat(n).isGreaterThanOrEqualTo(last);
                last = n;
                from = end;
            }
            assertThat(last).isEqualTo(1_200_000);
        }
    }

    /** Reads a keep-alive response up to its terminal chunk (the connection stays open). */
    static String readUntilTerminalChunk(InputStream in) throws java.io.IOException {
        java.io.ByteArrayOutputStream out = new java.io.ByteArrayOutputStream();
        byte[] buf = new byte[65536];
        byte[] tail = "[DONE]\n\n\r\n0\r\n\r\n".getBytes(StandardCharsets.US_ASCII);
        while (true) {
            int n = in.read(buf);
            if (n < 0) {
                break;
            }
            out.write(buf, 0, n);
            if (out.size() >= tail.length && java.util.Arrays.equals(java.util.Arrays.copyOfRange(out.toByteArray(),
                    out.size() - tail.length, out.size()), tail)) {
                break;
            }
        }
        return out.toString(StandardCharsets.UTF_8);
    }

    @Test
    void aClientThatDisconnectsMidStreamIsAbortedAndItsSequenceFreed() throws Exception {
        SimConfig c = SimConfig.presetBuilder("fast").stepOverheadNanos(5_000_000).build();
        try (Simulator sim = Simulator.start(c)) {
            try (Socket sock = new Socket("127.0.0.1", sim.port())) {
                byte[] body = request(4000).getBytes(StandardCharsets.UTF_8);
                sock.getOutputStream().write(("POST /v1/completions HTTP/1.1\r\nHost: x\r\nContent-Length: "
                        + body.length + "\r\n\r\n").getBytes(StandardCharsets.US_ASCII));
                sock.getOutputStream().write(body);
                sock.getInputStream().readNBytes(3000);
                SimFaultTest.awaitUntil(() -> sim.stats().running() == 1);
            }
            // the engine's next write fails; the connection's thread aborts the sequence and the engine frees it
            SimFaultTest.awaitUntil(() -> sim.stats().running() == 0 && sim.stats().kvUsage() == 0);
            long generated = sim.stats().tokensGenerated();
            assertThat(generated).isLessThan(4000);
            // and it stays freed: no more tokens for it (the engine is idle), and the server still serves
            Thread.sleep(50);
            assertThat(sim.stats().tokensGenerated()).isEqualTo(generated);
            assertThat(RawSse.post(sim.port(), "/v1/completions", request(3)).cleanEnd()).isTrue();
        }
    }
}
