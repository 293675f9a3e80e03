package dev.kneepoint.workload;

import static org.assertj.core.api.Assertions.assertThat;

import dev.kneepoint.request.RequestSpec;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;

class RequestedOutputTokensTest {
    @Test
    void maxTokensFirstThenTheOutputBudgetFieldsOfOtherApis() {
        assertThat(RequestSpec.of("p", 64).requestedOutputTokens()).isEqualTo(64);
        assertThat(spec(Map.of("max_completion_tokens", 128)).requestedOutputTokens()).isEqualTo(128);
        assertThat(spec(Map.of("n_predict", 32)).requestedOutputTokens()).isEqualTo(32);
        assertThat(spec(Map.of("temperature", 0.5)).requestedOutputTokens()).isEqualTo(-1);
    }

    private static RequestSpec spec(Map<String, Object> extra) {
        return new RequestSpec("p", List.of(), -1, -1, extra, "t");
    }
}
