package dev.kneepoint.workload;

import dev.kneepoint.client.TargetConfig;
import dev.kneepoint.request.RequestSpec;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import okhttp3.HttpUrl;
import okhttp3.OkHttpClient;

/**
 * What the token counters that ask a server share ({@link ServerTokenizer}, {@link OllamaTokenCounter}): the
 * server's root, the model each request names, the JSON {@code POST}s made to it (counted) and exact counts, since
 * they are the server's own. Thread-safe.
 */
abstract class RemoteTokenCounter implements TokenCounter {
    /** The server's root: its base URL without an OpenAI-style {@code /v1}. */
    final HttpUrl root;
    /** The model named in each request. */
    final String model;
    private final JsonPost post;

    RemoteTokenCounter(HttpUrl baseUrl, String model, OkHttpClient http) {
        this.post = new JsonPost(http);
        this.root = TargetConfig.serverRoot(baseUrl);
        this.model = model;
    }

    /** HTTP calls made so far (calibration reports its round trips). */
    long calls() {
        return post.calls();
    }

    /** True: the counts are the server's. */
    @Override
    public final boolean exact() {
        return true;
    }

    /** {@code endpoint} (relative, e.g. {@code api/chat}) on the server. */
    final HttpUrl url(String endpoint) {
        return root.resolve(endpoint);
    }

    /** Posts {@code body} as JSON to {@code endpoint} on the server. */
    final JsonPost.Reply post(String endpoint, Object body) {
        return post.post(url(endpoint), body);
    }

    /** The messages as the servers' chat APIs take them: {@code {role, content}} objects. */
    static List<Map<String, String>> wireMessages(List<RequestSpec.ChatMessage> messages) {
        List<Map<String, String>> msgs = new ArrayList<>();
        for (RequestSpec.ChatMessage m : messages) {
            msgs.add(Map.of("role", m.role(), "content", m.content()));
        }
        return msgs;
    }
}
