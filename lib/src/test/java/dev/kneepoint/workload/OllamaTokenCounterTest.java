package dev.kneepoint.workload;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import dev.kneepoint.client.ApiKind;
import dev.kneepoint.client.TargetConfig;
import dev.kneepoint.request.RequestSpec;
import java.io.IOException;
import java.io.InputStream;
import java.nio.charset.StandardCharsets;
import java.util.List;
import java.util.Map;
import mockwebserver3.MockResponse;
import mockwebserver3.MockWebServer;
import mockwebserver3.RecordedRequest;
import org.junit.jupiter.api.Test;

/**
 * Ollama prompt counting without a server: the requests it sends and how it reads the real non-streamed
 * answers recorded from Ollama 0.17.4 (fixtures/ollama/real-*-nostream.json).
 */
class OllamaTokenCounterTest {
    private static final ObjectMapper JSON = new ObjectMapper();

    private static String fixture(String name) throws IOException {
        try (InputStream in = OllamaTokenCounterTest.class.getResourceAsStream("/fixtures/ollama/" + name)) {
            return new String(in.readAllBytes(), StandardCharsets.UTF_8);
        }
    }

    @Test
    void anEmbedTargetCountsItsTextsAsApiEmbedEmbedsThem() throws Exception {
        // /api/embed applies no chat template: /api/generate's count of the same text is larger by the template's
        String embed = fixture("real-embed.json");
        try (MockWebServer server = new MockWebServer()) {
            server.enqueue(new MockResponse.Builder().body(embed).build());
            server.start();
            TargetConfig t = TargetConfig.builder().baseUrl(server.url("/").toString()).model("smollm2-135m")
                    .api(ApiKind.OLLAMA_EMBED).build();
            TokenCounter c = TokenCounter.ollama(t);
            assertThat(c.count("alpha beta")).isEqualTo(JSON.readTree(embed).get("prompt_eval_count").asInt());
            assertThat(c.describe()).contains("/api/embed");
            RecordedRequest r = server.takeRequest();
            assertThat(r.getUrl().encodedPath()).isEqualTo("/api/embed");
            JsonNode b = JSON.readTree(r.getBody().utf8());
            assertThat(b.get("input").asText()).isEqualTo("alpha beta");
            assertThat(b.has("prompt") || b.has("options")).isFalse();
        }
    }

    @Test
    void countsArePromptEvalCountOfOneTokenRequests() throws Exception {
        String generate = fixture("real-generate-nostream.json");
        String chat = fixture("real-chat-nostream.json");
        int generateCount = JSON.readTree(generate).get("prompt_eval_count").asInt();
        int chatCount = JSON.readTree(chat).get("prompt_eval_count").asInt();
        try (MockWebServer server = new MockWebServer()) {
            server.enqueue(new MockResponse.Builder().body(generate).build());
            server.enqueue(new MockResponse.Builder().body(chat).build());
            server.start();
            TargetConfig t = TargetConfig.builder().baseUrl(server.url("/").toString()).model("smollm2-135m")
                    .api(ApiKind.OLLAMA_GENERATE).extraBody("system", "Be brief.")
                    .extraBody("options", Map.of("temperature", 0)).build();
            TokenCounter c = TokenCounter.server(t);
            assertThat(c.exact()).isTrue();
            assertThat(c.describe()).startsWith("ollama:");
            assertThat(c.count("Name three colours.")).isEqualTo(generateCount);
            assertThat(c.countChat(List.of(new RequestSpec.ChatMessage("user", "Name three colours."))))
                    .isEqualTo(chatCount);

            RecordedRequest g = server.takeRequest();
            assertThat(g.getUrl().encodedPath()).isEqualTo("/api/generate");
            JsonNode gb = JSON.readTree(g.getBody().utf8());
            assertThat(gb.get("model").asText()).isEqualTo("smollm2-135m");
            assertThat(gb.get("prompt").asText()).isEqualTo("Name three colours.");
            assertThat(gb.get("stream").asBoolean(true)).isFalse();
            // one output token (0 would mean "unlimited" to Ollama); the target's options and fields ride along
            assertThat(gb.path("options").path("num_predict").asInt()).isEqualTo(1);
            assertThat(gb.path("options").path("temperature").asInt(-1)).isZero();
            assertThat(gb.get("system").asText()).isEqualTo("Be brief.");

            RecordedRequest ch = server.takeRequest();
            assertThat(ch.getUrl().encodedPath()).isEqualTo("/api/chat");
            JsonNode cb = JSON.readTree(ch.getBody().utf8());
            assertThat(cb.path("messages").path(0).path("content").asText()).isEqualTo("Name three colours.");
            assertThat(cb.has("prompt")).isFalse();
        }
    }

    @Test
    void anUnknownModelOrANonOllamaServerIsAClearError() throws Exception {
        try (MockWebServer server = new MockWebServer()) {
            server.enqueue(new MockResponse.Builder().code(404).body(fixture("real-error-unknown-model.json")).build());
            server.enqueue(new MockResponse.Builder().body("{\"text\":\"not ollama\"}").build());
            server.start();
            TargetConfig t = TargetConfig.builder().baseUrl(server.url("/v1").toString()).model("no-such-model")
                    .api(ApiKind.CHAT).build();
            TokenCounter c = TokenCounter.ollama(t);
            assertThatThrownBy(() -> c.count("x")).isInstanceOf(TokenizerException.class)
                    .hasMessageContaining("HTTP 404").hasMessageContaining("no-such-model");
            assertThatThrownBy(() -> c.count("x")).isInstanceOf(TokenizerException.class)
                    .hasMessageContaining("without prompt_eval_count");
            // the /v1 suffix of an OpenAI-style base URL is dropped
            assertThat(server.takeRequest().getUrl().encodedPath()).isEqualTo("/api/generate");
        }
    }
}
