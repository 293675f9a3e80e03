package dev.kneepoint.scenario;

import static org.assertj.core.api.Assertions.assertThat;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import dev.kneepoint.client.ApiKind;
import dev.kneepoint.client.TargetConfig;
import dev.kneepoint.workload.Calibration;
import java.io.IOException;
import java.util.List;
import java.util.concurrent.CopyOnWriteArrayList;
import mockwebserver3.Dispatcher;
import mockwebserver3.MockResponse;
import mockwebserver3.MockWebServer;
import mockwebserver3.RecordedRequest;
import org.junit.jupiter.api.Test;

/**
 * Calibration against Ollama, which has no {@code /tokenize}: counted through {@code prompt_eval_count}, for
 * the native APIs directly and for an OpenAI-style target after {@code /tokenize} fails; a server that is
 * neither gives the flagged estimate with both reasons.
 */
class CalibrationOllamaTest {
    private static final ObjectMapper JSON = new ObjectMapper();
    /** The scripted template: 10 tokens around the text, one token per word (a tokenizer exact for these words). */
    private static final int TEMPLATE = 10;

    /** A scripted Ollama: 404 on /tokenize (gin's plain text, as the real one), prompt_eval_count on the API. */
    private static Dispatcher ollama(List<String> paths) {
        return new Dispatcher() {
            @Override
            public MockResponse dispatch(RecordedRequest r) {
                String path = r.getUrl().encodedPath();
                paths.add(path);
                if (!path.equals("/api/generate") && !path.equals("/api/chat")) {
                    return new MockResponse.Builder().code(404).body("404 page not found").build();
                }
                try {
                    JsonNode body = JSON.readTree(r.getBody().utf8());
                    String text = body.has("prompt") ? body.get("prompt").asText()
                            : body.path("messages").path(0).path("content").asText();
                    int words = text.isEmpty() ? 0 : text.split(" ").length;
                    return new MockResponse.Builder().body("{\"done\":true,\"done_reason\":\"length\",\"prompt_eval_count\":"
                            + (TEMPLATE + words) + ",\"eval_count\":1}").build();
                } catch (IOException e) {
                    return new MockResponse.Builder().code(500).body(e.toString()).build();
                }
            }
        };
    }

    @Test
    void ollamaTargetsCountWithPromptEvalCountAndNeverAskForTokenize() throws Exception {
        List<String> paths = new CopyOnWriteArrayList<>();
        try (MockWebServer server = new MockWebServer()) {
            server.setDispatcher(ollama(paths));
            server.start();
            TargetConfig t = TargetConfig.builder().baseUrl(server.url("/").toString()).model("m")
                    .api(ApiKind.OLLAMA_CHAT).build();
            Calibration cal = Calibration.of(t);
            assertThat(cal.exact()).as(cal.description()).isTrue();
            assertThat(cal.description()).startsWith("exact: ollama:");
            assertThat(cal.calibrator().promptOverhead()).isEqualTo(TEMPLATE);
            assertThat(cal.calibrator().chatOverhead(List.of("user"))).isEqualTo(TEMPLATE);
            assertThat(paths).doesNotContain("/tokenize").contains("/api/generate", "/api/chat");
        }
    }

    @Test
    void openAiTargetAtOllamaFallsBackToPromptEvalCount() throws Exception {
        List<String> paths = new CopyOnWriteArrayList<>();
        try (MockWebServer server = new MockWebServer()) {
            server.setDispatcher(ollama(paths));
            server.start();
            TargetConfig t = TargetConfig.builder().baseUrl(server.url("/v1").toString()).model("m").build();
            Calibration cal = Calibration.of(t);
            assertThat(cal.exact()).as(cal.description()).isTrue();
            assertThat(cal.description()).contains("ollama:").contains("(no /tokenize)");
            assertThat(cal.calibrator().promptOverhead()).isEqualTo(TEMPLATE);
            assertThat(paths.get(0)).isEqualTo("/tokenize");
        }
    }

    @Test
    void neitherTokenizeNorOllamaGivesTheFlaggedEstimateWithBothReasons() throws Exception {
        try (MockWebServer server = new MockWebServer()) {
            server.setDispatcher(new Dispatcher() {
                @Override
                public MockResponse dispatch(RecordedRequest r) {
                    return new MockResponse.Builder().code(404).body("no such route").build();
                }
            });
            server.start();
            TargetConfig t = TargetConfig.builder().baseUrl(server.url("/v1").toString()).model("m").build();
            Calibration cal = Calibration.of(t);
            assertThat(cal.exact()).isFalse();
            assertThat(cal.description()).startsWith("ESTIMATE").contains("/tokenize failed")
                    .contains("not an Ollama server either").contains("/api/generate answered HTTP 404");
        }
    }
}
