package dev.kneepoint.client;

import com.fasterxml.jackson.core.JsonProcessingException;
import com.fasterxml.jackson.databind.JsonNode;
import java.util.Map;

/** Shared reading for the native (non-OpenAI) decoders: parse one object, spot error objects. */
final class NativeJson {
    private NativeJson() {
    }

    /** The parsed object, or a {@link StreamPayload} ({@code Malformed} or {@code ServerError}) to return instead. */
    static Object parse(String data) {
        JsonNode n;
        try {
            n = OpenAiChunkDecoder.MAPPER.readTree(data);
        } catch (JsonProcessingException e) {
            return new StreamPayload.Malformed("invalid JSON (" + e.getOriginalMessage() + "): "
                    + OpenAiChunkDecoder.snippet(data));
        }
        if (n == null || !n.isObject()) {
            return new StreamPayload.Malformed("expected a JSON object, got: " + OpenAiChunkDecoder.snippet(data));
        }
        JsonNode err = n.get("error");
        if (err != null && !err.isNull()) {
            if (err.isTextual()) {
                return new StreamPayload.ServerError(err.asText());
            }
            String msg = err.path("message").asText("");
            return new StreamPayload.ServerError(msg.isEmpty() ? OpenAiChunkDecoder.snippet(err.toString()) : msg);
        }
        return n;
    }

    /**
     * The message of an error value sent outside a data payload (llama.cpp's {@code error: {...}}
     * line): its {@code message} (or {@code error.message}, or {@code error} text), else the raw value.
     */
    static String errorMessage(String value) {
        try {
            JsonNode n = OpenAiChunkDecoder.MAPPER.readTree(value);
            if (n != null && n.isObject()) {
                JsonNode e = n.has("error") ? n.get("error") : n;
                if (e.isTextual()) {
                    return e.asText();
                }
                String m = e.path("message").asText("");
                if (!m.isEmpty()) {
                    return m;
                }
            }
        } catch (JsonProcessingException e) {
            // not JSON: the raw text is the message
        }
        return OpenAiChunkDecoder.snippet(value);
    }

    /** The text of a string field, or "" when absent, null or not a string. */
    static String text(JsonNode n, String field) {
        JsonNode v = n.get(field);
        return v != null && v.isTextual() ? v.asText() : "";
    }

    /** An integer field, or -1 when absent or not a number. */
    static int integer(JsonNode n, String field) {
        JsonNode v = n.get(field);
        return v != null && v.isNumber() ? v.asInt() : -1;
    }

    /** Puts {@code n.field * scale} under {@code key} when the field is a number. */
    static void number(Map<String, Double> out, JsonNode n, String field, String key, double scale) {
        JsonNode v = n.get(field);
        if (v != null && v.isNumber()) {
            out.put(key, v.asDouble() * scale);
        }
    }
}
