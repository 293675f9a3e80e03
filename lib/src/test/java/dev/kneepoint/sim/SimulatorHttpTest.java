package dev.kneepoint.sim;

import static org.assertj.core.api.Assertions.assertThat;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.util.List;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;

/** Endpoint shapes over real HTTP, with the JDK client and a raw-socket client. */
class SimulatorHttpTest {
    static final ObjectMapper JSON = new ObjectMapper();
    static Simulator sim;
    static HttpClient http;

    @BeforeAll
    static void start() {
        sim = Simulator.start(SimConfig.presetBuilder("fast").outputLength(LengthModel.fixed(7)).build());
        http = HttpClient.newBuilder().version(HttpClient.Version.HTTP_1_1).build();
    }

    @AfterAll
    static void stop() {
        sim.close();
        http.close();
    }

    static JsonNode json(String s) throws Exception {
        return JSON.readTree(s);
    }

    static HttpResponse<String> get(String path) throws Exception {
        return http.send(HttpRequest.newBuilder(URI.create(sim.url() + path)).build(), HttpResponse.BodyHandlers.ofString());
    }

    static HttpResponse<String> post(String path, String body) throws Exception {
        return http.send(HttpRequest.newBuilder(URI.create(sim.url() + path))
                .POST(HttpRequest.BodyPublishers.ofString(body)).build(), HttpResponse.BodyHandlers.ofString());
    }

    @Test
    void streamingChatHasTheOpenAiShape() throws Exception {
        RawSse.Result r = RawSse.post(sim.port(), "/v1/chat/completions", """
                {"model":"sim-fast","messages":[{"role":"user","content":"say five words"}],"max_tokens":5,
                 "stream":true,"stream_options":{"include_usage":true}}""");
        assertThat(r.status()).isEqualTo(200);
        assertThat(r.headers().get("content-type")).startsWith("text/event-stream");
        List<RawSse.Event> ev = r.events();
        assertThat(ev).hasSize(1 + 5 + 1 + 1 + 1);
        JsonNode role = json(ev.get(0).data());
        assertThat(role.path("object").asText()).isEqualTo("chat.completion.chunk");
        assertThat(role.at("/choices/0/delta/role").asText()).isEqualTo("assistant");
        assertThat(role.at("/choices/0/delta/content").asText()).isEmpty();
        for (int i = 1; i <= 5; i++) {
            JsonNode c = json(ev.get(i).data());
            assertThat(c.at("/choices/0/delta/content").asText()).matches(" [a-z]+");
            assertThat(c.at("/choices/0/finish_reason").isNull()).isTrue();
        }
        JsonNode fin = json(ev.get(6).data());
        assertThat(fin.at("/choices/0/finish_reason").asText()).isEqualTo("length");
        assertThat(fin.at("/choices/0/delta").size()).isZero();
        JsonNode usage = json(ev.get(7).data());
        assertThat(usage.get("choices").isArray() && usage.get("choices").isEmpty()).isTrue();
        assertThat(ev.get(7).data()).contains("\"choices\":[]");
        assertThat(usage.at("/usage/completion_tokens").asInt()).isEqualTo(5);
        assertThat(usage.at("/usage/prompt_tokens").asInt()).isEqualTo(3 + 4 + 3);
        assertThat(ev.get(8).data()).isEqualTo("[DONE]");
        assertThat(r.cleanEnd()).isTrue();
    }

    @Test
    void continuousUsageCountsEveryTokenAndCompletionsStreamToo() throws Exception {
        RawSse.Result r = RawSse.post(sim.port(), "/v1/completions", """
                {"prompt":"one two three four","max_tokens":4,"ignore_eos":true,"stream":true,
                 "stream_options":{"include_usage":true,"continuous_usage_stats":true}}""");
        List<RawSse.Event> ev = r.events();
        assertThat(ev).hasSize(4 + 1 + 1 + 1);
        for (int i = 0; i < 4; i++) {
            JsonNode c = json(ev.get(i).data());
            assertThat(c.path("object").asText()).isEqualTo("text_completion");
            assertThat(c.at("/choices/0/text").asText()).matches(" [a-z]+");
            assertThat(c.at("/usage/completion_tokens").asInt()).isEqualTo(i + 1);
            assertThat(c.at("/usage/prompt_tokens").asInt()).isEqualTo(4);
        }
        assertThat(json(ev.get(4).data()).at("/choices/0/finish_reason").asText()).isEqualTo("length");
        assertThat(r.done()).isTrue();
    }

