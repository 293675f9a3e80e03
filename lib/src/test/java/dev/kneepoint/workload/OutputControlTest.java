package dev.kneepoint.workload;

import static org.assertj.core.api.Assertions.assertThat;

import dev.kneepoint.metrics.Outcome;
import dev.kneepoint.metrics.RequestRecord;
import dev.kneepoint.metrics.TokenSource;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;

class OutputControlTest {
    @Test
    void fieldsPerServerKind() {
        assertThat(OutputControl.exact(OutputControl.Server.VLLM).fields(100))
                .isEqualTo(new OutputControl.Fields(100, Map.of("ignore_eos", true, "min_tokens", 100)));
        assertThat(OutputControl.exact(OutputControl.Server.LLAMA_CPP).fields(50))
                .isEqualTo(new OutputControl.Fields(50, Map.of("ignore_eos", true, "n_predict", 50)));
        assertThat(OutputControl.exact(OutputControl.Server.OPENAI).fields(50))
                .isEqualTo(new OutputControl.Fields(-1, Map.of("max_completion_tokens", 50)));
        assertThat(OutputControl.upTo(OutputControl.Server.SGLANG).fields(9)).isEqualTo(new OutputControl.Fields(9, Map.of()));
        assertThat(OutputControl.exact(OutputControl.Server.OPENAI).canForceLength()).isFalse();
    }

    private static RequestRecord rec(int requestedOut, int out, int requestedIn, int in, TokenSource src) {
        RequestRecord.Builder b = new RequestRecord.Builder();
        b.requestedOutputTokens = requestedOut;
        b.outputTokens = out;
        b.requestedPromptTokens = requestedIn;
        b.promptTokens = in;
        b.tokenSource = src;
        b.outcome = Outcome.OK;
        b.finishReason = out < requestedOut ? "stop" : "length";
        return b.build();
    }

    @Test
    void lengthCheckWarnsWhenTheServerIgnoredTheRequest() {
        LengthCheck good = LengthCheck.of(List.of(rec(10, 10, 50, 50, TokenSource.SERVER_USAGE),
                rec(20, 20, 60, 60, TokenSource.SERVER_USAGE)), true);
        assertThat(good.ok()).isTrue();
        assertThat(good.outputExact()).isEqualTo(2);
        assertThat(good.promptExact()).isEqualTo(2);

        LengthCheck bad = LengthCheck.of(List.of(rec(10, 4, 50, 53, TokenSource.SERVER_USAGE),
                rec(10, 12, 50, 50, TokenSource.SERVER_USAGE), rec(10, 10, 50, 50, TokenSource.EVENTS)), true);
        assertThat(bad.outputShorter()).isEqualTo(1);
        assertThat(bad.outputLonger()).isEqualTo(1);
        assertThat(bad.promptMaxAbsError()).isEqualTo(3);
        assertThat(bad.warnings()).hasSize(4);
        assertThat(bad.warnings().get(0)).contains("1 of 3").contains("ignore_eos");
        // not forced: stopping early is normal
        assertThat(LengthCheck.of(List.of(rec(10, 4, -1, 30, TokenSource.SERVER_USAGE)), false).ok()).isTrue();
    }
}
