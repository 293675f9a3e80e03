package dev.kneepoint.sim;

import com.fasterxml.jackson.databind.JsonNode;
import java.util.ArrayList;
import java.util.List;

/**
 * The parts of an OpenAI chat or text completion request the simulator honours.
 *
 * @param chat chat completions (else text completions)
 * @param model requested model, {@code null} when absent
 * @param promptIds prompt token ids (template included for chat)
 * @param maxTokens {@code max_tokens} / {@code max_completion_tokens}, {@code null} when absent
 * @param minTokens vLLM {@code min_tokens} (0 when absent)
 * @param ignoreEos vLLM {@code ignore_eos}
 * @param stream whether to stream SSE
 * @param includeUsage {@code stream_options.include_usage}
 * @param continuousUsage vLLM {@code stream_options.continuous_usage_stats}
 * @param tools the request's {@code tools} and {@code tool_choice} (chat only; {@link ToolChoice#NONE} otherwise)
 * @param jsonKeys with a {@code response_format} of {@code json_object} or {@code json_schema}: the keys of the JSON
 *                 object the answer is ({@code answer}, or the schema's top-level {@code required} ones); else null
 */
record CompletionRequest(boolean chat, String model, long[] promptIds, Integer maxTokens, int minTokens,
                         boolean ignoreEos, boolean stream, boolean includeUsage, boolean continuousUsage,
                         ToolChoice tools, List<String> jsonKeys) {

    /** Parses a request body; {@link IllegalArgumentException} with an OpenAI-style message when invalid. */
    static CompletionRequest parse(boolean chat, JsonNode root) {
        JsonText.object(root);
        ToolChoice tools = chat ? ToolChoice.parse(root) : ToolChoice.NONE;
        long[] ids = chat ? chatPrompt(root.get("messages"), tools) : textPrompt(root.get("prompt"));
        JsonNode n = root.get("n");
        if (n != null && !n.isNull() && n.asInt(1) != 1) {
            throw new IllegalArgumentException("the simulator supports only n = 1");
        }
        Integer maxTokens = intOrNull(root, chat && root.hasNonNull("max_completion_tokens") ? "max_completion_tokens"
                : "max_tokens");
        if (maxTokens != null && maxTokens < 1) {
            throw new IllegalArgumentException("max_tokens must be at least 1, got " + maxTokens);
        }
        Integer minTokens = intOrNull(root, "min_tokens");
        int min = minTokens == null ? 0 : minTokens;
        if (min < 0 || (maxTokens != null && min > maxTokens)) {
            throw new IllegalArgumentException("min_tokens must be in [0, max_tokens], got " + min);
        }
        JsonNode so = root.get("stream_options");
        boolean includeUsage = so != null && so.path("include_usage").asBoolean(false);
        boolean continuous = so != null && so.path("continuous_usage_stats").asBoolean(false);
        String model = root.hasNonNull("model") ? root.get("model").asText() : null;
        return new CompletionRequest(chat, model, ids, maxTokens, min, root.path("ignore_eos").asBoolean(false),
                root.path("stream").asBoolean(false), includeUsage, continuous, tools, jsonKeys(root));
    }

    /** The keys of the JSON object a {@code response_format} asks for, or null when it asks for none. */
    private static List<String> jsonKeys(JsonNode root) {
        JsonNode f = root.path("response_format");
        String type = f.path("type").asText("");
        if (!type.equals("json_object") && !type.equals("json_schema")) {
            return null;
        }
        List<String> keys = new ArrayList<>();
        f.path("json_schema").path("schema").path("required").forEach(k -> keys.add(k.asText()));
        return keys.isEmpty() ? List.of("answer") : List.copyOf(keys);
    }

    /** Chat messages as the template sees them. */
    static List<ChatTemplate.Message> messages(JsonNode messages) {
        if (messages == null || !messages.isArray() || messages.isEmpty()) {
            throw new IllegalArgumentException("'messages' must be a non-empty array");
        }
        List<ChatTemplate.Message> out = new ArrayList<>();
        for (JsonNode m : messages) {
            String role = m.path("role").asText("user");
            JsonNode c = m.get("content");
            StringBuilder text = new StringBuilder();
            java.util.stream.LongStream.Builder media = java.util.stream.LongStream.builder();
            if (c != null && c.isArray()) {
                for (JsonNode part : c) {
                    String data = MediaCost.data(part);
                    if (data == null) {
                        text.append(part.path("text").asText(""));
                    } else {
                        java.util.Arrays.stream(MediaCost.tokens(data)).forEach(media::add);
                    }
                }
            } else if (c != null && !c.isNull()) {
                text.append(c.asText());
            }
            for (JsonNode image : m.path("images")) { // Ollama's
                java.util.Arrays.stream(MediaCost.tokens(image.asText())).forEach(media::add);
            }
            out.add(new ChatTemplate.Message(role, text.toString(), media.build().toArray()));
        }
        return out;
    }

    /** The messages' prompt, the tools' definitions first (as a chat template renders them), when there are any. */
    static long[] chatPrompt(JsonNode messages, ToolChoice tools) {
        List<ChatTemplate.Message> all = messages(messages);
        if (tools.definitionsJson() != null) {
            all.addFirst(new ChatTemplate.Message("tools", tools.definitionsJson()));
        }
        return ChatTemplate.encode(all);
    }

    /** Prompt ids of a text prompt: a string, or a list of token ids. */
    static long[] textPrompt(JsonNode prompt) {
        if (prompt == null || prompt.isNull()) {
            throw new IllegalArgumentException("'prompt' is required");
        }
        if (prompt.isTextual()) {
            return Tokenizer.encode(prompt.asText());
        }
        if (prompt.isArray() && prompt.size() == 1 && prompt.get(0).isTextual()) {
            return Tokenizer.encode(prompt.get(0).asText());
        }
        if (prompt.isArray() && !prompt.isEmpty() && prompt.get(0).isIntegralNumber()) {
            long[] ids = new long[prompt.size()];
            for (int i = 0; i < ids.length; i++) {
                ids[i] = prompt.get(i).asLong();
            }
            return ids;
        }
        throw new IllegalArgumentException("'prompt' must be a string or a list of token ids (batches are not supported)");
    }

    /** {@code root.field} as an integer, null when absent or null; not an integer: an error naming the field. */
    static Integer intOrNull(JsonNode root, String field) {
        JsonNode v = root.get(field);
        if (v == null || v.isNull()) {
            return null;
        }
        if (!v.isIntegralNumber()) {
            throw new IllegalArgumentException("'" + field + "' must be an integer");
        }
        return v.asInt();
    }
}
