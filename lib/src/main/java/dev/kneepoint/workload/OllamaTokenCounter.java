package dev.kneepoint.workload;

import com.fasterxml.jackson.databind.JsonNode;
import dev.kneepoint.request.RequestSpec;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;
import okhttp3.HttpUrl;
import okhttp3.OkHttpClient;

/**
 * Counts prompt tokens on an Ollama server, which has no {@code /tokenize}: each count is one
 * non-streamed request of one output token ({@code options.num_predict: 1}) whose
 * {@code prompt_eval_count} is the prompt's length as the server tokenized it, chat template and
 * special tokens included. {@link #count} asks {@code POST /api/generate} (the prompt as the
 * {@code ollama-generate} API sends it), {@link #countChat} {@code POST /api/chat}. Exact, at the cost
 * of a prefill per call (Ollama's prompt cache makes repeated prefixes cheap;
 * {@code prompt_eval_count} counts the whole prompt, cached part included). The target's extra body
 * fields ride along, because fields such as {@code system}, {@code template} or {@code raw} change
 * what the template adds. A prompt longer than the model's context is truncated by Ollama and counted
 * as truncated.
 */
final class OllamaTokenCounter extends RemoteTokenCounter {
    /** Fields the counter sets itself; the rest of the target's extra body is merged in. */
    private static final Set<String> OWN = Set.of("model", "prompt", "messages", "stream", "options");

    private final Map<String, Object> extraBody;
    /** Count texts as {@code /api/embed} embeds them (no template), not as {@code /api/generate} prompts. */
    private final boolean embed;

    OllamaTokenCounter(HttpUrl baseUrl, String model, Map<String, Object> extraBody, OkHttpClient http, boolean embed) {
        super(baseUrl, model, http);
        this.extraBody = Map.copyOf(extraBody);
        this.embed = embed;
    }

    @Override
    public int count(String text) {
        Map<String, Object> body = body();
        if (embed) {
            body.remove("options");
            body.put("input", text);
            return promptEvalCount("api/embed", body);
        }
        body.put("prompt", text);
        return promptEvalCount("api/generate", body);
    }

    @Override
    public int countChat(List<RequestSpec.ChatMessage> messages) {
        Map<String, Object> body = body();
        body.put("messages", wireMessages(messages));
        return promptEvalCount("api/chat", body);
    }

    private Map<String, Object> body() {
        Map<String, Object> body = new LinkedHashMap<>();
        body.put("model", model);
        extraBody.forEach((k, v) -> {
            if (!OWN.contains(k)) {
                body.put(k, v);
            }
        });
        Map<String, Object> options = new LinkedHashMap<>();
        if (extraBody.get("options") instanceof Map<?, ?> given) {
            given.forEach((k, v) -> options.put(String.valueOf(k), v));
        }
        options.put("num_predict", 1); // 0 would mean "no limit" to Ollama
        body.put("options", options);
        body.put("stream", false);
        return body;
    }

    private int promptEvalCount(String endpoint, Map<String, Object> body) {
        JsonPost.Reply r = post(endpoint, body);
        if (!r.successful()) {
            throw new TokenizerException("POST " + r.url() + " answered HTTP " + r.code() + ": " + r.snippet());
        }
        JsonNode count = r.json() == null ? null : r.json().get("prompt_eval_count");
        if (count == null || !count.canConvertToInt()) {
            throw new TokenizerException("POST " + r.url() + " answered without prompt_eval_count (not an Ollama"
                    + " server, or an empty prompt that only loads the model): " + r.snippet());
        }
        return count.asInt();
    }

    @Override
    public String describe() {
        return "ollama:" + root + (embed ? " (prompt_eval_count of /api/embed)"
                : " (prompt_eval_count of /api/generate and /api/chat with num_predict 1)");
    }
}
