package dev.kneepoint.client;

import com.fasterxml.jackson.databind.JsonNode;
import java.util.LinkedHashMap;
import java.util.Map;

/**
 * Hugging Face TGI {@code /generate_stream}: one SSE event per generated token,
 * {@code {"index":i,"token":{"id","text","logprob","special"},"generated_text":null,"details":null}};
 * the last event also carries {@code generated_text} and (with {@code parameters.details}) a
 * {@code details} object ({@code finish_reason}, {@code generated_tokens}, {@code input_length},
 * {@code seed}). No {@code [DONE]} follows. Errors arrive as {@code {"error":"...","error_type":"..."}}.
 *
 * <p>Counting: every event is one token, so the decoder reports the cumulative number of token
 * events as a continuous count; a special token ({@code special:true}, e.g. EOS) carries no text, is
 * therefore not a token-carrying event (no timestamp, never the first token), and its token is
 * carried over to the next text event or, at the end, included by the server total
 * {@code details.generated_tokens}.
 */
final class TgiDecoder extends NativeDecoder {
    private int tokens;

    TgiDecoder() {
        super(false);
    }

    @Override
    StreamPayload decodeObject(JsonNode n) {
        JsonNode token = n.get("token");
        String text = "";
        if (token != null && token.isObject()) {
            tokens++;
            if (!token.path("special").asBoolean(false)) {
                text = NativeJson.text(token, "text");
            }
        }
        JsonNode generated = n.get("generated_text");
        JsonNode details = n.get("details");
        boolean last = (generated != null && !generated.isNull()) || (details != null && details.isObject());
        if (!last) {
            return new StreamPayload.Chunk(text, "", null, null, 1, -1, tokens, -1, Map.of());
        }
        Map<String, Double> timings = new LinkedHashMap<>();
        String finish = null;
        int total = tokens;
        int prompt = -1;
        if (details != null && details.isObject()) {
            finish = NativeJson.text(details, "finish_reason");
            finish = finish.isEmpty() ? null : finish;
            if (NativeJson.integer(details, "generated_tokens") >= 0) {
                total = NativeJson.integer(details, "generated_tokens");
            }
            prompt = NativeJson.integer(details, "input_length");
            NativeJson.number(timings, details, "generated_tokens", "generated_tokens", 1);
            NativeJson.number(timings, details, "input_length", "input_length", 1);
        }
        // with a finish reason the count is the final server total; without details it stays continuous
        return ending(new StreamPayload.Chunk(text, "", null, finish, finish != null ? 0 : 1, prompt, total, -1,
                timings));
    }
}
