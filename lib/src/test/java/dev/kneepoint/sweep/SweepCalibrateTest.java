package dev.kneepoint.sweep;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import com.fasterxml.jackson.databind.JsonNode;
import dev.kneepoint.Kneepoint;
import dev.kneepoint.client.TargetConfig;
import dev.kneepoint.io.RunLoader;
import dev.kneepoint.metrics.RequestRecord;
import dev.kneepoint.metrics.RunResult;
import dev.kneepoint.sim.ChatTemplate;
import dev.kneepoint.sim.SimConfig;
import dev.kneepoint.sim.Simulator;
import dev.kneepoint.telemetry.Telemetry;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.List;
import mockwebserver3.Dispatcher;
import mockwebserver3.MockResponse;
import mockwebserver3.MockWebServer;
import mockwebserver3.RecordedRequest;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * {@code Sweep.calibrate(true)} / {@code --calibrate}: synthetic prompts cut to the server's own token count. On the
 * simulator's chat API an uncalibrated prompt of n synthetic words is n tokens of content plus the chat template
 * (4 per message + 3 for the generation prompt); calibrated, {@code usage.prompt_tokens} is n exactly.
 */
class SweepCalibrateTest {
    private static final int TEMPLATE = ChatTemplate.PER_MESSAGE_TOKENS + ChatTemplate.GENERATION_PROMPT_TOKENS;

    @TempDir
    Path dir;

    private static Sweep fourRequests(TargetConfig target, Path runs, String name) {
        return Kneepoint.sweep(target).concurrency(1).inputTokens(100).outputTokens(4).maxRequestsPerStep(4)
                .warmup(Duration.ZERO).stepDuration(Duration.ofSeconds(30)).clientWarmup(false)
                .telemetry(Telemetry.off()).outputDir(runs).name(name);
    }

    private static List<RequestRecord> records(RunResult r) {
        return RunLoader.load(r.directory().orElseThrow()).records();
    }

    @Test
    void calibratedChatPromptsHaveTheRequestedServerTokenCount() throws Exception {
        Path runs = dir.resolve("runs");
        try (Simulator sim = Simulator.start(SimConfig.presetBuilder("fast").build())) {
            TargetConfig chat = Kneepoint.target(sim);
            RunResult plain = fourRequests(chat, runs, "plain").calibrate(false).run();
            RunResult exact = fourRequests(chat, runs, "exact").calibrate(true).run();
            RunResult auto = fourRequests(chat, runs, "auto").run(); // the default: exact where the server tokenizes

            // Without calibration the template comes on top: the test would fail if calibrate were ignored.
            assertThat(records(plain)).hasSize(4)
                    .allSatisfy(r -> assertThat(r.tokens().promptTokens()).isEqualTo(100 + TEMPLATE));
            assertThat(records(exact)).hasSize(4).allSatisfy(r -> {
                assertThat(r.isOk()).isTrue();
                assertThat(r.tokens().promptTokens()).isEqualTo(100);
            });
            JsonNode config = RunLoader.load(exact.directory().orElseThrow()).manifest().get("config");
            assertThat(config.get("prompt_calibration").asText()).startsWith("exact: server:");
            assertThat(config.get("workload").get("lengths_exact").asBoolean()).isTrue();
            assertThat(RunLoader.load(plain.directory().orElseThrow()).manifest().get("config")
                    .get("prompt_calibration").asText()).startsWith("off:");
            assertThat(records(auto)).extracting(r -> r.tokens().promptTokens()).containsOnly(100);
            JsonNode autoConfig = RunLoader.load(auto.directory().orElseThrow()).manifest().get("config");
            assertThat(autoConfig.get("prompt_calibration").asText()).startsWith("exact: server:");
            // The workload's lengths read as an uncalibrated sweep's do: numbers, not fixed(N).
            assertThat(autoConfig.at("/workload/input_tokens").asInt()).isEqualTo(100);
        }
    }

