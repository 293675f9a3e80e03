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

/** The simulator answers a chat request that offers tools with a tool call, in vLLM's stream shape. */
class SimToolCallTest {
    static final ObjectMapper JSON = new ObjectMapper();
    static final String TOOLS = """
            [{"type":"function","function":{"name":"get_weather","parameters":{"type":"object",
              "properties":{"city":{"type":"string"}}}}}]""";
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

    static HttpResponse<String> post(String path, String body) throws Exception {
        return http.send(HttpRequest.newBuilder(URI.create(sim.url() + path))
                .POST(HttpRequest.BodyPublishers.ofString(body)).build(), HttpResponse.BodyHandlers.ofString());
    }

    static String chat(String messages, String extra) {
        return "{\"model\":\"sim-fast\",\"messages\":" + messages + ",\"max_tokens\":5,\"ignore_eos\":true,"
                + "\"stream\":true,\"stream_options\":{\"include_usage\":true}" + extra + "}";
    }

    @Test
    void aStreamedCallNamesTheFunctionThenStreamsArgumentsThatParse() throws Exception {
        RawSse.Result r = RawSse.post(sim.port(), "/v1/chat/completions",
                chat("[{\"role\":\"user\",\"content\":\"weather in Paris?\"}]", ",\"tools\":" + TOOLS));
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
