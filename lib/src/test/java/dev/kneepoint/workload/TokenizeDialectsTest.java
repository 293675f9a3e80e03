package dev.kneepoint.workload;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import dev.kneepoint.client.ApiKind;
import dev.kneepoint.client.TargetConfig;
import dev.kneepoint.request.RequestSpec;
import java.util.ArrayList;
import java.util.Collections;
import java.util.List;
import java.util.function.Function;
import mockwebserver3.Dispatcher;
import mockwebserver3.MockResponse;
import mockwebserver3.MockWebServer;
import mockwebserver3.RecordedRequest;
import org.junit.jupiter.api.Test;

/**
 * Prompt calibration against the tokenize endpoints of TGI, SGLang and llama_cpp.server, each played by a
 * MockWebServer answering in the shape the server's source defines (cited per test). The fake tokenizer
 * counts one token per space-separated word, so every expected count below is exact (no tolerance).
 */
class TokenizeDialectsTest {
    private static final ObjectMapper M = new ObjectMapper();

    /** A scripted server: the handler gets (path, JSON body) and answers; every request is kept in order. */
    private static final class Fake implements AutoCloseable {
        final MockWebServer server = new MockWebServer();
        final List<String> seen = Collections.synchronizedList(new ArrayList<>());

        Fake(Function<Call, MockResponse> handler) throws Exception {
            server.setDispatcher(new Dispatcher() {
                @Override
                public MockResponse dispatch(RecordedRequest r) {
                    String body = r.getBody() == null ? "" : r.getBody().utf8();
                    String path = r.getUrl().encodedPath();
                    seen.add(path + " " + body);
                    try {
                        return handler.apply(new Call(path, body.isEmpty() ? M.createObjectNode() : M.readTree(body)));
                    } catch (java.io.IOException e) {
                        return json(400, "{\"error\":\"bad json\"}");
                    }
                }
            });
            server.start();
        }

        String url(String path) {
            return server.url(path).toString();
        }

        @Override
        public void close() throws Exception {
            server.close();
        }
    }

    private record Call(String path, JsonNode body) {
        String text(String field) {
            return body.path(field).asText();
        }
    }

    private static MockResponse json(int code, String body) {
        return new MockResponse.Builder().code(code).addHeader("Content-Type", "application/json").body(body).build();
    }

    private static int words(String s) {
        return s.isBlank() ? 0 : s.strip().split(" +").length;
    }

    private static String ids(int n) {
        StringBuilder sb = new StringBuilder("[");
        for (int i = 0; i < n; i++) {
            sb.append(i == 0 ? "" : ",").append(100 + i);
        }
        return sb.append(']').toString();
    }

    /** Template overhead of the fake chat servers: 3 per message + 2 for the generation prompt. */
    private static int chatTokens(JsonNode messages) {
        int n = 2;
        for (JsonNode m : messages) {
            n += 3 + words(m.path("content").asText());
        }
        return n;
    }

    private static final List<RequestSpec.ChatMessage> CHAT = List.of(
            new RequestSpec.ChatMessage("system", "be brief"), new RequestSpec.ChatMessage("user", "one two three"));

    /**
     * TGI, huggingface/text-generation-inference router/src/server.rs: {@code POST /tokenize} takes a
     * GenerateRequest ({@code inputs} required, a serde 422 otherwise) and answers {@code TokenizeResponse}, a
     * transparent list of {@code SimpleToken {id, text, start, stop}}; {@code POST /chat_tokenize} takes a
     * ChatRequest and answers {@code ChatTokenizeResponse {tokenize_response, templated_text}} (router/src/lib.rs).
     */
    private static MockResponse tgi(Call c) {
        return switch (c.path()) {
            case "/tokenize" -> {
                if (!c.body().has("inputs")) {
                    yield json(422, "Failed to deserialize the JSON body into the target type: missing field `inputs`");
                }
                String in = c.text("inputs");
                StringBuilder sb = new StringBuilder("[");
                int pos = 0;
                for (String w : in.strip().split(" +")) {
                    int start = in.indexOf(w, pos);
                    pos = start + w.length();
                    sb.append(sb.length() > 1 ? "," : "").append("{\"id\":").append(7 + start).append(",\"text\":\"")
                            .append(w).append("\",\"start\":").append(start).append(",\"stop\":").append(pos).append('}');
                }
                yield json(200, sb.append(']').toString());
            }
            case "/chat_tokenize" -> {
                int n = chatTokens(c.body().path("messages"));
                StringBuilder sb = new StringBuilder("{\"tokenize_response\":[");
                for (int i = 0; i < n; i++) {
                    sb.append(i == 0 ? "" : ",").append("{\"id\":").append(i).append(",\"text\":\"t\",\"start\":0,\"stop\":1}");
                }
                yield json(200, sb.append("],\"templated_text\":\"<|im_start|>...\"}").toString());
            }
            default -> json(404, "");
        };
    }

