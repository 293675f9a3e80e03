package dev.kneepoint.client;

import java.io.IOException;
import java.util.Map;
import java.util.Optional;
import okhttp3.HttpUrl;
import okhttp3.Request;
import okhttp3.RequestBody;
import okhttp3.Response;

/**
 * A server's prefix cache, reset between steps so that each starts cold (a shared prompt prefix cached by the
 * previous step would otherwise make the next one's TTFT look better than a fresh server's): vLLM's
 * {@code POST /reset_prefix_cache}, SGLang's {@code POST /flush_cache}, and the simulator's (vLLM's shape). Other
 * engines expose no such endpoint; restart them instead ({@code serve-sweep} does, once per configuration).
 */
public final class PrefixCache {
    private PrefixCache() {}

    /** The reset endpoint of each engine {@link ServerIdentity} names that has one. */
    private static final Map<String, String> ENDPOINTS = Map.of(
            "vllm", "reset_prefix_cache",
            "sglang", "flush_cache",
            "simulator", "reset_prefix_cache");

    /**
     * The path of {@code engine}'s reset endpoint ({@link ServerIdentity}'s {@code engine}), empty when it has
     * none Kneepoint knows.
     */
    public static Optional<String> endpoint(String engine) {
        return Optional.ofNullable(engine == null ? null : ENDPOINTS.get(engine)).map(p -> "/" + p);
    }

    /**
     * Resets the prefix cache of {@code target} through {@code path} (from {@link #endpoint}); returns null when the
     * server answered 2xx, else what went wrong, e.g. {@code "HTTP 503 from /flush_cache"}.
     */
    public static String reset(TargetConfig target, String path) {
        HttpUrl url = TargetConfig.serverRoot(target.baseUrl()).resolve(path.substring(1));
        Request post = new Request.Builder().url(url).post(RequestBody.create(new byte[0])).build();
        try (Response resp = HttpClients.forChecks(target).newCall(post).execute()) {
            return resp.isSuccessful() ? null : "HTTP " + resp.code() + " from " + path;
        } catch (IOException e) {
            return "no answer from " + path + ": " + e.getMessage();
        }
    }
}
