package dev.kneepoint.workload;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import dev.kneepoint.client.TargetConfig;
import java.io.IOException;
import java.io.InterruptedIOException;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.concurrent.atomic.AtomicLong;
import okhttp3.HttpUrl;
import okhttp3.MediaType;
import okhttp3.OkHttpClient;
import okhttp3.Request;
import okhttp3.RequestBody;
import okhttp3.Response;

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
final class OllamaTokenCounter implements TokenCounter {
    private static final ObjectMapper MAPPER = new ObjectMapper();
    private static final MediaType JSON = MediaType.get("application/json");
    /** Fields the counter sets itself; the rest of the target's extra body is merged in. */
    private static final Set<String> OWN = Set.of("model", "prompt", "messages", "stream", "options");

    private final HttpUrl root;
    private final String model;
    private final Map<String, Object> extraBody;
    private final OkHttpClient http;
    private final AtomicLong calls = new AtomicLong();

    OllamaTokenCounter(HttpUrl baseUrl, String model, Map<String, Object> extraBody, OkHttpClient http) {
        this.root = TargetConfig.serverRoot(baseUrl);
        this.model = model;
        this.extraBody = Map.copyOf(extraBody);
        this.http = http;
    }

    /** HTTP calls made so far. */
    long calls() {
        return calls.get();
    }

    @Override
    public int count(String text) {
        Map<String, Object> body = body();
        body.put("prompt", text);
        return promptEvalCount("api/generate", body);
    }

    @Override
    public int countChat(List<RequestSpec.ChatMessage> messages) {
        List<Map<String, String>> msgs = new ArrayList<>();
        for (RequestSpec.ChatMessage m : messages) {
            msgs.add(Map.of("role", m.role(), "content", m.content()));
        }
        Map<String, Object> body = body();
        body.put("messages", msgs);
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
        HttpUrl url = root.resolve(endpoint);
        calls.incrementAndGet();
        try {
            Request req = new Request.Builder().url(url)
                    .post(RequestBody.create(MAPPER.writeValueAsBytes(body), JSON)).build();
            try (Response resp = http.newCall(req).execute()) {
                String text = resp.body().string();
                if (!resp.isSuccessful()) {
                    throw new TokenizerException("POST " + url + " answered HTTP " + resp.code() + ": "
                            + (text.length() > 300 ? text.substring(0, 300) + "..." : text));
                }
                JsonNode n = MAPPER.readTree(text);
                JsonNode count = n.get("prompt_eval_count");
                if (count == null || !count.canConvertToInt()) {
                    throw new TokenizerException("POST " + url + " answered without prompt_eval_count (not an Ollama"
                            + " server, or an empty prompt that only loads the model): "
                            + (text.length() > 300 ? text.substring(0, 300) + "..." : text));
                }
                return count.asInt();
            }
        } catch (InterruptedIOException e) {
            if (!(e instanceof java.net.SocketTimeoutException)) {
                Thread.currentThread().interrupt();
            }
            throw new TokenizerException("POST " + url + " interrupted or timed out", e);
        } catch (IOException e) {
            throw new TokenizerException("POST " + url + " failed: " + e.getMessage(), e);
        }
    }

    @Override
    public boolean exact() {
        return true;
    }

    @Override
    public String describe() {
        return "ollama:" + root + " (prompt_eval_count of /api/generate and /api/chat with num_predict 1)";
    }
}
