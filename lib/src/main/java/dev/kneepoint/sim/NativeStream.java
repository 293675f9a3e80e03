package dev.kneepoint.sim;

import com.fasterxml.jackson.core.JsonProcessingException;
import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.node.ObjectNode;
import java.time.Instant;
import java.util.Locale;

/**
 * The simulator's native APIs: TGI {@code /generate_stream}, Ollama {@code /api/generate} and
 * {@code /api/chat}, llama.cpp {@code /completion} and SGLang {@code /generate}. A native request is
 * rewritten into the OpenAI request the engine already serves ({@link #openAiRequest}), and the
 * OpenAI stream it produces is rewritten, write by write, into the native stream
 * ({@link #translate}), so every write still leaves at its scheduled time and the faults work the
 * same. Streaming only. One instance per request; used by its thread.
 *
 * <p>Shapes written: TGI one {@code data:} event per token, details on the last (an EOS special
 * token when the model stopped), no {@code [DONE]}; Ollama one NDJSON line per token and a
 * {@code done:true} line with {@code *_duration} nanoseconds measured from the request's start;
 * llama.cpp one event per token with {@code tokens_predicted} and a {@code stop:true} event with
 * {@code timings}; SGLang cumulative {@code text} with {@code meta_info} per engine write, then
 * {@code [DONE]}.
 */
final class NativeStream implements StreamTranslator {

    /** The native APIs served. */
    enum Api {
        TGI("/generate_stream"), OLLAMA_GENERATE("/api/generate"), OLLAMA_CHAT("/api/chat"),
        LLAMACPP("/completion"), SGLANG("/generate");

        final String path;

        Api(String path) {
            this.path = path;
        }

        /** The API served at {@code path}, or null. */
        static Api of(String path) {
            for (Api a : values()) {
                if (a.path.equals(path)) {
                    return a;
                }
            }
            return null;
        }

        boolean ndjson() {
            return this == OLLAMA_GENERATE || this == OLLAMA_CHAT;
        }
    }

    private final Api api;
    private final String model;
    private final long startNanos = System.nanoTime();
    private final StringBuilder text = new StringBuilder();
    private long firstNanos = -1;
    private int prompt;
    private int completion;
    private String pendingTgi;

    NativeStream(Api api, String model) {
        this.api = api;
        this.model = model;
    }

    /**
     * The OpenAI request equivalent to a native one (always streaming with continuous usage).
     *
     * @throws IllegalArgumentException when the request does not stream or has no prompt
     */
    static ObjectNode openAiRequest(Api api, JsonNode in) {
        JsonText.object(in);
        ObjectNode out = JsonText.MAPPER.createObjectNode();
        JsonNode params = switch (api) {
            case TGI -> in.path("parameters");
            case OLLAMA_GENERATE, OLLAMA_CHAT -> in.path("options");
            case SGLANG -> in.path("sampling_params");
            case LLAMACPP -> in;
        };
        switch (api) {
            case TGI -> out.set("prompt", in.get("inputs"));
            case OLLAMA_CHAT -> out.set("messages", in.get("messages"));
            case SGLANG -> out.set("prompt", in.get("text"));
            default -> out.set("prompt", in.get("prompt"));
        }
        if (api == Api.OLLAMA_GENERATE || api == Api.OLLAMA_CHAT) {
            if (in.hasNonNull("model")) {
                out.set("model", in.get("model"));
            }
        }
        String max = switch (api) {
            case TGI, SGLANG -> "max_new_tokens";
            case OLLAMA_GENERATE, OLLAMA_CHAT -> "num_predict";
            case LLAMACPP -> "n_predict";
        };
        if (params.has(max)) {
            out.set("max_tokens", params.get(max));
        }
        if (params.path("ignore_eos").asBoolean(false)) {
            out.put("ignore_eos", true);
        }
        if (params.has("min_new_tokens")) {
            out.set("min_tokens", params.get("min_new_tokens"));
        }
        boolean stream = api == Api.TGI || in.path("stream").asBoolean(api.ndjson());
        if (!stream) {
            throw new IllegalArgumentException("the simulator's native endpoints only stream: send \"stream\": true");
        }
        out.put("stream", true);
        out.putObject("stream_options").put("include_usage", true).put("continuous_usage_stats", true);
        return out;
    }

