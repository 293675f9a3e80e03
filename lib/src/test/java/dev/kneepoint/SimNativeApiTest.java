package dev.kneepoint;

import static org.assertj.core.api.Assertions.assertThat;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import dev.kneepoint.client.ApiKind;
import dev.kneepoint.client.StreamingClient;
import dev.kneepoint.client.TargetConfig;
import dev.kneepoint.metrics.RequestRecord;
import dev.kneepoint.metrics.RunClock;
import dev.kneepoint.metrics.RunResult;
import dev.kneepoint.metrics.StepResult;
import dev.kneepoint.request.Cancellation;
import dev.kneepoint.request.RequestContext;
import dev.kneepoint.request.RequestSpec;
import dev.kneepoint.sim.Simulator;
import dev.kneepoint.workload.OutputControl;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.List;
import java.util.stream.Stream;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.EnumSource;

/** Every native adapter end to end against the simulator serving the native APIs. */
class SimNativeApiTest {
    private static Simulator sim;

    @TempDir
    Path runs;

    @BeforeAll
    static void start() {
        sim = Kneepoint.simulator("fast");
    }

    @AfterAll
    static void stop() {
        sim.close();
    }

    private static RequestRecord send(ApiKind kind, String fault) {
        TargetConfig.Builder b = Kneepoint.targetBuilder().baseUrl(sim.url()).model(sim.config().modelName()).api(kind);
        if (fault != null) {
            b.header("X-Sim-Fault", fault);
        }
        OutputControl.Fields f = OutputControl.exact(OutputControl.Server.VLLM).fields(12);
        RequestSpec spec = new RequestSpec("alpha beta gamma delta", List.of(), f.maxTokens(), -1, f.extraBody(), "fg");
        RunClock clock = RunClock.system();
        try (StreamingClient c = new StreamingClient(b.build())) {
            return c.execute(spec, new RequestContext(1, "s", false, clock.now(), clock), new Cancellation());
        }
    }

    @ParameterizedTest
    @EnumSource(value = ApiKind.class, names = {"TGI_GENERATE_STREAM", "OLLAMA_GENERATE", "OLLAMA_CHAT",
            "LLAMACPP_COMPLETION", "SGLANG_GENERATE"})
    void eachNativeApiIsMeasured(ApiKind kind) {
        RequestRecord r = send(kind, null);
        assertThat(r.outcome().label()).as(r.outcome().detail()).isEqualTo("OK");
        assertThat(r.tokens().promptTokens()).isPositive();
        assertThat(r.timing().firstTokenNanos()).isGreaterThan(r.timing().dispatchNanos());
        assertThat(r.timing().lastTokenNanos()).isGreaterThan(r.timing().firstTokenNanos());
        switch (kind) {
            // ignore_eos and max_new_tokens are honoured: exactly 12 tokens, the last one carrying details
            case TGI_GENERATE_STREAM, LLAMACPP_COMPLETION, SGLANG_GENERATE -> {
                if (kind != ApiKind.TGI_GENERATE_STREAM) {
                    assertThat(r.tokens().outputTokens()).isEqualTo(12);
                    assertThat(r.response().finishReason()).isEqualTo("length");
                } else {
                    // TGI has no ignore_eos: the model may stop earlier (EOS counted), never later
                    assertThat(r.tokens().outputTokens()).isBetween(1, 13);
                }
            }
            // Ollama has no ignore_eos either; the server phase times are measured on the same clock
            default -> {
                assertThat(r.tokens().outputTokens()).isBetween(1, 12);
                double promptEvalMs = r.response().serverTimings().get("prompt_eval_ms");
                // the simulator starts its clock after the request arrived and stops it when it writes the
                // first token, both inside the client's dispatch -> first-token interval: a hard bound
                assertThat(promptEvalMs).isLessThanOrEqualTo(r.ttftNanos() / 1e6);
                assertThat(r.response().serverTimings()).containsKeys("eval_ms", "total_ms", "eval_count");
            }
        }
        assertThat(r.response().serverTimings()).isNotEmpty();
    }

    @ParameterizedTest
    @EnumSource(value = ApiKind.class, names = {"RESPONSES", "MESSAGES"})
    void theTypedEventApisAreMeasuredLikeChat(ApiKind kind) {
        RequestRecord r = send(kind, null);
        RequestRecord chat = send(ApiKind.CHAT, null);
        assertThat(r.outcome().label()).as(r.outcome().detail()).isEqualTo("OK");
        // ignore_eos and the length are honoured; the prompt is the same chat template's, its cached share said
        assertThat(r.tokens().outputTokens()).isEqualTo(12);
        assertThat(r.response().finishReason()).isEqualTo("length");
        assertThat(r.tokens().tokenSource()).isEqualTo(dev.kneepoint.metrics.TokenSource.SERVER_USAGE);
        assertThat(r.tokens().promptTokens()).isEqualTo(chat.tokens().promptTokens()).isPositive();
        assertThat(r.tokens().cachedPromptTokens()).isBetween(0, r.tokens().promptTokens());
        assertThat(r.timing().firstTokenNanos()).isGreaterThan(r.timing().dispatchNanos());
        assertThat(r.timing().chunkNanos().length).isGreaterThan(1);
    }