    @Test
    void multiTokenChunksCarrySeveralTokensPerEvent() throws Exception {
        try (Simulator s3 = Simulator.start(SimConfig.presetBuilder("fast").tokensPerChunk(3).build())) {
            RawSse.Result r = RawSse.post(s3.port(), "/v1/completions", """
                    {"prompt":"hi","max_tokens":7,"ignore_eos":true,"stream":true,
                     "stream_options":{"include_usage":true,"continuous_usage_stats":true}}""");
            List<Integer> counts = r.events().subList(0, 3).stream().map(e -> {
                try {
                    return json(e.data()).at("/usage/completion_tokens").asInt();
                } catch (Exception x) {
                    throw new IllegalStateException(x);
                }
            }).toList();
            assertThat(counts).containsExactly(1, 4, 7);
            assertThat(json(r.events().get(1).data()).at("/choices/0/text").asText().split(" ")).hasSize(4);
        }
    }

    @Test
    void outputLengthHonoursMaxTokensMinTokensAndIgnoreEos() throws Exception {
        record Case(String body, int tokens, String finish) {
        }
        for (Case c : List.of(new Case("{\"prompt\":\"a\"}", 7, "stop"),
                new Case("{\"prompt\":\"a\",\"max_tokens\":4}", 4, "length"),
                new Case("{\"prompt\":\"a\",\"max_tokens\":20,\"min_tokens\":10}", 10, "stop"),
                new Case("{\"prompt\":\"a\",\"max_tokens\":12,\"ignore_eos\":true}", 12, "length"))) {
            JsonNode r = json(post("/v1/completions", c.body()).body());
            assertThat(r.at("/usage/completion_tokens").asInt()).as(c.body()).isEqualTo(c.tokens());
            assertThat(r.at("/choices/0/finish_reason").asText()).as(c.body()).isEqualTo(c.finish());
            assertThat(Tokenizer.count(r.at("/choices/0/text").asText())).isEqualTo(c.tokens());
        }
        JsonNode chat = json(post("/v1/chat/completions",
                "{\"messages\":[{\"role\":\"user\",\"content\":\"hi\"}],\"max_tokens\":3}").body());
        assertThat(chat.path("object").asText()).isEqualTo("chat.completion");
        assertThat(chat.at("/choices/0/message/role").asText()).isEqualTo("assistant");
        assertThat(chat.at("/usage/prompt_tokens").asInt()).isEqualTo(4 + 1 + 3);
    }

    @Test
    void modelsTokenizeDetokenizeHealthAndErrors() throws Exception {
        JsonNode models = json(get("/v1/models").body());
        assertThat(models.at("/data/0/id").asText()).isEqualTo("sim-fast");
        assertThat(models.at("/data/0/max_model_len").asInt()).isEqualTo(8192);
        JsonNode tok = json(post("/tokenize", "{\"prompt\":\"alpha beta, gamma\"}").body());
        assertThat(tok.path("count").asInt()).isEqualTo(4);
        assertThat(tok.path("max_model_len").asInt()).isEqualTo(8192);
        JsonNode chatTok = json(post("/tokenize", "{\"messages\":[{\"role\":\"user\",\"content\":\"a b c\"}]}").body());
        assertThat(chatTok.path("count").asInt()).isEqualTo(4 + 3 + 3);
        JsonNode detok = json(post("/detokenize", "{\"tokens\":" + tok.get("tokens") + "}").body());
        assertThat(detok.path("prompt").asText()).isEqualTo("alpha beta, gamma");
        assertThat(get("/health").statusCode()).isEqualTo(200);
        assertThat(get("/nope").statusCode()).isEqualTo(404);
        assertThat(get("/v1/completions").statusCode()).isEqualTo(405);
        HttpResponse<String> tooLong = post("/v1/completions", "{\"prompt\":\"a\",\"max_tokens\":9000}");
        assertThat(tooLong.statusCode()).isEqualTo(400);
        assertThat(json(tooLong.body()).at("/error/message").asText()).contains("maximum context length is 8192");
        assertThat(post("/v1/completions", "{\"model\":\"other\",\"prompt\":\"a\"}").statusCode()).isEqualTo(404);
        assertThat(post("/v1/completions", "{not json").statusCode()).isEqualTo(400);
    }

    @Test
    void metricsUseVllmNames() throws Exception {
        post("/v1/completions", "{\"prompt\":\"a b c\",\"max_tokens\":3}");
        String m = get("/metrics").body();
        for (String name : List.of("vllm:num_requests_running{model_name=\"sim-fast\"}", "vllm:num_requests_waiting",
                "vllm:kv_cache_usage_perc", "vllm:prompt_tokens_total", "vllm:generation_tokens_total",
                "vllm:num_preemptions_total", "vllm:time_to_first_token_seconds_bucket",
                "vllm:inter_token_latency_seconds_bucket", "vllm:e2e_request_latency_seconds_count",
                "vllm:prefix_cache_hits_total", "vllm:prefix_cache_queries_total",
                "kneepoint_sim_emission_lag_seconds{model_name=\"sim-fast\",quantile=\"0.99\"}")) {
            assertThat(m).contains(name);
        }
        assertThat(sim.stats().requestsServed()).isPositive();
    }