    @Override
    public String contentType() {
        return api.ndjson() ? "application/x-ndjson" : "text/event-stream; charset=utf-8";
    }

    @Override
    public String translate(String chunk) {
        StringBuilder out = new StringBuilder(chunk.length());
        for (String event : chunk.split("\n\n")) {
            if (event.isEmpty()) {
                continue;
            }
            String data = event.startsWith("data: ") ? event.substring(6) : event;
            if (data.equals("[DONE]")) {
                if (api == Api.SGLANG) {
                    out.append("data: [DONE]\n\n");
                }
                continue;
            }
            JsonNode n;
            try {
                n = JsonText.MAPPER.readTree(data);
            } catch (JsonProcessingException e) {
                out.append(api.ndjson() ? "" : "data: ").append(data).append(api.ndjson() ? "\n" : "\n\n");
                continue;
            }
            if (n.hasNonNull("error")) {
                error(out, n.get("error").path("message").asText("error"));
                continue;
            }
            JsonNode usage = n.path("usage");
            if (usage.isObject()) {
                prompt = usage.path("prompt_tokens").asInt(prompt);
            }
            JsonNode choices = n.path("choices");
            if (!choices.isArray() || choices.isEmpty()) {
                continue;
            }
            JsonNode c = choices.get(0);
            String content = c.has("delta") ? c.path("delta").path("content").asText("") : c.path("text").asText("");
            if (!content.isEmpty()) {
                tokens(out, content);
            }
            if (c.path("finish_reason").isTextual()) {
                finish(out, c.get("finish_reason").asText());
            }
        }
        flushTgi(out);
        return out.toString();
    }

    private void tokens(StringBuilder out, String content) {
        if (firstNanos < 0) {
            firstNanos = System.nanoTime();
        }
        text.append(content);
        String[] words = content.split("(?= )");
        if (api == Api.SGLANG) {
            for (String word : words) {
                completion += word.isEmpty() ? 0 : 1;
            }
            out.append("data: {\"text\":\"").append(JsonText.escape(text.toString())).append("\",\"meta_info\":")
                    .append(meta("null", "")).append("}\n\n");
            return;
        }
        for (String word : words) {
            if (word.isEmpty()) {
                continue;
            }
            completion++;
            String w = JsonText.escape(word);
            switch (api) {
                case TGI -> {
                    flushTgi(out);
                    pendingTgi = "{\"index\":" + completion + ",\"token\":{\"id\":" + (100 + completion)
                            + ",\"text\":\"" + w + "\",\"logprob\":-0.5,\"special\":false}";
                }
                case OLLAMA_GENERATE -> out.append("{\"model\":\"").append(JsonText.escape(model)).append("\",\"created_at\":\"")
                        .append(Instant.now()).append("\",\"response\":\"").append(w).append("\",\"done\":false}\n");
                case OLLAMA_CHAT -> out.append("{\"model\":\"").append(JsonText.escape(model)).append("\",\"created_at\":\"")
                        .append(Instant.now()).append("\",\"message\":{\"role\":\"assistant\",\"content\":\"").append(w)
                        .append("\"},\"done\":false}\n");
                case LLAMACPP -> out.append("data: {\"index\":0,\"content\":\"").append(w)
                        .append("\",\"tokens\":[],\"stop\":false,\"id_slot\":0,\"tokens_predicted\":").append(completion)
                        .append(",\"tokens_evaluated\":").append(prompt).append("}\n\n");
                case SGLANG -> throw new IllegalStateException();
            }
        }
    }

    private void flushTgi(StringBuilder out) {
        flushTgiEvent(out, pendingTgi);
        pendingTgi = null;
    }