    @ParameterizedTest
    @EnumSource(value = ApiKind.class, names = {"CHAT", "OLLAMA_CHAT", "RESPONSES", "MESSAGES"})
    void imagesCostPromptTokensByTheirSizeInEveryApisShape(ApiKind kind) {
        RequestSpec text = new RequestSpec("", List.of(new RequestSpec.ChatMessage("user", "alpha beta gamma")), 4, -1,
                OutputControl.exact(OutputControl.Server.VLLM).fields(4).extraBody(), "fg");
        // 56x84 px: 2 x 3 patches of 28 px; 100x30: 4 x 2
        RequestSpec withImages = dev.kneepoint.workload.MediaInputs.images(1, 56, 84).attach(0, text);
        RequestSpec two = new dev.kneepoint.workload.MediaInputs(2, 100, 30, 0, 0, 7).attach(0, text);
        int base = sendSpec(kind, text).tokens().promptTokens();
        RequestRecord one = sendSpec(kind, withImages);
        assertThat(one.outcome().label()).as(one.outcome().detail()).isEqualTo("OK");
        assertThat(one.tokens().promptTokens()).isEqualTo(base + 6);
        assertThat(sendSpec(kind, two).tokens().promptTokens()).isEqualTo(base + 16);
        if (kind == ApiKind.CHAT) { // audio: one token per 40 ms
            RequestSpec audio = dev.kneepoint.workload.MediaInputs.audio(1, 1.0).attach(0, text);
            assertThat(sendSpec(kind, audio).tokens().promptTokens()).isEqualTo(base + 25);
        }
    }

    private static RequestRecord sendSpec(ApiKind kind, RequestSpec spec) {
        TargetConfig t = Kneepoint.targetBuilder().baseUrl(sim.url()).model(sim.config().modelName()).api(kind).build();
        RunClock clock = RunClock.system();
        try (StreamingClient c = new StreamingClient(t)) {
            return c.execute(spec, new RequestContext(1, "s", false, clock.now(), clock), new Cancellation());
        }
    }

    @ParameterizedTest
    @EnumSource(value = ApiKind.class, names = {"TGI_GENERATE_STREAM", "OLLAMA_CHAT", "LLAMACPP_COMPLETION",
            "SGLANG_GENERATE", "RESPONSES", "MESSAGES"})
    void faultsBecomeTheSameOutcomes(ApiKind kind) {
        assertThat(send(kind, "error_in_stream").outcome().label()).isEqualTo("STREAM_ERROR");
        assertThat(send(kind, "no_done").outcome().label()).isEqualTo("TRUNCATED");
    }

    @Test
    void aSweepOnANativeApiWritesServerTimingsToRequestsJsonl() throws Exception {
        RunResult r = Kneepoint.sweep(Kneepoint.target(sim)).api("ollama-generate").concurrency(2)
                .inputTokens(32).outputTokens(8).stepDuration(Duration.ofMillis(600)).warmup(Duration.ZERO)
                .outputDir(runs).name("ollama").run();
        StepResult s = r.steps().get(0);
        assertThat(s.counts().requestsOk()).isPositive();
        assertThat(s.counts().requestsFailed()).isZero();
        Path dir;
        try (Stream<Path> l = Files.list(runs)) {
            dir = l.findFirst().orElseThrow();
        }
        JsonNode first = new ObjectMapper().readTree(Files.readAllLines(dir.resolve("requests.jsonl")).get(0));
        assertThat(first.path("server_timings").has("eval_ms")).isTrue();
        assertThat(first.path("token_source").asText()).isEqualTo("server_usage");
        assertThat(Files.readString(dir.resolve("manifest.json"))).contains("ollama_generate");
    }

    @Test
    void aCalibratedSweepOnTheMessagesApiSendsThePromptLengthsAsked() {
        RunResult r = Kneepoint.sweep(Kneepoint.target(sim)).api("messages").concurrency(2).inputTokens(48)
                .outputTokens(8).stepDuration(Duration.ofMillis(600)).warmup(Duration.ZERO).outputDir(runs)
                .name("messages").run();
        StepResult s = r.steps().get(0);
        assertThat(s.counts().requestsOk()).isPositive();
        assertThat(s.counts().requestsFailed()).isZero();
        assertThat(s.tokens().meanPromptTokens()).isEqualTo(48.0);
        assertThat(s.tokens().meanOutputTokens()).isEqualTo(8.0);
        assertThat(s.tokens().cacheReported()).isTrue();
    }
}
