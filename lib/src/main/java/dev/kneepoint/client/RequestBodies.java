package dev.kneepoint.client;

import com.fasterxml.jackson.core.JsonProcessingException;
import dev.kneepoint.workload.RequestSpec;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

/** Builds the JSON body of one OpenAI-compatible request. */
final class RequestBodies {
    private RequestBodies() {
    }

    /**
     * The body as a map, in this order: {@code model}, {@code messages} or {@code prompt},
     * {@code max_tokens} (when {@code >= 0}), {@code stream}, {@code stream_options} (always with
     * {@code include_usage: true} when streaming), then the target's extra fields, then the spec's
     * (later ones override earlier ones).
     */
    static Map<String, Object> bodyMap(TargetConfig t, RequestSpec spec) {
        Map<String, Object> body = new LinkedHashMap<>();
        body.put("model", t.model());
        if (t.apiKind() == ApiKind.CHAT) {
            List<Map<String, String>> msgs = new ArrayList<>();
            for (RequestSpec.ChatMessage m : spec.chatMessages()) {
                msgs.add(Map.of("role", m.role(), "content", m.content()));
            }
            body.put("messages", msgs);
        } else {
            body.put("prompt", spec.prompt());
        }
        if (spec.maxTokens() >= 0) {
            body.put("max_tokens", spec.maxTokens());
        }
        body.put("stream", t.stream());
        if (t.stream()) {
            Map<String, Object> opts = new LinkedHashMap<>();
            opts.put("include_usage", true);
            if (t.continuousUsageStats()) {
                opts.put("continuous_usage_stats", true);
            }
            body.put("stream_options", opts);
        }
        body.putAll(t.extraBody());
        body.putAll(spec.extraBody());
        return body;
    }

    static byte[] body(TargetConfig t, RequestSpec spec) {
        try {
            return OpenAiChunkDecoder.MAPPER.writeValueAsBytes(bodyMap(t, spec));
        } catch (JsonProcessingException e) {
            throw new IllegalArgumentException("request body cannot be written as JSON: " + e.getOriginalMessage(), e);
        }
    }
}