    private void finish(StringBuilder out, String reason) {
        long now = System.nanoTime();
        long first = firstNanos < 0 ? now : firstNanos;
        boolean length = reason.equals("length");
        switch (api) {
            case TGI -> {
                String last = pendingTgi;
                pendingTgi = null;
                int total = completion;
                if (!length || last == null) {
                    flushTgiEvent(out, last);
                    total++;
                    last = "{\"index\":" + total + ",\"token\":{\"id\":2,\"text\":\"</s>\",\"logprob\":-0.01,\"special\":true}";
                }
                out.append("data:").append(last).append(",\"generated_text\":\"").append(JsonText.escape(text.toString()))
                        .append("\",\"details\":{\"finish_reason\":\"").append(length ? "length" : "eos_token")
                        .append("\",\"generated_tokens\":").append(total).append(",\"seed\":null,\"input_length\":")
                        .append(prompt).append("}}\n\n");
            }
            case OLLAMA_GENERATE, OLLAMA_CHAT -> out.append("{\"model\":\"").append(JsonText.escape(model))
                    .append("\",\"created_at\":\"").append(Instant.now()).append("\",")
                    .append(api == Api.OLLAMA_CHAT ? "\"message\":{\"role\":\"assistant\",\"content\":\"\"}" : "\"response\":\"\"")
                    .append(",\"done\":true,\"done_reason\":\"").append(reason).append("\",\"total_duration\":")
                    .append(now - startNanos).append(",\"load_duration\":0,\"prompt_eval_count\":").append(prompt)
                    .append(",\"prompt_eval_duration\":").append(first - startNanos).append(",\"eval_count\":")
                    .append(completion).append(",\"eval_duration\":").append(now - first).append("}\n");
            case LLAMACPP -> out.append("data: {\"index\":0,\"content\":\"\",\"tokens\":[],\"id_slot\":0,\"stop\":true,")
                    .append("\"model\":\"").append(JsonText.escape(model)).append("\",\"tokens_predicted\":").append(completion)
                    .append(",\"tokens_evaluated\":").append(prompt).append(",\"stop_type\":\"")
                    .append(length ? "limit" : "eos").append("\",\"timings\":{\"prompt_n\":").append(prompt)
                    .append(",\"prompt_ms\":").append(ms(first - startNanos)).append(",\"predicted_n\":").append(completion)
                    .append(",\"predicted_ms\":").append(ms(now - first)).append("}}\n\n");
            case SGLANG -> out.append("data: {\"text\":\"").append(JsonText.escape(text.toString())).append("\",\"meta_info\":")
                    .append(meta(length ? "{\"type\":\"length\",\"length\":" + completion + "}"
                            : "{\"type\":\"stop\",\"matched\":2}", ",\"e2e_latency\":" + ms((now - startNanos) / 1000)))
                    .append("}\n\n");
        }
    }

    private static void flushTgiEvent(StringBuilder out, String event) {
        if (event != null) {
            out.append("data:").append(event).append(",\"generated_text\":null,\"details\":null}\n\n");
        }
    }

    private String meta(String finish, String extra) {
        return "{\"id\":\"sim\",\"finish_reason\":" + finish + ",\"prompt_tokens\":" + prompt
                + ",\"completion_tokens\":" + completion + ",\"cached_tokens\":0" + extra + "}";
    }

    private void error(StringBuilder out, String message) {
        String m = JsonText.escape(message);
        switch (api) {
            case TGI -> out.append("data:{\"error\":\"").append(m).append("\",\"error_type\":\"generation\"}\n\n");
            case OLLAMA_GENERATE, OLLAMA_CHAT -> out.append("{\"error\":\"").append(m).append("\"}\n");
            case LLAMACPP -> out.append("error: {\"code\":500,\"message\":\"").append(m)
                    .append("\",\"type\":\"server_error\"}\n\n");
            case SGLANG -> out.append("data: {\"error\":{\"message\":\"").append(m).append("\"}}\n\n");
        }
    }

    private static String ms(long nanos) {
        return String.format(Locale.ROOT, "%.3f", nanos / 1e6);
    }
}