    @Test
    void loneRequestTtftIsThePrefillStepAndItlTheBatchOneStep() throws Exception {
        // Costs chosen so that model errors are large against scheduling noise (a single emission was seen
        // 55 ms late on a loaded machine): prefill 10 ms + 1000 × 200 µs = 210 ms, decode ~10.5 ms per step.
        SimConfig c = SimConfig.presetBuilder("fast").stepOverheadNanos(10_000_000).prefillNanosPerToken(200_000)
                .build();
        StepCost cost = StepCost.of(c);
        String prompt = String.join(" ", java.util.Collections.nCopies(1000, "word"));
        try (Simulator s = Simulator.start(c)) {
            RawSse.post(s.port(), "/v1/completions", "{\"prompt\":\"warm\",\"max_tokens\":5}");
            RawSse.Result r = RawSse.post(s.port(), "/v1/completions", "{\"prompt\":\"" + prompt
                    + "\",\"max_tokens\":60,\"ignore_eos\":true,\"stream\":true}");
            List<RawSse.Event> ev = r.events();
            assertThat(ev).hasSize(60 + 1 + 1);
            long ttft = ev.get(0).arrivalNanos() - r.sendNanos();
            long modelled = cost.lonePrefillNanos(1000);
            // The engine never emits early (it parks until the deadline, and a step for work that arrived while
            // it was idle starts on arrival): the lower bound is hard. Noise only makes it late: 100 ms covers
            // a late wake-up and write, and still fails a prefill whose per-token cost is counted twice (+200 ms)
            // or ignored (-200 ms).
            assertThat(ttft).isBetween(modelled - 500_000, modelled + 100_000_000);
            // ITL: measured from the send, not as (last - first) / 59, which a late first arrival shortens
            // (noise can make a gap look shorter, never an arrival earlier). Steps use absolute deadlines, so
            // the 60th token is due exactly at prefill + 59 batch-one decode steps (context 1001..1059): a hard
            // lower bound; 100 ms above it covers a late wake-up and write, and fails an ITL model off by
            // >= 17% (59 steps of ~10.5 ms).
            long modelledLast = modelled;
            for (int k = 1; k <= 59; k++) {
                modelledLast += cost.loneDecodeNanos(1000 + k);
            }
            assertThat(ev.get(59).arrivalNanos() - r.sendNanos()).as("60th token from send")
                    .isBetween(modelledLast - 500_000, modelledLast + 100_000_000);
        }
    }

    // Tools: a chat request that offers functions is answered with a tool call, in vLLM's stream shape.

    static final String TOOLS = """
            [{"type":"function","function":{"name":"get_weather","parameters":{"type":"object",
              "properties":{"city":{"type":"string"}}}}}]""";
    static String toolChat(String messages, String extra) {
        return "{\"model\":\"sim-fast\",\"messages\":" + messages + ",\"max_tokens\":5,\"ignore_eos\":true,"
                + "\"stream\":true,\"stream_options\":{\"include_usage\":true}" + extra + "}";
    }

