package dev.kneepoint.sweep;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import dev.kneepoint.Kneepoint;
import dev.kneepoint.client.ApiKind;
import dev.kneepoint.client.TargetConfig;
import org.junit.jupiter.api.Test;

/** {@code Sweep.api(...)} overrides the target's API; a bad name is one of the sweep's listed problems. */
class SweepApiTest {
    private static final TargetConfig TARGET = Kneepoint.target("http://127.0.0.1:9", "m");

    @Test
    void apiByNameOrKindReplacesTheEndpoint() {
        TargetConfig s = Kneepoint.sweep(TARGET).concurrency(1).api("ollama-chat").validate().target();
        assertThat(s.apiKind()).isEqualTo(ApiKind.OLLAMA_CHAT);
        assertThat(s.endpoint().encodedPath()).isEqualTo("/api/chat");
        TargetConfig t = Kneepoint.sweep(TARGET).concurrency(1).api(ApiKind.TGI_GENERATE_STREAM).validate().target();
        assertThat(t.endpoint().encodedPath()).isEqualTo("/generate_stream");
        assertThat(t.describe().get("api")).isEqualTo("tgi_generate_stream");
        assertThat(t.model()).isEqualTo("m");
    }

    @Test
    void facadeTargetTakesTheApiByName() {
        assertThat(Kneepoint.target("http://h:8080", "m", "llamacpp").endpoint().toString())
                .isEqualTo("http://h:8080/completion");
        assertThatThrownBy(() -> Kneepoint.target("http://h:8080", "m", "nope"))
                .hasMessageContaining("valid values: chat, completions");
    }

    @Test
    void unknownApiIsListedWithTheOtherProblems() {
        assertThatThrownBy(() -> Kneepoint.sweep(TARGET).concurrency(0).api("vllm2").prepare())
                .hasMessageContaining("2 problems")
                .hasMessageContaining("unknown API 'vllm2'; valid values: chat, completions, tgi")
                .hasMessageContaining("concurrency must be >= 1");
    }
}