    @Test
    void tgiTokenizeAndChatTokenizeAreUsedAndTriedFirstForATgiTarget() throws Exception {
        try (Fake f = new Fake(TokenizeDialectsTest::tgi)) {
            TargetConfig t = TargetConfig.builder().baseUrl(f.url("/")).model("tgi").api(ApiKind.TGI_GENERATE_STREAM).build();
            TokenCounter c = TokenCounter.server(t);
            assertThat(c.count("a b c d")).isEqualTo(4);
            assertThat(c.count("x")).isEqualTo(1);
            // system: 3 + 2, user: 3 + 3, generation prompt 2
            assertThat(c.countChat(CHAT)).isEqualTo(13);
            assertThat(c.describe()).contains("/tokenize").contains("tgi shape");
            assertThat(f.seen.get(0)).startsWith("/tokenize ").contains("\"inputs\":\"a b c d\"");
            assertThat(f.seen.get(2)).startsWith("/chat_tokenize ").contains("\"messages\"");
            assertThat(f.seen).hasSize(3); // no probing of other dialects when the hinted one answers
        }
    }

    @Test
    void tgiIsFoundAfterTheOtherShapesFailWhenTheTargetSpeaksChat() throws Exception {
        try (Fake f = new Fake(TokenizeDialectsTest::tgi)) {
            TokenCounter c = TokenCounter.server(f.url("/v1"), "tgi");
            assertThat(c.count("a b c")).isEqualTo(3);
            // vLLM shape (422: no inputs), llama.cpp shape (422), then TGI
            assertThat(f.seen).hasSize(3);
            assertThat(f.seen.get(2)).contains("\"inputs\"");
            assertThat(c.count("p q")).isEqualTo(2);
            assertThat(f.seen).hasSize(4);
        }
    }

    /**
     * SGLang, sgl-project/sglang python/sglang/srt/entrypoints/http_server.py routes {@code /v1/tokenize} and
     * {@code /tokenize} to openai/serving_tokenize.py: {@code {prompt, add_special_tokens}} →
     * {@code {tokens, count, max_model_len}}. Its TokenizeRequest has no {@code messages}: FastAPI answers 422.
     * Chat prompts are then counted by usage.prompt_tokens of a 1-token chat completion.
     */
    private static MockResponse sglang(Call c) {
        return switch (c.path()) {
            case "/tokenize", "/v1/tokenize" -> {
                if (!c.body().has("prompt")) {
                    yield json(422, "{\"detail\":[{\"type\":\"missing\",\"loc\":[\"body\",\"prompt\"],\"msg\":\"Field required\"}]}");
                }
                int n = words(c.text("prompt"));
                yield json(200, "{\"tokens\":" + ids(n) + ",\"count\":" + n + ",\"max_model_len\":32768}");
            }
            case "/v1/chat/completions" -> json(200, "{\"id\":\"x\",\"object\":\"chat.completion\",\"choices\":[{\"index\":0,"
                    + "\"message\":{\"role\":\"assistant\",\"content\":\"ok\"},\"finish_reason\":\"length\"}],"
                    + "\"usage\":{\"prompt_tokens\":" + chatTokens(c.body().path("messages"))
                    + ",\"completion_tokens\":1,\"total_tokens\":0}}");
            default -> json(404, "{\"detail\":\"Not Found\"}");
        };
    }

