package dev.kneepoint.client;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.Map;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

class TargetConfigTest {
    private static final String SECRET = "sk-very-secret-123";

    @Test
    void defaultsAndEndpoint() {
        TargetConfig t = TargetConfig.builder().baseUrl("http://localhost:8000/v1/").model("m").build();
        assertThat(t.endpoint().toString()).isEqualTo("http://localhost:8000/v1/chat/completions");
        assertThat(t.stream()).isTrue();
        assertThat(t.connectTimeout()).isEqualTo(Duration.ofSeconds(10));
        assertThat(t.firstTokenTimeout()).isEqualTo(Duration.ofSeconds(600));
        assertThat(t.idleTimeout()).isEqualTo(Duration.ofSeconds(20));
        assertThat(t.totalTimeout()).isEqualTo(Duration.ofSeconds(1800));
        // A stall inside a step must end as TIMEOUT(idle) before the step's drain cuts it (then UNFINISHED).
        assertThat(t.idleTimeout()).isLessThan(dev.kneepoint.load.Step.DEFAULT_DRAIN_TIMEOUT);
        TargetConfig c = TargetConfig.builder().baseUrl("https://h.example/api").model("m")
                .apiKind(ApiKind.COMPLETIONS).build();
        assertThat(c.endpoint().toString()).isEqualTo("https://h.example/api/v1/completions");
    }

    @Test
    void transportAutoPicksNioForHttpOnly() {
        TargetConfig http = TargetConfig.builder().baseUrl("http://localhost:8000").model("m").build();
        assertThat(http.transport()).isEqualTo(Transport.AUTO);
        assertThat(http.usesNio()).isTrue();
        assertThat(TargetConfig.builder().baseUrl("http://localhost:8000").model("m").transport(Transport.OKHTTP)
                .build().usesNio()).isFalse();
        assertThat(http.describe()).containsEntry("transport", "auto");
        TargetConfig https = TargetConfig.builder().baseUrl("https://h.example").model("m").build();
        assertThat(https.usesNio()).isFalse();
        assertThat(TargetConfig.builder().baseUrl("http://localhost:8000").model("m").transport(Transport.OKHTTP)
                .build().usesNio()).isFalse();
        assertThatThrownBy(() -> TargetConfig.builder().baseUrl("https://h.example").model(" ")
                .transport(Transport.NIO).build())
                .hasMessageContaining("2 problems")
                .hasMessageContaining("transport NIO serves only plain http:// URLs")
                .hasMessageContaining("use transport AUTO or OKHTTP");
    }

    @Test
    void allProblemsReportedAtOnce() {
        assertThatThrownBy(() -> TargetConfig.builder().baseUrl("localhost:8000 nope").model(" ")
                .idleTimeout(Duration.ZERO).totalTimeout(Duration.ofSeconds(-1)).apiKeyFromEnv("KP_NOT_SET_VAR")
                .environment(k -> null).build())
                .isInstanceOf(IllegalArgumentException.class)
                .hasMessageContaining("5 problems")
                .hasMessageContaining("baseUrl 'localhost:8000 nope' is not a valid")
                .hasMessageContaining("model is required")
                .hasMessageContaining("idleTimeout must be a positive")
                .hasMessageContaining("totalTimeout must be a positive")
                .hasMessageContaining("'KP_NOT_SET_VAR' is not set");
    }

    @Test
    void keyFromEnvironmentNeverShown() {
        TargetConfig t = TargetConfig.builder().baseUrl("http://u:pw@localhost:1").model("m")
                .apiKeyFromEnv("KP_KEY").environment(k -> k.equals("KP_KEY") ? SECRET : null)
                .header("X-Api-Key", SECRET).header("X-Trace", "visible").build();
        assertThat(t.hasApiKey()).isTrue();
        assertThat(t.apiKey()).isEqualTo(SECRET);
        assertThat(t.toString()).doesNotContain(SECRET).doesNotContain("pw").contains("env:KP_KEY");
        Map<String, Object> d = t.describe();
        assertThat(d.toString()).doesNotContain(SECRET).contains("visible").contains("<redacted>");
        assertThat(d.get("api_key")).isEqualTo("env:KP_KEY");
    }

    @Test
    void keyFromFileAndErrorsWithoutTheKey(@TempDir Path dir) throws Exception {
        Path f = dir.resolve("key.txt");
        Files.writeString(f, "  " + SECRET + "\nsecond line\n");
        TargetConfig t = TargetConfig.builder().baseUrl("http://localhost:1").model("m").apiKeyFromFile(f).build();
        assertThat(t.apiKey()).isEqualTo(SECRET);
        assertThat(t.describe().get("api_key")).isEqualTo("file:" + f);
        assertThatThrownBy(() -> TargetConfig.builder().baseUrl("http://localhost:1").model("m")
                .apiKeyFromFile(dir.resolve("missing")).build())
                .hasMessageContaining("cannot be read");
        assertThatThrownBy(() -> TargetConfig.builder().baseUrl("http://localhost:1").model("m")
                .apiKeyFromFile(f).apiKeyFromEnv("X").environment(k -> SECRET).build())
                .hasMessageContaining("not both").message().doesNotContain(SECRET);
    }

    @Test
    void tlsOptionsAreValidatedAndDescribed(@TempDir Path dir) throws Exception {
        TargetConfig plain = TargetConfig.builder().baseUrl("https://h.example").model("m").build();
        assertThat(plain.describe().get("tls")).isEqualTo("system");
        assertThat(plain.insecureSkipTlsVerify()).isFalse();
        assertThat(plain.trustCertificate()).isNull();
        TargetConfig insecure = TargetConfig.builder().baseUrl("https://h.example").model("m")
                .insecureSkipTlsVerify(true).build();
        assertThat(insecure.describe().get("tls")).isEqualTo("insecure-skip-verify");
        TargetConfig trusted = TargetConfig.builder().baseUrl("https://localhost").model("m")
                .trustCertificate(TlsFixture.get().pem).build();
        assertThat(trusted.describe().get("tls")).isEqualTo("trust:" + TlsFixture.get().pem);
        assertThat(trusted.trustedCertificates()).hasSize(1);
        // switching the API kind keeps the TLS settings (they were lost once in a merge)
        TargetConfig trustedTgi = trusted.withApiKind(ApiKind.TGI_GENERATE_STREAM);
        assertThat(trustedTgi.trustedCertificates()).hasSize(1);
        assertThat(trustedTgi.describe().get("tls")).isEqualTo("trust:" + TlsFixture.get().pem);
        assertThat(insecure.withApiKind(ApiKind.OLLAMA_CHAT).insecureSkipTlsVerify()).isTrue();
        Path notPem = Files.writeString(dir.resolve("not.pem"), "hello");
        assertThatThrownBy(() -> TargetConfig.builder().baseUrl("https://h.example").model("m")
                .trustCertificate(notPem).build())
                .hasMessageContaining("certificate file '" + notPem + "' cannot be read as PEM or DER X.509");
        assertThatThrownBy(() -> TargetConfig.builder().baseUrl("https://h.example").model("m")
                .trustCertificate(TlsFixture.get().pem).insecureSkipTlsVerify(true).build())
                .hasMessageContaining("either trustCertificate or insecureSkipTlsVerify, not both");
    }
}
