package dev.kneepoint.workload;

import static org.assertj.core.api.Assertions.assertThat;

import dev.kneepoint.client.TargetConfig;
import java.nio.file.Files;
import java.nio.file.Path;
import mockwebserver3.MockResponse;
import mockwebserver3.MockWebServer;
import mockwebserver3.RecordedRequest;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** Calibration's {@code /tokenize} calls carry the target's API key and extra headers, like its requests. */
class ServerTokenizerCredentialsTest {
    @Test
    void tokenizeSendsTheTargetsKeyAndHeaders(@TempDir Path dir) throws Exception {
        Path keyFile = Files.writeString(dir.resolve("key"), "sk-tokenize-test\n");
        try (MockWebServer server = new MockWebServer()) {
            server.enqueue(new MockResponse.Builder().body("{\"count\": 3}").build());
            server.start();
            TargetConfig t = TargetConfig.builder().baseUrl(server.url("/v1").toString()).model("m")
                    .apiKeyFromFile(keyFile).header("X-Tenant", "t1").build();
            assertThat(TokenCounter.server(t).count("a b c")).isEqualTo(3);
            RecordedRequest r = server.takeRequest();
            assertThat(r.getUrl().encodedPath()).isEqualTo("/tokenize");
            assertThat(r.getHeaders().get("Authorization")).isEqualTo("Bearer sk-tokenize-test");
            assertThat(r.getHeaders().get("X-Tenant")).isEqualTo("t1");
        }
    }
}