    @Test
    void sglangCountsPromptsWithTokenizeAndChatsWithOneTokenCompletionsCachedPerTemplate() throws Exception {
        try (Fake f = new Fake(TokenizeDialectsTest::sglang)) {
            TargetConfig t = TargetConfig.builder().baseUrl(f.url("/v1")).model("qwen").api(ApiKind.SGLANG_GENERATE).build();
            TokenCounter c = TokenCounter.server(t);
            assertThat(c.count("a b c d e")).isEqualTo(5);
            assertThat(c.countChat(CHAT)).isEqualTo(13);
            assertThat(c.countChat(CHAT)).isEqualTo(13);
            assertThat(c.describe()).contains("vllm shape").contains("usage.prompt_tokens");
            // tokenize, tokenize with messages (422), then completions; the second chat goes straight to completions
            assertThat(f.seen).hasSize(4);
            assertThat(f.seen.get(2)).startsWith("/v1/chat/completions ").contains("\"max_tokens\":1")
                    .contains("\"stream\":false");
            assertThat(f.seen.get(3)).startsWith("/v1/chat/completions ");
            // the calibrator sees SGLang's count field: exact lengths assemble
            PromptCalibrator cal = PromptCalibrator.measure(c);
            assertThat(cal.exact()).isTrue();
            assertThat(cal.chatOverhead(List.of("system", "user"))).isEqualTo(2 * 3 + 2);
        }
    }

    /**
     * llama_cpp.server, abetlen/llama-cpp-python llama_cpp/server/app.py: {@code POST /extras/tokenize} with
     * TokenizeInputRequest {@code {model?, input}} (types.py) → TokenizeInputResponse {@code {tokens}},
     * tokenized with {@code add_bos=True}; no /tokenize (FastAPI 404 {@code {"detail":"Not Found"}}), no chat
     * template endpoint, so chat is counted through usage.prompt_tokens of a non-streamed completion.
     */
    private static MockResponse llamaCppPython(Call c) {
        return switch (c.path()) {
            case "/extras/tokenize" -> c.body().has("input")
                    ? json(200, "{\"tokens\":" + ids(1 + words(c.text("input"))) + "}")
                    : json(422, "{\"detail\":[{\"type\":\"missing\",\"loc\":[\"body\",\"input\"]}]}");
            case "/v1/chat/completions" -> json(200, "{\"choices\":[{\"message\":{\"content\":\"x\"}}],\"usage\":"
                    + "{\"prompt_tokens\":" + (1 + chatTokens(c.body().path("messages"))) + ",\"completion_tokens\":1}}");
            default -> json(404, "{\"detail\":\"Not Found\"}");
        };
    }

    @Test
    void llamaCppServerExtrasTokenizeIsFoundAndItsBosIsThePromptOverhead() throws Exception {
        try (Fake f = new Fake(TokenizeDialectsTest::llamaCppPython)) {
            TokenCounter c = TokenCounter.server(f.url("/v1"), "SmolLM2-135M-Instruct");
            assertThat(c.count("a b c")).isEqualTo(4); // BOS + 3
            assertThat(f.seen).hasSize(4); // /tokenize x3 shapes (404), then /extras/tokenize
            assertThat(f.seen.get(3)).startsWith("/extras/tokenize ").contains("\"input\":\"a b c\"")
                    .contains("\"model\":\"SmolLM2-135M-Instruct\"");
            assertThat(c.countChat(CHAT)).isEqualTo(14);
            assertThat(c.describe()).contains("/extras/tokenize").contains("llama_cpp.server shape");
            PromptCalibrator cal = PromptCalibrator.measure(c);
            assertThat(cal.promptOverhead()).isEqualTo(1);
        }
    }

    @Test
    void noTokenizerAnywhereListsEveryEndpointTriedAndTheFix() throws Exception {
        try (Fake f = new Fake(c -> json(404, "{\"detail\":\"Not Found\"}"))) {
            assertThatThrownBy(() -> TokenCounter.server(f.url("/v1"), "m").count("x"))
                    .isInstanceOf(TokenizerException.class)
                    .hasMessageContaining("/tokenize {model, prompt}").hasMessageContaining("/tokenize {inputs}")
                    .hasMessageContaining("/extras/tokenize {input, model}").hasMessageContaining("HTTP 404")
                    .hasMessageContaining("TokenCounter.openAi");
            assertThat(f.seen).hasSize(4);
        }
    }

    @Test
    void chatWithoutUsageIsAClearError() throws Exception {
        try (Fake f = new Fake(c -> c.path().equals("/extras/tokenize")
                ? json(200, "{\"tokens\":[1,2]}") : c.path().equals("/v1/chat/completions")
                ? json(200, "{\"choices\":[]}") : json(404, "{}"))) {
            TokenCounter c = TokenCounter.server(f.url("/"), "m");
            assertThatThrownBy(() -> c.countChat(CHAT)).isInstanceOf(TokenizerException.class)
                    .hasMessageContaining("usage.prompt_tokens").hasMessageContaining("/v1/chat/completions");
        }
    }
}
