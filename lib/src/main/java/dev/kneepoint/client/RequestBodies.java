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
        if (t.apiKind().isPooling()) {
            return PoolingBodies.bodyMap(t, spec);
        }
        if (!t.apiKind().isOpenAi()) {
            return NativeBodies.bodyMap(t, spec);
        }
        Map<String, Object> body = new LinkedHashMap<>();
        body.put("model", spec.modelOr(t.model()));
        if (t.apiKind() == ApiKind.CHAT) {
            List<Map<String, Object>> msgs = new ArrayList<>();
            for (RequestSpec.ChatMessage m : spec.chatMessages()) {
                msgs.add(Map.of("role", m.role(), "content", m.media().isEmpty() ? m.content() : parts(m)));
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
     * A message with media as OpenAI's content parts: its text, then each image as {@code image_url} (a data URL)
     * and each audio clip as {@code input_audio} ({@code data}, {@code format}).
     */
    private static List<Map<String, Object>> parts(RequestSpec.ChatMessage m) {
        List<Map<String, Object>> parts = new ArrayList<>();
        parts.add(Map.of("type", "text", "text", m.content()));
        for (RequestSpec.Media media : m.media()) {
            parts.add(media.image() ? Map.of("type", "image_url", "image_url", Map.of("url", media.dataUrl()))
                    : Map.of("type", "input_audio", "input_audio", Map.of("data", media.base64(), "format",
                    media.mimeType().substring(media.mimeType().indexOf('/') + 1))));
        }
        return parts;
    }

    /**
     * The body as JSON bytes, equal to {@code bodyMap} written by Jackson. Without extra fields (the
     * common case) it is written field by field with the streaming generator: no map, no serializer
     * look-ups (the hot path of every request).
     */
    static byte[] body(TargetConfig t, RequestSpec spec) {
        try {
            if (!t.apiKind().isOpenAi() || !t.extraBody().isEmpty() || !spec.extraBody().isEmpty() || spec.hasMedia()) {
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
            g.writeStringField("model", spec.modelOr(t.model()));
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