    /** A chat server with no tokenizer and no Ollama API: every other path is a 404. */
    private static MockWebServer noTokenizer() throws Exception {
        MockWebServer server = new MockWebServer();
        server.setDispatcher(new Dispatcher() {
            @Override
            public MockResponse dispatch(RecordedRequest r) {
                if (!r.getUrl().encodedPath().endsWith("/chat/completions")) {
                    return new MockResponse.Builder().code(404).body("not found").build();
                }
                return new MockResponse.Builder().addHeader("Content-Type", "text/event-stream").body(
                        "data: {\"choices\":[{\"index\":0,\"delta\":{\"content\":\"hi\"},\"finish_reason\":null}]}\n\n"
                        + "data: {\"choices\":[{\"index\":0,\"delta\":{},\"finish_reason\":\"stop\"}],"
                        + "\"usage\":{\"prompt_tokens\":9,\"completion_tokens\":1}}\n\ndata: [DONE]\n\n").build();
            }
        });
        server.start();
        return server;
    }

    @Test
    void leftAloneWithoutATokenizerItSendsWordsAndSaysTheLengthsAreEstimates() throws Exception {
        try (MockWebServer server = noTokenizer()) {
            TargetConfig t = Kneepoint.target(server.url("/").toString(), "m");
            RunResult r = fourRequests(t, dir.resolve("runs"), "estimate").outputTokens(1).run();
            assertThat(records(r)).hasSize(4).allSatisfy(rec -> assertThat(rec.isOk()).isTrue());
            JsonNode config = RunLoader.load(r.directory().orElseThrow()).manifest().get("config");
            assertThat(config.get("prompt_calibration").asText()).startsWith("estimate: synthetic words, no tokenizer "
                    + "answered; ESTIMATE").contains("/tokenize");
            assertThat(config.at("/workload/kind").asText()).isEqualTo("synthetic");
            // The same server with calibration required stops before the first step, naming what it tried.
            assertThatThrownBy(() -> fourRequests(t, dir.resolve("runs"), "required").calibrate(true).run())
                    .hasMessageContaining("calibrate: no tokenizer of the target could be used");
        }
    }

    @Test
    void calibratedTraceIsReadWithTheServersTokenizer() throws Exception {
        Path trace = dir.resolve("t.jsonl");
        Files.write(trace, List.of("{\"timestamp\": 0, \"input_length\": 64, \"output_length\": 4}",
                "{\"timestamp\": 10, \"input_length\": 80, \"output_length\": 4, \"hash_ids\": [0]}"));
        try (Simulator sim = Simulator.start(SimConfig.presetBuilder("fast").build())) {
            RunResult r = Kneepoint.replay(Kneepoint.target(sim), trace).calibrate(true).clientWarmup(false)
                    .telemetry(Telemetry.off()).outputDir(dir.resolve("runs")).name("trace").run();
            List<RequestRecord> rs = records(r).stream()
                    .sorted(java.util.Comparator.comparingLong(RequestRecord::id)).toList();
            assertThat(rs).extracting(rec -> rec.tokens().promptTokens()).containsExactly(64, 80);
            assertThat(RunLoader.load(r.directory().orElseThrow()).manifest().get("config")
                    .get("prompt_calibration").asText()).startsWith("exact: server:");
        }
    }

    @Test
    void ownWorkloadAndUnreachableTokenizerAreNamedProblems() {
        TargetConfig nowhere = Kneepoint.target("http://127.0.0.1:9", "m");
        assertThatThrownBy(() -> Kneepoint.sweep(nowhere).concurrency(1).calibrate(true)
                .workload(i -> null).prepare())
                .hasMessageContaining("calibrate your own workload when you build it");
        assertThatThrownBy(() -> Kneepoint.sweep(nowhere).concurrency(1).calibrate(true).prepare())
                .hasMessageContaining("calibrate: no tokenizer of the target could be used")
                .hasMessageContaining("Drop calibrate / --calibrate");
    }
}
