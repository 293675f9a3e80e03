package dev.kneepoint.real;

import static org.assertj.core.api.Assertions.assertThat;

import dev.kneepoint.metrics.Outcome;
import dev.kneepoint.metrics.RequestRecord;
import dev.kneepoint.metrics.TokenSource;

/** {@link LlamaServerTest}'s checks of one streamed record, on llama-server and on its fallback llama_cpp.server. */
final class LlamaRecords {
    private LlamaRecords() {
    }

    /**
     * What every streamed request with {@code ignore_eos} (or, on the fallback, the end-token bias) and
     * {@code max_tokens = maxTokens} must satisfy on llama-server, or on the fallback when {@code fallback}.
     */
    static void assertStreamedOk(RequestRecord r, int maxTokens, boolean fallback) {
        assertThat(r.outcome()).as("outcome of %s", r).isEqualTo(Outcome.OK);
        if (fallback) {
            assertFallbackStreamedOk(r, maxTokens);
            return;
        }
        assertThat(r.tokens().tokenSource()).isEqualTo(TokenSource.SERVER_USAGE);
        // ignore_eos + max_tokens: the server must stop at exactly the budget, by length.
        assertThat(r.tokens().outputTokens()).isEqualTo(maxTokens);
        assertThat(r.response().finishReason()).isEqualTo("length");
        assertThat(r.tokens().promptTokens()).isPositive();
        assertThat(r.timing().chunkNanos().length).as("one SSE event per token on llama.cpp").isEqualTo(maxTokens);
        assertThat(r.ttftNanos()).isPositive();
        assertThat(r.tpotNanos()).isPositive();
        // llama.cpp's own counts, sent in the final chunk's timings, agree with its usage block.
        assertThat(r.response().serverTimings()).containsKeys("prompt_n", "prompt_ms", "predicted_n", "predicted_ms",
                "predicted_per_token_ms");
        assertThat(r.response().serverTimings().get("predicted_n")).isEqualTo((double) maxTokens);
        // --no-cache-prompt: the whole prompt is prefilled for every request (honest TTFT).
        assertThat(r.response().serverTimings().get("prompt_n")).isEqualTo((double) r.tokens().promptTokens());
    }

    /**
     * llama_cpp.server streams one event per token but sends no usage and no timings: Kneepoint counts
     * events (token source {@code events}, METRICS.md's last resort). Exact: the end tokens are biased away
     * and llama_cpp.server emits each sampled token as its own event (it only holds text back while it could be
     * the start of a stop string or an incomplete UTF-8 sequence, which these English outputs do not produce).
     */
    private static void assertFallbackStreamedOk(RequestRecord r, int maxTokens) {
        assertThat(r.tokens().tokenSource()).as("no usage in llama_cpp.server streams").isEqualTo(TokenSource.EVENTS);
        assertThat(r.response().serverTimings()).as("no llama.cpp timings in llama_cpp.server streams").isNullOrEmpty();
        assertThat(r.tokens().outputTokens()).isEqualTo(maxTokens);
        assertThat(r.timing().chunkNanos().length).as("one SSE event per token").isEqualTo(maxTokens);
        assertThat(r.response().finishReason()).isEqualTo("length");
        assertThat(r.ttftNanos()).isPositive();
        assertThat(r.tpotNanos()).isPositive();
    }
}
