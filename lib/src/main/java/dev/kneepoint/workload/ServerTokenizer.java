package dev.kneepoint.workload;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import dev.kneepoint.client.HttpClients;
import java.io.IOException;
import java.io.InterruptedIOException;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.concurrent.atomic.AtomicLong;
import okhttp3.HttpUrl;
import okhttp3.MediaType;
import okhttp3.OkHttpClient;
import okhttp3.Request;
import okhttp3.RequestBody;
import okhttp3.Response;

/**
 * Counts tokens with the server's own {@code POST /tokenize}. Two shapes are spoken and detected on
 * the first call: vLLM/SGLang/the simulator ({@code {"model","prompt"}} or {@code {"model","messages"}}
 * → {@code {"count":N,"tokens":[...]}}) and llama.cpp ({@code {"content"}} → {@code {"tokens":[...]}},
 * chat through {@code POST /apply-template}). Uses the shared HTTP client; thread-safe.
 */
final class ServerTokenizer implements TokenCounter {
    private static final ObjectMapper MAPPER = new ObjectMapper();
    private static final MediaType JSON = MediaType.get("application/json");

    private enum Shape { UNKNOWN, VLLM, LLAMA_CPP }

    private final HttpUrl root;
    private final String model;
    private volatile Shape shape = Shape.UNKNOWN;
    private final AtomicLong calls = new AtomicLong();
    private final OkHttpClient http;

    ServerTokenizer(HttpUrl baseUrl, String model) {
        this(baseUrl, model, HttpClients.shared());
    }

    /** With the target's client ({@link HttpClients#forTarget}): its API key, headers and TLS options. */
    ServerTokenizer(HttpUrl baseUrl, String model, OkHttpClient http) {
        this.http = http;
        String path = baseUrl.encodedPath();
        while (path.endsWith("/")) {
            path = path.substring(0, path.length() - 1);
        }
        if (path.endsWith("/v1")) {
            path = path.substring(0, path.length() - 3);
        }
        this.root = baseUrl.newBuilder().encodedPath(path.isEmpty() ? "/" : path + "/").build();
        this.model = model;
    }

    /** HTTP calls made so far (calibration reports its round trips). */
    long calls() {
        return calls.get();
    }

    @Override
    public int count(String text) {
        if (shape != Shape.LLAMA_CPP) {
            Map<String, Object> body = new LinkedHashMap<>();
            body.put("model", model);
            body.put("prompt", text);
            JsonNode r = post("tokenize", body);
            if (r.has("count")) {
                shape = Shape.VLLM;
                return r.get("count").asInt();
            }
            JsonNode tokens = r.get("tokens");
            if (tokens != null && tokens.isArray() && (tokens.size() > 0 || text.isEmpty())) {
                shape = Shape.VLLM;
                return tokens.size();
            }
            shape = Shape.LLAMA_CPP; // llama.cpp ignores "prompt" and answers {"tokens":[]}
        }
        return llamaCount(text, false);
    }

    @Override
    public int countChat(List<RequestSpec.ChatMessage> messages) {
        List<Map<String, String>> msgs = new ArrayList<>();
        for (RequestSpec.ChatMessage m : messages) {
            msgs.add(Map.of("role", m.role(), "content", m.content()));
        }
        if (shape == Shape.UNKNOWN) {
            count("hello");
        }
        if (shape == Shape.VLLM) {
            Map<String, Object> body = new LinkedHashMap<>();
            body.put("model", model);
            body.put("messages", msgs);
            JsonNode r = post("tokenize", body);
            JsonNode c = r.has("count") ? r.get("count") : null;
            if (c != null) {
                return c.asInt();
            }
            JsonNode tokens = r.get("tokens");
            if (tokens != null && tokens.isArray()) {
                return tokens.size();
            }
            throw new TokenizerException(url("tokenize") + " answered chat messages without count or tokens");
        }
        JsonNode applied = post("apply-template", Map.of("messages", msgs));
        JsonNode prompt = applied.get("prompt");
        if (prompt == null || !prompt.isTextual()) {
            throw new TokenizerException(url("apply-template") + " did not return a prompt");
        }
        return llamaCount(prompt.asText(), true);
    }

    private int llamaCount(String text, boolean addSpecial) {
        Map<String, Object> body = new LinkedHashMap<>();
        body.put("content", text);
        body.put("add_special", addSpecial);
        JsonNode tokens = post("tokenize", body).get("tokens");
        if (tokens == null || !tokens.isArray()) {
            throw new TokenizerException(url("tokenize") + " answered neither {count} (vLLM) nor {tokens} (llama.cpp)");
        }
        return tokens.size();
    }

    @Override
    public boolean exact() {
        return true;
    }

    @Override
    public String describe() {
        return "server:" + url("tokenize") + " (" + switch (shape) {
            case VLLM -> "vllm shape";
            case LLAMA_CPP -> "llama.cpp shape";
            case UNKNOWN -> "shape not yet detected";
        } + ")";
    }

    private HttpUrl url(String endpoint) {
        return root.resolve(endpoint);
    }

    private JsonNode post(String endpoint, Object body) {
        HttpUrl url = url(endpoint);
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
                return MAPPER.readTree(text);
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
}
