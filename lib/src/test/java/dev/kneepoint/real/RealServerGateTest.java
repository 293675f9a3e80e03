package dev.kneepoint.real;

import static org.assertj.core.api.Assertions.assertThat;

import java.util.Map;
import org.junit.jupiter.api.Test;

/** The skip-or-fail decision and the Prometheus reader, without a server (always runs). */
class RealServerGateTest {
    private static final RealServer.Probe HEALTHY = url -> null;
    private static final RealServer.Probe DOWN = url -> "connection refused";

    @Test
    void unsetUrlSkipsWithAReasonThatSaysHowToStartOne() {
        RealServer.Gate g = RealServer.gate(Map.of(), HEALTHY);
        assertThat(g).isInstanceOf(RealServer.Gate.Skip.class);
        assertThat(((RealServer.Gate.Skip) g).reason()).contains("KNEEPOINT_LLAMA_URL", "kneepoint-llama start");
    }

    @Test
    void requiredButUnsetFails() {
        RealServer.Gate g = RealServer.gate(Map.of("KNEEPOINT_REQUIRE_REAL_SERVER", "1"), HEALTHY);
        assertThat(g).isInstanceOf(RealServer.Gate.Fail.class);
        assertThat(((RealServer.Gate.Fail) g).reason()).contains("KNEEPOINT_LLAMA_URL", "requires");
    }

    @Test
    void requiredButUnreachableFails() {
        RealServer.Gate g = RealServer.gate(Map.of("KNEEPOINT_LLAMA_URL", "http://127.0.0.1:1",
                "KNEEPOINT_REQUIRE_REAL_SERVER", "1"), DOWN);
        assertThat(g).isInstanceOf(RealServer.Gate.Fail.class);
        assertThat(((RealServer.Gate.Fail) g).reason()).contains("127.0.0.1:1", "connection refused");
    }

    @Test
    void unreachableWithoutRequirementSkips() {
        RealServer.Gate g = RealServer.gate(Map.of("KNEEPOINT_LLAMA_URL", "http://127.0.0.1:1"), DOWN);
        assertThat(g).isInstanceOf(RealServer.Gate.Skip.class);
    }

    @Test
    void healthyServerRunsWithTheUrlNormalised() {
        RealServer.Gate g = RealServer.gate(Map.of("KNEEPOINT_LLAMA_URL", "http://127.0.0.1:8089/v1/"), HEALTHY);
        assertThat(g).isEqualTo(new RealServer.Gate.Run("http://127.0.0.1:8089"));
    }

    @Test
    void realProbeReportsAClosedPort() {
        // Port 1 is privileged and unused on these machines: the probe must say why, not throw.
        assertThat(RealServer.probeHealth("http://127.0.0.1:1")).contains("/health");
    }

    @Test
    void ollamaGateHasItsOwnVariablesAndIsNotRequiredByTheLlamaStage() {
        RealServer.Gate unset = OllamaServer.gate(Map.of("KNEEPOINT_REQUIRE_REAL_SERVER", "1"), HEALTHY);
        assertThat(unset).isInstanceOf(RealServer.Gate.Skip.class);
        assertThat(((RealServer.Gate.Skip) unset).reason()).contains("KNEEPOINT_OLLAMA_URL", "kneepoint-ollama start");
        RealServer.Gate required = OllamaServer.gate(Map.of("KNEEPOINT_OLLAMA_URL", "http://127.0.0.1:1",
                "KNEEPOINT_REQUIRE_OLLAMA", "1"), DOWN);
        assertThat(required).isInstanceOf(RealServer.Gate.Fail.class);
        assertThat(((RealServer.Gate.Fail) required).reason()).contains("Ollama at http://127.0.0.1:1", "connection refused");
        assertThat(OllamaServer.gate(Map.of("KNEEPOINT_OLLAMA_URL", "http://127.0.0.1:11500/v1/"), HEALTHY))
                .isEqualTo(new RealServer.Gate.Run("http://127.0.0.1:11500"));
        assertThat(OllamaServer.probeVersion("http://127.0.0.1:1")).contains("/api/version");
    }

    @Test
    void promTextReadsUnlabelledAndLabelledSamples() {
        String text = """
                # HELP llamacpp:prompt_tokens_total Number of prompt tokens processed.
                # TYPE llamacpp:prompt_tokens_total counter
                llamacpp:prompt_tokens_total 1234
                llamacpp:tokens_predicted_total 5.6e2
                llamacpp:requests{state="processing"} 2 1700000000000
                broken_line
                """;
        assertThat(PromText.parse(text)).containsEntry("llamacpp:prompt_tokens_total", 1234.0)
                .containsEntry("llamacpp:tokens_predicted_total", 560.0)
                .containsEntry("llamacpp:requests{state=\"processing\"}", 2.0)
                .hasSize(3);
        assertThat(PromText.value(text, "missing")).isEmpty();
    }
}
