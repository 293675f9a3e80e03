package dev.kneepoint.client;

import com.fasterxml.jackson.databind.JsonNode;
import java.util.LinkedHashMap;
import java.util.Map;

/**
 * llama.cpp server's native {@code /completion}: SSE events
 * {@code {"content":"...","stop":false,"tokens_predicted":k,...}} (recent builds report the
 * cumulative {@code tokens_predicted} on every event, older ones not at all), and a last event with
 * {@code stop:true}, {@code stop_type} ({@code eos}, {@code limit}, {@code word}; older builds
 * {@code stopped_eos}/{@code stopped_limit}/{@code stopped_word}), {@code tokens_predicted},
 * {@code tokens_evaluated} and {@code timings} ({@code prompt_n}, {@code prompt_ms},
 * {@code predicted_n}, {@code predicted_ms}, ...), kept as server timings. No {@code [DONE]}.
 *
 * <p>Finish reasons are mapped to the OpenAI words: {@code limit} → {@code length}, {@code eos} and
 * {@code word} → {@code stop}.
 */
final class LlamaCppDecoder extends NativeDecoder {
    LlamaCppDecoder() {
        super(true);
    }

    @Override
    StreamPayload decodeObject(JsonNode n) {
        String content = NativeJson.text(n, "content");
        int predicted = NativeJson.integer(n, "tokens_predicted");
        if (!n.path("stop").asBoolean(false)) {
            return new StreamPayload.Chunk(content, "", null, null, 1, -1, predicted, -1, Map.of());
        }
        Map<String, Double> timings = new LinkedHashMap<>();
        JsonNode t = n.get("timings");
        if (t != null && t.isObject()) {
            for (Map.Entry<String, JsonNode> e : t.properties()) {
                if (e.getValue().isNumber()) {
                    timings.put(e.getKey(), e.getValue().asDouble());
                }
            }
        }
        if (predicted < 0 && timings.containsKey("predicted_n")) {
            predicted = timings.get("predicted_n").intValue();
        }
        int prompt = NativeJson.integer(n, "tokens_evaluated");
        NativeJson.number(timings, n, "tokens_cached", "tokens_cached", 1);
        return ending(new StreamPayload.Chunk(content, "", null, finishReason(n), 0, prompt, predicted, -1, timings));
    }

    private static String finishReason(JsonNode n) {
        String type = NativeJson.text(n, "stop_type");
        if (type.equals("limit") || n.path("stopped_limit").asBoolean(false)) {
            return "length";
        }
        if (type.equals("eos") || type.equals("word") || n.path("stopped_eos").asBoolean(false)
                || n.path("stopped_word").asBoolean(false)) {
            return "stop";
        }
        return type.isEmpty() || type.equals("none") ? "stop" : type;
    }
}