    @Test
    void aStreamedCallNamesTheFunctionThenStreamsArgumentsThatParse() throws Exception {
        RawSse.Result r = RawSse.post(sim.port(), "/v1/chat/completions",
                toolChat("[{\"role\":\"user\",\"content\":\"weather in Paris?\"}]", ",\"tools\":" + TOOLS));
        assertThat(r.status()).isEqualTo(200);
        List<RawSse.Event> ev = r.events();
        assertThat(ev).hasSize(5 + 1 + 1 + 1); // one call chunk per token, finish, usage, [DONE]
        JsonNode first = JSON.readTree(ev.get(0).data());
        assertThat(first.at("/choices/0/delta/role").asText()).isEqualTo("assistant");
        assertThat(first.at("/choices/0/delta/content").isNull()).isTrue();
        assertThat(first.at("/choices/0/delta/tool_calls/0/id").asText()).startsWith("call_");
        assertThat(first.at("/choices/0/delta/tool_calls/0/type").asText()).isEqualTo("function");
        assertThat(first.at("/choices/0/delta/tool_calls/0/function/name").asText()).isEqualTo("get_weather");
        StringBuilder arguments = new StringBuilder();
        for (int i = 0; i < 5; i++) {
            JsonNode c = JSON.readTree(ev.get(i).data());
            assertThat(c.at("/choices/0/delta/tool_calls/0/index").asInt()).isZero();
            assertThat(c.at("/choices/0/delta/content").isMissingNode() || c.at("/choices/0/delta/content").isNull())
                    .isTrue();
            arguments.append(c.at("/choices/0/delta/tool_calls/0/function/arguments").asText());
        }
        JsonNode args = JSON.readTree(arguments.toString());
        assertThat(args.path("query").asText().strip().split(" ")).hasSize(5);
        assertThat(JSON.readTree(ev.get(5).data()).at("/choices/0/finish_reason").asText()).isEqualTo("length");
        JsonNode usage = JSON.readTree(ev.get(6).data());
        assertThat(usage.at("/usage/completion_tokens").asInt()).isEqualTo(5);
        // the tools' definitions are part of the prompt, as a chat template renders them
        int withoutTools = 3 + 4 + 3;
        assertThat(usage.at("/usage/prompt_tokens").asInt()).isGreaterThan(withoutTools + 4);
        assertThat(ev.get(7).data()).isEqualTo("[DONE]");
    }

    @Test
    void aCallThatEndsNaturallyFinishesWithToolCallsAndNoneOrAToolResultGetsText() throws Exception {
        String user = "[{\"role\":\"user\",\"content\":\"weather?\"}]";
        String body = "{\"model\":\"sim-fast\",\"messages\":" + user + ",\"tools\":" + TOOLS + "}";
        JsonNode whole = JSON.readTree(post("/v1/chat/completions", body).body());
        assertThat(whole.at("/choices/0/finish_reason").asText()).isEqualTo("tool_calls");
        assertThat(whole.at("/choices/0/message/content").isNull()).isTrue();
        assertThat(whole.at("/choices/0/message/tool_calls/0/function/name").asText()).isEqualTo("get_weather");
        JsonNode args = JSON.readTree(whole.at("/choices/0/message/tool_calls/0/function/arguments").asText());
        assertThat(args.path("query").asText().strip().split(" ")).hasSize(7);

        String none = "{\"model\":\"sim-fast\",\"messages\":" + user + ",\"tools\":" + TOOLS + ",\"tool_choice\":\"none\"}";
        JsonNode text = JSON.readTree(post("/v1/chat/completions", none).body());
        assertThat(text.at("/choices/0/finish_reason").asText()).isEqualTo("stop");
        assertThat(text.at("/choices/0/message/content").asText()).isNotBlank();

        String afterResult = "[{\"role\":\"user\",\"content\":\"weather?\"},{\"role\":\"assistant\",\"content\":null,"
                + "\"tool_calls\":[{\"id\":\"call_1\",\"type\":\"function\",\"function\":{\"name\":\"get_weather\","
                + "\"arguments\":\"{}\"}}]},{\"role\":\"tool\",\"tool_call_id\":\"call_1\",\"content\":\"sunny\"}]";
        JsonNode answer = JSON.readTree(post("/v1/chat/completions",
                "{\"model\":\"sim-fast\",\"messages\":" + afterResult + ",\"tools\":" + TOOLS + "}").body());
        assertThat(answer.at("/choices/0/message/content").asText()).isNotBlank();
        JsonNode forced = JSON.readTree(post("/v1/chat/completions",
                "{\"model\":\"sim-fast\",\"messages\":" + afterResult + ",\"tools\":" + TOOLS
                        + ",\"tool_choice\":\"required\"}").body());
        assertThat(forced.at("/choices/0/message/tool_calls/0/function/name").asText()).isEqualTo("get_weather");
    }

    @Test
    void badToolFieldsAreRejectedWithWhatToFix() throws Exception {
        HttpResponse<String> r = post("/v1/chat/completions",
                "{\"model\":\"sim-fast\",\"messages\":[{\"role\":\"user\",\"content\":\"x\"}],\"tools\":" + TOOLS
                        + ",\"tool_choice\":{\"type\":\"function\",\"function\":{\"name\":\"nope\"}}}");
        assertThat(r.statusCode()).isEqualTo(400);
        assertThat(r.body()).contains("'nope'").contains("get_weather");
        r = post("/v1/chat/completions",
                "{\"model\":\"sim-fast\",\"messages\":[{\"role\":\"user\",\"content\":\"x\"}],\"tools\":[{\"name\":\"f\"}]}");
        assertThat(r.statusCode()).isEqualTo(400);
        assertThat(r.body()).contains("type").contains("function");
    }
}
