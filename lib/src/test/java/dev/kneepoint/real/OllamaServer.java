package dev.kneepoint.real;

import com.fasterxml.jackson.databind.JsonNode;
import java.io.IOException;
import java.time.Duration;
import java.util.Map;
import okhttp3.OkHttpClient;
import okhttp3.Request;
import okhttp3.Response;

/**
 * The real Ollama server {@link OllamaServerTest} talks to, found through the environment:
 * {@code KNEEPOINT_OLLAMA_URL} (base URL, e.g. {@code http://127.0.0.1:11500}, printed by
 * {@code bin/kneepoint-ollama start}), optionally {@code KNEEPOINT_OLLAMA_MODEL} (else the first model of
 * {@code /api/tags}), and {@code KNEEPOINT_REQUIRE_OLLAMA=1} to turn "skip" into "fail". A variable of its
 * own, not {@code KNEEPOINT_REQUIRE_REAL_SERVER}: CI's llama.cpp stage requires llama-server only.
 */
final class OllamaServer {
    static final String URL_VAR = "KNEEPOINT_OLLAMA_URL";
    static final String MODEL_VAR = "KNEEPOINT_OLLAMA_MODEL";
    static final String REQUIRE_VAR = "KNEEPOINT_REQUIRE_OLLAMA";

    private final String baseUrl;
    private final String model;
    private final String version;
    private final OkHttpClient http;

    private OllamaServer(String baseUrl, String model, String version, OkHttpClient http) {
        this.baseUrl = baseUrl;
        this.model = model;
        this.version = version;
        this.http = http;
    }

    /** Run / skip / fail from the environment and a probe of {@code GET /api/version} (pure, unit-tested). */
    static RealServer.Gate gate(Map<String, String> env, RealServer.Probe probe) {
        return RealServerSupport.gate(env, probe, URL_VAR, REQUIRE_VAR, "bin/kneepoint-ollama", "Ollama",
                "the Ollama server");
    }

    /** {@code GET /api/version} must answer 200 within a few seconds. */
    static String probeVersion(String baseUrl) {
        OkHttpClient http = RealServerSupport.client(Duration.ofSeconds(3), Duration.ofSeconds(5));
        try (Response r = http.newCall(new Request.Builder().url(baseUrl + "/api/version").build()).execute()) {
            return r.code() == 200 ? null : "GET /api/version answered HTTP " + r.code();
        } catch (IOException | IllegalArgumentException e) {
            return "GET /api/version failed: " + e.getMessage();
        } finally {
            RealServerSupport.release(http);
        }
    }

    static OllamaServer connect(String baseUrl, Map<String, String> env) {
        OkHttpClient http = RealServerSupport.client(Duration.ofSeconds(5), Duration.ofSeconds(60));
        OllamaServer s = new OllamaServer(baseUrl, null, null, http);
        String version = s.getJson("/api/version").path("version").asText("");
        String model = env.get(MODEL_VAR);
        if (model == null || model.isBlank()) {
            model = s.getJson("/api/tags").path("models").path(0).path("name").asText("");
        }
        if (model.isEmpty()) {
            throw new IllegalStateException("no model: set " + MODEL_VAR + " or import one (bin/kneepoint-ollama start does)");
        }
        return new OllamaServer(baseUrl, model, version, http);
    }

    String baseUrl() {
        return baseUrl;
    }

    String model() {
        return model;
    }

    String version() {
        return version;
    }

    JsonNode getJson(String path) {
        return RealServerSupport.getJson(http, baseUrl, path);
    }

    void close() {
        RealServerSupport.release(http);
    }
}
