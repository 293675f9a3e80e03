package dev.kneepoint.client;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import com.fasterxml.jackson.databind.JsonNode;
import dev.kneepoint.request.RequestSpec;
import dev.kneepoint.workload.OutputControl;
import java.util.List;
import org.junit.jupiter.api.Test;

/** Each native API's body carries the prompt and the output-length controls in its own fields. */
class NativeBodiesTest {
    // what the workloads send by default: max_tokens 20 + vLLM's exact-length extras
    private static final OutputControl.Fields EXACT = OutputControl.exact(OutputControl.Server.VLLM).fields(20);
    private static final RequestSpec SPEC = new RequestSpec("Say hi", List.of(), EXACT.maxTokens(), 5,
            EXACT.extraBody(), "fg");

    private static JsonNode body(ApiKind kind) throws Exception {
        TargetConfig t = TargetConfig.builder().baseUrl("http://localhost:1/v1").model("m").api(kind).build();
        return OpenAiChunkDecoder.MAPPER.readTree(RequestBodies.body(t, SPEC));
    }

    @Test
    void tgi() throws Exception {
        assertThat(body(ApiKind.TGI_GENERATE_STREAM).toString())
                .isEqualTo("{\"inputs\":\"Say hi\",\"parameters\":{\"max_new_tokens\":20,\"details\":true}}");
    }

    @Test
    void ollama() throws Exception {
        assertThat(body(ApiKind.OLLAMA_GENERATE).toString())
                .isEqualTo("{\"model\":\"m\",\"prompt\":\"Say hi\",\"stream\":true,\"options\":{\"num_predict\":20}}");
        assertThat(body(ApiKind.OLLAMA_CHAT).toString()).isEqualTo("{\"model\":\"m\",\"messages\":[{\"role\":\"user\","
                + "\"content\":\"Say hi\"}],\"stream\":true,\"options\":{\"num_predict\":20}}");
    }

    @Test
    void llamaCppAndSglangKeepIgnoreEos() throws Exception {
        assertThat(body(ApiKind.LLAMACPP_COMPLETION).toString())
                .isEqualTo("{\"prompt\":\"Say hi\",\"n_predict\":20,\"ignore_eos\":true,\"stream\":true}");
        assertThat(body(ApiKind.SGLANG_GENERATE).toString()).isEqualTo("{\"text\":\"Say hi\",\"sampling_params\":"
                + "{\"max_new_tokens\":20,\"ignore_eos\":true,\"min_new_tokens\":20},\"stream\":true}");
    }

    @Test
    void responsesAndMessagesCarryTheChatMessages() throws Exception {
        RequestSpec chat = new RequestSpec("", List.of(new RequestSpec.ChatMessage("system", "Be brief."),
                new RequestSpec.ChatMessage("user", "Say hi")), EXACT.maxTokens(), 5, EXACT.extraBody(), "fg");
        TargetConfig.Builder b = TargetConfig.builder().baseUrl("http://localhost:1/v1").model("m");
        assertThat(OpenAiChunkDecoder.MAPPER.readTree(RequestBodies.body(b.api("responses").build(), chat)).toString())
                .isEqualTo("{\"model\":\"m\",\"input\":[{\"role\":\"system\",\"content\":\"Be brief.\"},"
                        + "{\"role\":\"user\",\"content\":\"Say hi\"}],\"max_output_tokens\":20,\"store\":false,"
                        + "\"stream\":true,\"ignore_eos\":true,\"min_tokens\":20}");
        // the Messages API has no system role in its messages: the system prompt is the top-level "system"
        assertThat(OpenAiChunkDecoder.MAPPER.readTree(RequestBodies.body(b.api("messages").build(), chat)).toString())
                .isEqualTo("{\"model\":\"m\",\"system\":\"Be brief.\",\"messages\":[{\"role\":\"user\","
                        + "\"content\":\"Say hi\"}],\"max_tokens\":20,\"stream\":true,\"ignore_eos\":true,"
                        + "\"min_tokens\":20}");
        assertThat(b.api("messages").build().endpoint().toString()).isEqualTo("http://localhost:1/v1/messages");
        assertThat(b.api("responses").build().endpoint().toString()).isEqualTo("http://localhost:1/v1/responses");
    }

