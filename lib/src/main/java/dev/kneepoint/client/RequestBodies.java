package dev.kneepoint.client;

import com.fasterxml.jackson.core.JsonGenerator;
import com.fasterxml.jackson.core.JsonProcessingException;
import dev.kneepoint.request.RequestSpec;
import java.io.ByteArrayOutputStream;
import java.io.IOException;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

/** Builds the JSON body of one request: OpenAI-compatible here, the native APIs in {@link NativeBodies}. */
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
        if (!t.apiKind().isOpenAi()) {
            return NativeBodies.bodyMap(t, spec);
        }
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

    /**
     * The body as JSON bytes, equal to {@code bodyMap} written by Jackson. Without extra fields (the
     * common case) it is written field by field with the streaming generator: no map, no serializer
     * look-ups (the hot path of every request).
     */
    static byte[] body(TargetConfig t, RequestSpec spec) {
        try {
            if (!t.apiKind().isOpenAi() || !t.extraBody().isEmpty() || !spec.extraBody().isEmpty()) {
                return OpenAiChunkDecoder.MAPPER.writeValueAsBytes(bodyMap(t, spec));
            }
            return stream(t, spec);
        } catch (JsonProcessingException e) {
            throw new IllegalArgumentException("request body cannot be written as JSON: " + e.getOriginalMessage(), e);
        } catch (IOException e) {
            throw new IllegalStateException("in-memory JSON writing failed", e);
        }
    }

    private static byte[] stream(TargetConfig t, RequestSpec spec) throws IOException {
        ByteArrayOutputStream out = new ByteArrayOutputStream(256);
        try (JsonGenerator g = OpenAiChunkDecoder.MAPPER.getFactory().createGenerator(out)) {
            g.writeStartObject();
            g.writeStringField("model", t.model());
            if (t.apiKind() == ApiKind.CHAT) {
                g.writeArrayFieldStart("messages");
                for (RequestSpec.ChatMessage m : spec.chatMessages()) {
                    g.writeStartObject();
                    g.writeStringField("role", m.role());
                    g.writeStringField("content", m.content());
                    g.writeEndObject();
                }
                g.writeEndArray();
            } else {
                g.writeStringField("prompt", spec.prompt());
            }
            if (spec.maxTokens() >= 0) {
                g.writeNumberField("max_tokens", spec.maxTokens());
            }
            g.writeBooleanField("stream", t.stream());
            if (t.stream()) {
                g.writeObjectFieldStart("stream_options");
                g.writeBooleanField("include_usage", true);
                if (t.continuousUsageStats()) {
                    g.writeBooleanField("continuous_usage_stats", true);
                }
                g.writeEndObject();
            }
            g.writeEndObject();
        }
        return out.toByteArray();
    }
}
