package dev.kneepoint.client;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import java.time.Duration;
import java.util.ArrayList;
import java.util.Iterator;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import okhttp3.HttpUrl;
import okhttp3.MediaType;
import okhttp3.OkHttpClient;
import okhttp3.Request;
import okhttp3.RequestBody;
import okhttp3.Response;
import okhttp3.ResponseBody;

/**
 * Who the server is, asked before the first step through the endpoints engines expose about themselves, so that a
 * run records what it measured (docs/SERVERS.md "Server identity"): vLLM ({@code /version}, {@code /v1/models}'s
 * {@code max_model_len}), SGLang ({@code /get_server_info}), TGI ({@code /info}), llama.cpp ({@code /props}), Ollama
 * ({@code /api/version}, {@code /api/show}) and the embedded simulator ({@code owned_by: kneepoint-sim}). Each
 * endpoint is one GET (or Ollama's POST), bounded by {@link #TIMEOUT}; one that is missing or unreadable is skipped.
 * What no endpoint says is left out, never guessed.
 */
public final class ServerIdentity {
    /** The bound on each identity request. */
    public static final Duration TIMEOUT = Duration.ofSeconds(5);
    private static final ObjectMapper MAPPER = new ObjectMapper();

    private ServerIdentity() {}

    /**
     * The server's identity: {@code engine} ({@code vllm}, {@code sglang}, {@code tgi}, {@code llamacpp},
     * {@code ollama}, {@code simulator}, or {@code unknown}), and where known {@code version}, {@code model},
     * {@code quantization}, {@code context_length}, {@code parallel} (slots, tensor or data parallelism) and
     * {@code launch} (the server's own settings, as it reports them), then {@code answered}: the endpoints that did.
     */
    public static Map<String, Object> probe(TargetConfig target) {
        OkHttpClient http = HttpClients.forChecks(target).newBuilder().callTimeout(TIMEOUT).build();
        Map<String, Object> m = new LinkedHashMap<>();
        Map<String, Object> parallel = new LinkedHashMap<>();
        Map<String, Object> launch = new LinkedHashMap<>();
        List<String> answered = new ArrayList<>();
        String engine = "unknown";
        JsonNode models = get(http, target, "/v1/models", answered);
        JsonNode first = models == null ? null : models.path("data").path(0);
        if (first != null && first.isObject()) {
            String owner = first.path("owned_by").asText("");
            engine = switch (owner) {
                case "vllm" -> "vllm";
                case "kneepoint-sim" -> "simulator";
                case "llamacpp" -> "llamacpp";
                case "sglang" -> "sglang";
                default -> engine;
            };
            put(m, "model", first.path("id"));
            put(m, "context_length", first.path("max_model_len"));
        }
        JsonNode version = get(http, target, "/version", answered);
        if (version != null) {
            put(m, "version", version.path("version"));
        }
        JsonNode sglang = get(http, target, "/get_server_info", answered);
        if (sglang != null && sglang.has("tp_size")) {
            engine = "sglang";
            put(m, "model", sglang.path("model_path"));
            put(m, "quantization", sglang.path("quantization"));
            put(m, "context_length", sglang.path("context_length"));
            put(m, "version", sglang.path("version"));
            put(parallel, "tensor", sglang.path("tp_size"));
            put(parallel, "data", sglang.path("dp_size"));
            for (String k : List.of("max_running_requests", "chunked_prefill_size", "mem_fraction_static",
                    "schedule_policy", "kv_cache_dtype")) {
                put(launch, k, sglang.path(k));
            }
        }
        JsonNode tgi = get(http, target, "/info", answered);
        if (tgi != null && tgi.has("model_id")) {
            engine = "tgi";
            put(m, "model", tgi.path("model_id"));
            put(m, "quantization", tgi.path("model_dtype"));
            put(m, "context_length", tgi.path("max_total_tokens"));
            put(m, "version", tgi.path("version"));
            put(parallel, "max_concurrent_requests", tgi.path("max_concurrent_requests"));
            put(launch, "max_batch_total_tokens", tgi.path("max_batch_total_tokens"));
        }
        JsonNode props = get(http, target, "/props", answered);
        if (props != null && (props.has("total_slots") || props.has("default_generation_settings"))) {
            engine = "llamacpp";
            put(m, "model", props.path("model_path"));
            put(m, "version", props.path("build_info"));
            JsonNode ctx = props.path("default_generation_settings").path("n_ctx");
            put(m, "context_length", ctx.isMissingNode() ? props.path("n_ctx") : ctx);
            put(parallel, "slots", props.path("total_slots"));
        }
        JsonNode ollama = get(http, target, "/api/version", answered);
        if (ollama != null && ollama.has("version")) {
            engine = "ollama";
            put(m, "version", ollama.path("version"));
            JsonNode show = post(http, target, "/api/show", Map.of("model", target.model()), answered);
            if (show != null) {
                put(m, "quantization", show.path("details").path("quantization_level"));
                put(launch, "parameter_size", show.path("details").path("parameter_size"));
                for (Iterator<Map.Entry<String, JsonNode>> it = show.path("model_info").fields(); it.hasNext(); ) {
                    Map.Entry<String, JsonNode> e = it.next();
                    if (e.getKey().endsWith(".context_length")) {
                        put(m, "context_length", e.getValue());
                    }
                }
            }
        }
        Map<String, Object> out = new LinkedHashMap<>();
        out.put("engine", engine);
        out.putAll(m);
        if (!parallel.isEmpty()) {
            out.put("parallel", parallel);
        }
        if (!launch.isEmpty()) {
            out.put("launch", launch);
        }
        out.put("answered", answered);
        return out;
    }

    /** Puts a present, non-null scalar (text or number) under {@code key}; the first value given wins. */
    private static void put(Map<String, Object> m, String key, JsonNode v) {
        if (v == null || v.isMissingNode() || v.isNull() || m.containsKey(key) || v.isContainerNode()
                || (v.isTextual() && v.asText().isBlank())) {
            return;
        }
        m.put(key, v.isNumber() ? (Object) v.numberValue() : v.isBoolean() ? (Object) v.asBoolean() : v.asText());
    }

    private static JsonNode get(OkHttpClient http, TargetConfig target, String path, List<String> answered) {
        return call(http, new Request.Builder().url(url(target, path)).get().build(), path, answered);
    }

    private static JsonNode post(OkHttpClient http, TargetConfig target, String path, Map<String, Object> body,
                                 List<String> answered) {
        try {
            RequestBody b = RequestBody.create(MAPPER.writeValueAsBytes(body), MediaType.get("application/json"));
            return call(http, new Request.Builder().url(url(target, path)).post(b).build(), path, answered);
        } catch (com.fasterxml.jackson.core.JsonProcessingException e) {
            return null;
        }
    }

    private static HttpUrl url(TargetConfig target, String path) {
        return target.baseUrl().newBuilder().encodedPath(path).build();
    }

    /** The JSON object an endpoint answered with, or null (not there, not JSON, not an object, or no answer). */
    private static JsonNode call(OkHttpClient http, Request request, String path, List<String> answered) {
        try (Response r = http.newCall(request).execute()) {
            ResponseBody body = r.body();
            if (!r.isSuccessful() || body == null) {
                return null;
            }
            JsonNode n = MAPPER.readTree(body.string());
            if (n == null || !n.isObject()) {
                return null;
            }
            answered.add(path);
            return n;
        } catch (java.io.IOException | RuntimeException e) {
            return null;
        }
    }
}