    @Test
    void mediaTakeEachApisShape() throws Exception {
        RequestSpec.Media png = new RequestSpec.Media("image/png", "iVBOR");
        RequestSpec.Media wav = new RequestSpec.Media("audio/wav", "UklGR");
        RequestSpec spec = new RequestSpec("", List.of(new RequestSpec.ChatMessage("user", "look", List.of(png))), 8,
                -1, java.util.Map.of(), "fg");
        TargetConfig.Builder b = TargetConfig.builder().baseUrl("http://localhost:1/v1").model("m");
        // compared as JSON trees: a part's fields may come in any order
        java.util.function.Function<String, JsonNode> content = api -> {
            try {
                return OpenAiChunkDecoder.MAPPER.readTree(RequestBodies.body(b.api(api).build(), spec))
                        .get(api.equals("responses") ? "input" : "messages").get(0);
            } catch (java.io.IOException e) {
                throw new java.io.UncheckedIOException(e);
            }
        };
        assertThat(content.apply("chat")).isEqualTo(json("{\"role\":\"user\",\"content\":[{\"type\":\"text\",\"text\":"
                + "\"look\"},{\"type\":\"image_url\",\"image_url\":{\"url\":\"data:image/png;base64,iVBOR\"}}]}"));
        assertThat(content.apply("ollama-chat")).isEqualTo(json("{\"role\":\"user\",\"content\":\"look\",\"images\":"
                + "[\"iVBOR\"]}"));
        assertThat(content.apply("responses")).isEqualTo(json("{\"role\":\"user\",\"content\":[{\"type\":\"input_text\","
                + "\"text\":\"look\"},{\"type\":\"input_image\",\"image_url\":\"data:image/png;base64,iVBOR\"}]}"));
        assertThat(content.apply("messages")).isEqualTo(json("{\"role\":\"user\",\"content\":[{\"type\":\"text\",\"text\":"
                + "\"look\"},{\"type\":\"image\",\"source\":{\"type\":\"base64\",\"media_type\":\"image/png\","
                + "\"data\":\"iVBOR\"}}]}"));
        RequestSpec audio = new RequestSpec("", List.of(new RequestSpec.ChatMessage("user", "hear", List.of(wav))), 8,
                -1, java.util.Map.of(), "fg");
        assertThat(OpenAiChunkDecoder.MAPPER.readTree(RequestBodies.body(b.api("chat").build(), audio)).get("messages")
                .get(0).get("content").get(1)).isEqualTo(json("{\"type\":\"input_audio\",\"input_audio\":"
                + "{\"data\":\"UklGR\",\"format\":\"wav\"}}"));
    }

    @Test
    void toolsTakeTheResponsesAndMessagesShapes() throws Exception {
        RequestSpec spec = dev.kneepoint.workload.ToolUse.builtin().choice("get_weather")
                .applyTo(i -> RequestSpec.of("weather?", 8)).next(0);
        TargetConfig.Builder b = TargetConfig.builder().baseUrl("http://localhost:1/v1").model("m");
        JsonNode responses = OpenAiChunkDecoder.MAPPER.readTree(RequestBodies.body(b.api("responses").build(), spec));
        assertThat(responses.get("tools")).hasSize(4);
        assertThat(responses.get("tools").get(0).has("function")).isFalse();
        assertThat(responses.get("tools").findValuesAsText("name")).contains("get_weather");
        assertThat(responses.get("tools").get(0).has("parameters")).isTrue();
        assertThat(responses.get("tool_choice")).isEqualTo(json("{\"type\":\"function\",\"name\":\"get_weather\"}"));
        JsonNode messages = OpenAiChunkDecoder.MAPPER.readTree(RequestBodies.body(b.api("messages").build(), spec));
        assertThat(messages.get("tools").get(0).has("input_schema")).isTrue();
        assertThat(messages.get("tools").get(0).has("type")).isFalse();
        assertThat(messages.get("tool_choice")).isEqualTo(json("{\"type\":\"tool\",\"name\":\"get_weather\"}"));
        RequestSpec required = dev.kneepoint.workload.ToolUse.builtin().choice("required")
                .applyTo(i -> RequestSpec.of("weather?", 8)).next(0);
        assertThat(OpenAiChunkDecoder.MAPPER.readTree(RequestBodies.body(b.api("messages").build(), required))
                .get("tool_choice")).isEqualTo(json("{\"type\":\"any\"}"));
    }

    private static JsonNode json(String text) throws Exception {
        return OpenAiChunkDecoder.MAPPER.readTree(text);
    }

    @Test
    void endpointsAndUserExtras() throws Exception {
        TargetConfig t = TargetConfig.builder().baseUrl("http://h:11434/v1/").model("m").api("ollama-chat")
                .extraBody("keep_alive", "5m").build();
        assertThat(t.endpoint().toString()).isEqualTo("http://h:11434/api/chat");
        assertThat(OpenAiChunkDecoder.MAPPER.readTree(RequestBodies.body(t, SPEC)).get("keep_alive").asText())
                .isEqualTo("5m");
        assertThat(TargetConfig.builder().baseUrl("http://h:8080").model("m").api("tgi").build().endpoint().toString())
                .isEqualTo("http://h:8080/generate_stream");
    }

    @Test
    void unknownApiNamesListTheValidOnes() {
        assertThatThrownBy(() -> TargetConfig.builder().baseUrl("http://h").model("m").api("vllm-native").build())
                .hasMessageContaining("unknown API 'vllm-native'")
                .hasMessageContaining("chat, completions, tgi, ollama-generate, ollama-chat, llamacpp, sglang, responses, "
                        + "messages");
        assertThatThrownBy(() -> TargetConfig.builder().baseUrl("http://h").model("m").api(ApiKind.TGI_GENERATE_STREAM)
                .stream(false).build()).hasMessageContaining("always streams");
        assertThat(ApiKind.parse("OLLAMA_CHAT")).isEqualTo(ApiKind.OLLAMA_CHAT);
        assertThat(ApiKind.parse(" Llamacpp ")).isEqualTo(ApiKind.LLAMACPP_COMPLETION);
        assertThat(ApiKind.parse("tgi-generate-stream")).isEqualTo(ApiKind.TGI_GENERATE_STREAM);
    }
}
