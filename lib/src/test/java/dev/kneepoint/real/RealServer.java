package dev.kneepoint.real;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Objects;
import okhttp3.MediaType;
import okhttp3.OkHttpClient;
import okhttp3.Request;
import okhttp3.RequestBody;
import okhttp3.Response;

/**
 * The real llama.cpp server the integration tests talk to, found through the environment:
 * {@code KNEEPOINT_LLAMA_URL} (base URL, e.g. {@code http://127.0.0.1:8089}), optionally
 * {@code KNEEPOINT_LLAMA_MODEL} (else the first id of {@code /v1/models}), and
 * {@code KNEEPOINT_REQUIRE_REAL_SERVER=1} to turn "skip" into "fail" (CI must not skip silently).
 *
 * <p>Two kinds are recognised ({@link Kind}): upstream {@code llama-server}, and the fallback that
 * {@code bin/kneepoint-llama} starts when llama-server cannot be built (or {@code --fallback} forces it),
 * {@code llama_cpp.server} from llama-cpp-python. Also holds the llama.cpp-native calls the tests need:
 * {@code /tokenize}, {@code /detokenize}, {@code /metrics} (llama-server only).
 */
final class RealServer {
    static final String URL_VAR = "KNEEPOINT_LLAMA_URL";
    static final String MODEL_VAR = "KNEEPOINT_LLAMA_MODEL";
    static final String REQUIRE_VAR = "KNEEPOINT_REQUIRE_REAL_SERVER";

    private static final ObjectMapper JSON = new ObjectMapper();
    private static final MediaType JSON_TYPE = MediaType.get("application/json");

    /** Which server answers: the tests skip, with this reason, what the fallback cannot offer. */
    enum Kind {
        /** Upstream llama.cpp {@code llama-server}: /health, /metrics, /tokenize, streamed usage and timings. */
        LLAMA_SERVER,
        /**
         * {@code llama_cpp.server} (llama-cpp-python): OpenAI streaming only. No /health, no /metrics, no
         * {@code usage} or {@code timings} in streams, tokenizer under /extras/tokenize, one request at a time.
         */
        LLAMA_CPP_PYTHON
    }

    /** What to do about the real-server tests in a given environment. */
    sealed interface Gate {
        /** Run against this server. */
        record Run(String baseUrl) implements Gate {}

        /** Skip (JUnit assumption) with this reason. */
        record Skip(String reason) implements Gate {}

        /** Fail (the server was required) with this reason. */
        record Fail(String reason) implements Gate {}
    }

    /** Health probe of a base URL: null when healthy, else why not. */
    @FunctionalInterface
    interface Probe {
        String problem(String baseUrl);
    }

    private final String baseUrl;
    private final String model;
    private final Kind kind;
    private final OkHttpClient http;

    private RealServer(String baseUrl, String model, Kind kind, OkHttpClient http) {
        this.baseUrl = baseUrl;
        this.model = model;
        this.kind = kind;
        this.http = http;
    }

    /** Decides run / skip / fail from the environment and a health probe (pure, unit-tested). */
    static Gate gate(Map<String, String> env, Probe probe) {
        return RealServerSupport.gate(env, probe, URL_VAR, REQUIRE_VAR, "bin/kneepoint-llama", "llama-server",
                "the real server");
    }

    /** Connects to the server named by the environment; the caller has checked {@link #gate}. */
    static RealServer connect(String baseUrl, Map<String, String> env) {
        OkHttpClient http = RealServerSupport.client(Duration.ofSeconds(5), Duration.ofSeconds(60));
        RealServer s = new RealServer(baseUrl, null, null, http);
        Kind kind = s.detectKind();
        String model = env.get(MODEL_VAR);
        if (model == null || model.isBlank()) {
            model = s.getJson("/v1/models").path("data").path(0).path("id").asText("");
        }
        if (model.isEmpty()) {
            throw new IllegalStateException("no model id: set " + MODEL_VAR + " or serve /v1/models");
        }
        return new RealServer(baseUrl, model, kind, http);
    }

    /**
     * The default probe: {@code GET /health} (llama-server) or, failing that, {@code GET /v1/models}
     * (llama_cpp.server, which has no /health) must answer 200 within a few seconds.
     */
    static String probeHealth(String baseUrl) {
        OkHttpClient http = RealServerSupport.client(Duration.ofSeconds(3), Duration.ofSeconds(5));
        try {
            int health = status(http, baseUrl + "/health");
            if (health == 200) {
                return null;
            }
            int models = status(http, baseUrl + "/v1/models");
            return models == 200 ? null
                    : "GET /health answered HTTP " + health + " and GET /v1/models HTTP " + models;
        } catch (IOException | IllegalArgumentException e) {
            return "GET /health failed: " + e.getMessage();
        } finally {
            RealServerSupport.release(http);
        }
    }

    private static int status(OkHttpClient http, String url) throws IOException {
        try (Response r = http.newCall(new Request.Builder().url(url).build()).execute()) {
            return r.code();
        }
    }

    /** llama-server answers /health; llama_cpp.server answers /extras/tokenize/count instead. */
    private Kind detectKind() {
        try {
            if (status(http, baseUrl + "/health") == 200) {
                return Kind.LLAMA_SERVER;
            }
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
        JsonNode count = postJson("/extras/tokenize/count", Map.of("input", "kind probe"));
        if (count.path("count").isInt()) {
            return Kind.LLAMA_CPP_PYTHON;
        }
        throw new IllegalStateException(baseUrl + " is neither llama-server (/health) nor llama_cpp.server"
                + " (/extras/tokenize/count answered " + count + ")");
    }

    /** llama_cpp.server {@code POST /extras/tokenize {"input": text}}: tokenized as /v1/completions does. */
    List<Integer> extrasTokenize(String text) {
        List<Integer> ids = new ArrayList<>();
        postJson("/extras/tokenize", Map.of("input", text)).path("tokens").forEach(t -> ids.add(t.asInt()));
        return ids;
    }

    Kind kind() {
        return kind;
    }

    String baseUrl() {
        return baseUrl;
    }

    String model() {
        return model;
    }

    /** llama.cpp {@code POST /tokenize {"content": text, "add_special": ...}} → token ids. */
    List<Integer> tokenize(String text, boolean addSpecial) {
        JsonNode n = postJson("/tokenize", Map.of("content", text, "add_special", addSpecial));
        List<Integer> ids = new ArrayList<>();
        n.path("tokens").forEach(t -> ids.add(t.asInt()));
        return ids;
    }

    /** llama.cpp {@code POST /detokenize {"tokens": [...]}} → text. */
    String detokenize(List<Integer> tokens) {
        return postJson("/detokenize", Map.of("tokens", tokens)).path("content").asText();
    }

    /** {@code GET /metrics} as Prometheus text. */
    String metricsText() {
        return getText("/metrics");
    }

    JsonNode getJson(String path) {
        return RealServerSupport.getJson(http, baseUrl, path);
    }

    JsonNode postJson(String path, Object body) {
        try {
            Request req = new Request.Builder().url(baseUrl + path)
                    .post(RequestBody.create(JSON.writeValueAsBytes(body), JSON_TYPE)).build();
            try (Response r = http.newCall(req).execute()) {
                String text = Objects.requireNonNull(r.body()).string();
                if (r.code() != 200) {
                    throw new IllegalStateException("POST " + path + " answered HTTP " + r.code() + ": " + text);
                }
                return JSON.readTree(text);
            }
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
    }

    private String getText(String path) {
        return RealServerSupport.getText(http, baseUrl, path);
    }

    void close() {
        RealServerSupport.release(http);
    }
}
