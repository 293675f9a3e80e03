package dev.kneepoint.client;

import static org.assertj.core.api.Assertions.assertThat;

import dev.kneepoint.workload.RequestSpec;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;

class RequestedOutputTokensTest {
    @Test
    void maxTokensFirstThenTheOutputBudgetFieldsOfOtherApis() {
        assertThat(OpenAiClient.requestedOutputTokens(RequestSpec.of("p", 64))).isEqualTo(64);
        assertThat(OpenAiClient.requestedOutputTokens(
                new RequestSpec("p", List.of(), -1, -1, Map.of("max_completion_tokens", 128), "t"))).isEqualTo(128);
        assertThat(OpenAiClient.requestedOutputTokens(
                new RequestSpec("p", List.of(), -1, -1, Map.of("n_predict", 32), "t"))).isEqualTo(32);
        assertThat(OpenAiClient.requestedOutputTokens(
                new RequestSpec("p", List.of(), -1, -1, Map.of("temperature", 0.5), "t"))).isEqualTo(-1);
    }
}
