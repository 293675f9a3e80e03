package dev.kneepoint.client;

import com.fasterxml.jackson.databind.JsonNode;
import java.util.LinkedHashMap;
import java.util.Map;

/**
 * Ollama {@code /api/generate} and {@code /api/chat}: one JSON object per NDJSON line with the new
 * text in {@code response} (generate) or {@code message.content} (chat), reasoning in
 * {@code thinking} (generate) or {@code message.thinking} (chat), and a last line with
 * {@code done:true}, {@code done_reason}, {@code prompt_eval_count}, {@code eval_count} and the
 * {@code *_duration} phase times in nanoseconds. Errors arrive as {@code {"error":"..."}}.
 *
 * <p>Server timings kept (milliseconds, counts as is): {@code total_ms}, {@code load_ms},
 * {@code prompt_eval_ms}, {@code eval_ms}, {@code prompt_eval_count}, {@code eval_count}.
 * {@code eval_count} is the server total the per-line counts are scaled to.
 *
 * <p>Per-line counts (checked against Ollama 0.17.4): a line carries one token, except that Ollama holds
 * back the bytes of an incomplete UTF-8 character (a CJK or Cyrillic letter is often 2-3 byte-level
 * tokens) and sends them with the token that completes it, so a line can carry several tokens; and
 * {@code eval_count} also counts the end-of-sequence token, which gets no line. Without more, each line
 * counts one and the total is spread by largest remainder. When the request asks for
 * {@code "logprobs": true}, every line has a {@code logprobs} array with one entry per token it
 * carries: their running sum is then the exact cumulative count (like vLLM's continuous usage).
 */
final class OllamaDecoder extends NativeDecoder {
    private static final double NS_TO_MS = 1e-6;
    /** Tokens counted from the {@code logprobs} arrays so far; -1 until a line had one. */
    private int logprobTokens = -1;

    OllamaDecoder() {
        super(false);
    }

    @Override
    StreamPayload decodeObject(JsonNode n) {
        JsonNode message = n.path("message"); // /api/chat's; reads as empty on /api/generate
        String content = NativeJson.text(n, "response") + NativeJson.text(message, "content");
        String reasoning = NativeJson.text(n, "thinking") + NativeJson.text(message, "thinking");
        String role = message.hasNonNull("role") ? message.get("role").asText() : null;
        JsonNode logprobs = n.get("logprobs");
        boolean counted = logprobs != null && logprobs.isArray();
        if (counted) {
            logprobTokens = Math.max(0, logprobTokens) + logprobs.size();
        }
        if (!n.path("done").asBoolean(false)) {
            return new StreamPayload.Chunk(content, reasoning, role, null, 1, -1, counted ? logprobTokens : -1, -1,
                    Map.of());
        }
        String reason = NativeJson.text(n, "done_reason");
        Map<String, Double> timings = new LinkedHashMap<>();
        NativeJson.number(timings, n, "total_duration", "total_ms", NS_TO_MS);
        NativeJson.number(timings, n, "load_duration", "load_ms", NS_TO_MS);
        NativeJson.number(timings, n, "prompt_eval_duration", "prompt_eval_ms", NS_TO_MS);
        NativeJson.number(timings, n, "eval_duration", "eval_ms", NS_TO_MS);
        NativeJson.number(timings, n, "prompt_eval_count", "prompt_eval_count", 1);
        NativeJson.number(timings, n, "eval_count", "eval_count", 1);
        return ending(new StreamPayload.Chunk(content, reasoning, role, reason.isEmpty() ? "stop" : reason, 0,
                NativeJson.integer(n, "prompt_eval_count"), NativeJson.integer(n, "eval_count"), -1, timings));
    }
}
