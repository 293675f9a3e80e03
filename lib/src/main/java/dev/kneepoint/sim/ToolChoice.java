package dev.kneepoint.sim;

import com.fasterxml.jackson.databind.JsonNode;
import java.util.ArrayList;
import java.util.List;
import java.util.SplittableRandom;

/**
 * What a chat request's {@code tools} and {@code tool_choice} ask of the simulator, and its answer: a tool call or
 * text. {@code required} or a named function always calls; {@code auto} (the default when tools are given) calls
 * unless the conversation's last message is a tool's result, so that an agent-style exchange (call, result, answer)
 * ends; {@code none}, or no tools, answers with text. Under {@code auto} and {@code required} the function is one
 * of the tools, drawn by the request's own random stream (deterministic per request).
 *
 * @param names          the functions' names, in order; empty without tools
 * @param mode           {@code auto}, {@code required} or {@code none}
 * @param forced         the function {@code tool_choice} names, or null
 * @param afterToolResult true when the last message has the role {@code tool}
 * @param definitionsJson the {@code tools} array as JSON text (rendered into the prompt), or null without tools
 */
record ToolChoice(List<String> names, String mode, String forced, boolean afterToolResult, String definitionsJson) {
    static final ToolChoice NONE = new ToolChoice(List.of(), "none", null, false, null);

    /** Parses a chat request's tool fields; {@link IllegalArgumentException} with an OpenAI-style message when invalid. */
    static ToolChoice parse(JsonNode root) {
        JsonNode tools = root.get("tools");
        JsonNode choice = root.get("tool_choice");
        if (tools == null || tools.isNull() || (tools.isArray() && tools.isEmpty())) {
            if (choice != null && !choice.isNull() && !"none".equals(choice.asText()) && !"auto".equals(choice.asText())) {
                throw new IllegalArgumentException("tool_choice " + choice + " needs 'tools': give the functions the "
                        + "model may call, or drop tool_choice");
            }
            return NONE;
        }
        if (!tools.isArray()) {
            throw new IllegalArgumentException("'tools' must be an array of {\"type\":\"function\",\"function\":{...}}");
        }
        List<String> names = new ArrayList<>();
        for (JsonNode t : tools) {
            String name = t.path("function").path("name").asText("");
            if (!"function".equals(t.path("type").asText()) || name.isEmpty()) {
                throw new IllegalArgumentException("each tool must be {\"type\":\"function\",\"function\":{\"name\":...}}"
                        + ", got " + snippet(t.toString()));
            }
            names.add(name);
        }
        String mode = "auto";
        String forced = null;
        if (choice != null && !choice.isNull()) {
            if (choice.isTextual() && List.of("auto", "required", "none").contains(choice.asText())) {
                mode = choice.asText();
            } else if (choice.isObject() && choice.path("function").path("name").isTextual()) {
                forced = choice.path("function").path("name").asText();
                mode = "required";
                if (!names.contains(forced)) {
                    throw new IllegalArgumentException("tool_choice names the function '" + forced
                            + "', which is not among the tools " + names);
                }
            } else {
                throw new IllegalArgumentException("tool_choice must be \"auto\", \"required\", \"none\" or "
                        + "{\"type\":\"function\",\"function\":{\"name\":...}}, got " + snippet(choice.toString()));
            }
        }
        JsonNode messages = root.path("messages");
        boolean afterResult = messages.isArray() && !messages.isEmpty()
                && "tool".equals(messages.get(messages.size() - 1).path("role").asText());
        return new ToolChoice(List.copyOf(names), mode, forced, afterResult, tools.toString());
    }

    /** The function this answer calls, or null for a text answer. */
    String call(SplittableRandom random) {
        if (names.isEmpty() || mode.equals("none") || (mode.equals("auto") && afterToolResult)) {
            return null;
        }
        return forced != null ? forced : names.get(random.nextInt(names.size()));
    }

    private static String snippet(String s) {
        return s.length() <= 120 ? s : s.substring(0, 120) + "...";
    }
}
