package dev.kneepoint.workload;

import com.fasterxml.jackson.databind.JsonNode;
import dev.kneepoint.request.RequestSpec;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.function.BiFunction;

/**
 * One dataset line, parsed. Three shapes are accepted (one JSON object per line):
 * <ul>
 *   <li>OpenAI chat: {@code {"messages":[{"role":"user","content":"..."}, ...]}} (content a string or a
 *       list of {@code {"type":"text","text":...}} parts); trailing assistant messages are dropped;</li>
 *   <li>ShareGPT: {@code {"conversations":[{"from":"human","value":"..."},{"from":"gpt",...}]}}
 *       ({@code human}/{@code user}, {@code gpt}/{@code assistant}/{@code chatgpt}/{@code bard}, {@code system});</li>
 *   <li>plain: {@code {"prompt":"...", "system":"..."(optional)}}.</li>
 * </ul>
 * Optional on every shape: {@code output_tokens} (or {@code expected_output_tokens}, {@code max_tokens}):
 * the output length to ask for; {@code prompt_tokens}: the prompt's known length; {@code tag}.
 */
record DatasetRecord(List<RequestSpec.ChatMessage> messages, int outputTokens, int promptTokens, String tag) {

    private static final Map<String, String> SHAREGPT_ROLES = Map.of(
            "human", "user", "user", "user", "gpt", "assistant", "assistant", "assistant",
            "chatgpt", "assistant", "bard", "assistant", "bing", "assistant", "system", "system");

    /** Parses one line's JSON; throws IllegalArgumentException naming the problem. */
    static DatasetRecord parse(JsonNode n) {
        if (n == null || !n.isObject()) {
            throw new IllegalArgumentException("expected a JSON object");
        }
        List<RequestSpec.ChatMessage> msgs = new ArrayList<>();
        if (n.has("messages")) {
            msgs.addAll(list(n, "messages", DatasetRecord::openAi));
        } else if (n.has("conversations")) {
            msgs.addAll(list(n, "conversations", DatasetRecord::shareGpt));
        } else if (n.has("prompt")) {
            if (n.has("system")) {
                msgs.add(new RequestSpec.ChatMessage("system", text(n.get("system"), "system")));
            }
            msgs.add(new RequestSpec.ChatMessage("user", text(n.get("prompt"), "prompt")));
        } else {
            throw new IllegalArgumentException("no 'messages', 'conversations' or 'prompt' field");
        }
        while (!msgs.isEmpty() && msgs.get(msgs.size() - 1).role().equals("assistant")) {
            msgs.remove(msgs.size() - 1);
        }
        if (msgs.isEmpty() || !msgs.get(msgs.size() - 1).role().equals("user")) {
            throw new IllegalArgumentException("no user message to answer (the last non-assistant message must be a user one)");
        }
        int out = -1;
        for (String f : List.of("output_tokens", "expected_output_tokens", "max_tokens")) {
            if (n.has(f)) {
                out = positiveInt(n.get(f), f);
                break;
            }
        }
        int in = n.has("prompt_tokens") ? positiveInt(n.get("prompt_tokens"), "prompt_tokens") : -1;
        String tag = n.has("tag") ? text(n.get("tag"), "tag") : null;
        return new DatasetRecord(msgs, out, in, tag);
    }

    /** The messages of the non-empty list {@code field}, {@code message} reading each with its place ({@code field[i]}). */
    private static List<RequestSpec.ChatMessage> list(JsonNode n, String field,
                                                      BiFunction<JsonNode, String, RequestSpec.ChatMessage> message) {
        JsonNode arr = n.get(field);
        if (!arr.isArray() || arr.isEmpty()) {
            throw new IllegalArgumentException("'" + field + "' must be a non-empty list");
        }
        List<RequestSpec.ChatMessage> msgs = new ArrayList<>();
        for (int i = 0; i < arr.size(); i++) {
            msgs.add(message.apply(arr.get(i), field + "[" + i + "]"));
        }
        return msgs;
    }

    /** An OpenAI chat message, {@code {"role", "content"}}, at {@code at}. */
    private static RequestSpec.ChatMessage openAi(JsonNode m, String at) {
        String role = text(m.get("role"), at + ".role");
        return new RequestSpec.ChatMessage(role, content(m.get("content"), at + ".content"));
    }

    /** A ShareGPT message, {@code {"from", "value"}}, at {@code at}. */
    private static RequestSpec.ChatMessage shareGpt(JsonNode m, String at) {
        String from = text(m.get("from"), at + ".from");
        String role = SHAREGPT_ROLES.get(from.toLowerCase(java.util.Locale.ROOT));
        if (role == null) {
            throw new IllegalArgumentException(at + ".from '" + from + "' is not one of human, gpt, system");
        }
        return new RequestSpec.ChatMessage(role, text(m.get("value"), at + ".value"));
    }

    private static String text(JsonNode v, String field) {
        if (v == null || !v.isTextual()) {
            throw new IllegalArgumentException("'" + field + "' must be a string");
        }
        return v.asText();
    }

    private static String content(JsonNode v, String field) {
        if (v != null && v.isArray()) {
            StringBuilder sb = new StringBuilder();
            for (JsonNode part : v) {
                if (part.has("text")) {
                    sb.append(text(part.get("text"), field + "[].text"));
                }
            }
            return sb.toString();
        }
        return text(v, field);
    }

    private static int positiveInt(JsonNode v, String field) {
        if (v == null || !v.canConvertToInt() || !v.isIntegralNumber() || v.asInt() < 1) {
            throw new IllegalArgumentException("'" + field + "' must be a positive integer, got " + v);
        }
        return v.asInt();
    }
}
