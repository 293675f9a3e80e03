package dev.kneepoint.client;

import com.fasterxml.jackson.databind.JsonNode;
import java.util.LinkedHashMap;
import java.util.Map;

/**
 * SGLang's native {@code /generate}: SSE events {@code {"text":"...","meta_info":{...}}} where
 * {@code text} is the cumulative text so far and {@code meta_info} carries the cumulative
 * {@code completion_tokens}, {@code prompt_tokens}, {@code cached_tokens} and {@code finish_reason}
 * (null, or an object whose {@code type} is {@code length}, {@code stop} or {@code abort}); then
 * {@code data: [DONE]}.
 *
 * <p>The delta of each event is the text beyond the previous event's; when an event's text does not
 * extend the previous one (a server started with incremental stream output) the whole text is the
 * delta. Counts come from {@code completion_tokens} (continuous; the value on the event with the
 * finish reason is the server total). On that event the numeric {@code meta_info} fields are kept
 * as server timings ({@code e2e_latency} seconds as {@code e2e_latency_ms}).
 */
final class SglangDecoder extends NativeDecoder {
    private String previous = "";

    SglangDecoder() {
        super(true);
    }

    @Override
    StreamPayload decodeObject(JsonNode n) {
        String text = NativeJson.text(n, "text");
        String delta = text.startsWith(previous) ? text.substring(previous.length()) : text;
        previous = text;
        JsonNode meta = n.path("meta_info");
        if (!meta.isObject()) {
            return new StreamPayload.Chunk(delta, "", null, null, 1, -1, -1, -1, Map.of());
        }
        JsonNode fr = meta.get("finish_reason");
        String finish = null;
        if (fr != null && fr.isObject()) {
            finish = NativeJson.text(fr, "type");
            finish = finish.isEmpty() ? "stop" : finish;
        } else if (fr != null && fr.isTextual()) {
            finish = fr.asText();
        }
        if ("abort".equals(finish)) {
            String msg = NativeJson.text(fr, "message");
            return new StreamPayload.ServerError("request aborted by the server" + (msg.isEmpty() ? "" : ": " + msg));
        }
        Map<String, Double> timings = Map.of();
        if (finish != null) {
            timings = new LinkedHashMap<>();
            for (Map.Entry<String, JsonNode> e : meta.properties()) {
                if (!e.getValue().isNumber()) {
                    continue;
                }
                if (e.getKey().equals("e2e_latency")) {
                    timings.put("e2e_latency_ms", e.getValue().asDouble() * 1e3);
                } else {
                    timings.put(e.getKey(), e.getValue().asDouble());
                }
            }
        }
        return new StreamPayload.Chunk(delta, "", null, finish, 1, NativeJson.integer(meta, "prompt_tokens"),
                NativeJson.integer(meta, "completion_tokens"), -1, timings);
    }
}
