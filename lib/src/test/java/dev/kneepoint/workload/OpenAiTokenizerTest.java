package dev.kneepoint.workload;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import dev.kneepoint.request.RequestSpec;
import java.util.List;
import org.junit.jupiter.api.Test;

class OpenAiTokenizerTest {
    @Test
    void countsWithTheModelsEncoding() {
        TokenCounter gpt4 = TokenCounter.openAi("gpt-4");
        // cl100k_base: "hello world" is two tokens, " world" one; figures from OpenAI's tokenizer.
        assertThat(gpt4.count("hello world")).isEqualTo(2);
        assertThat(gpt4.count("")).isZero();
        assertThat(gpt4.exact()).isTrue();
        assertThat(gpt4.describe()).contains("cl100k_base");
        assertThat(TokenCounter.openAi("o200k_base").describe()).contains("o200k_base");
    }

    @Test
    void chatAddsOpenAisMessageFraming() {
        TokenCounter t = TokenCounter.openAi("cl100k_base");
        List<RequestSpec.ChatMessage> msgs = List.of(new RequestSpec.ChatMessage("system", "be brief"),
                new RequestSpec.ChatMessage("user", "hello world"));
        // 3 per message + role + content, plus 3 priming: 3+1+2 + 3+1+2 + 3 = 15.
        assertThat(t.countChat(msgs)).isEqualTo(3 + t.count("system") + t.count("be brief")
                + 3 + t.count("user") + t.count("hello world") + 3);
        assertThat(t.countChat(msgs)).isEqualTo(15);
    }

    @Test
    void calibratesPromptsToExactLengths() {
        TokenCounter t = TokenCounter.openAi("gpt-4o");
        PromptCalibrator c = PromptCalibrator.measure(t);
        assertThat(c.exact()).isTrue();
        for (int n : new int[] {10, 137, 1000}) {
            PromptCalibrator.Text text = c.text(new java.util.SplittableRandom(n), n);
            assertThat(text.tokens()).isEqualTo(n);
            assertThat(t.count(text.text())).as("tokens of a %d-token text", n).isEqualTo(n);
        }
    }

    @Test
    void unknownNamesListTheKnownEncodings() {
        assertThatThrownBy(() -> TokenCounter.openAi("llama-7b")).hasMessageContaining("llama-7b")
                .hasMessageContaining("cl100k_base");
    }
}
