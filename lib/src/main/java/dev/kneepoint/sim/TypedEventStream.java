package dev.kneepoint.sim;

import com.fasterxml.jackson.core.JsonProcessingException;
import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.node.ArrayNode;
import com.fasterxml.jackson.databind.node.ObjectNode;

/**
 * The simulator's typed-event chat APIs, both served by vLLM beside chat completions: OpenAI's Responses API
 * ({@code POST /v1/responses}) and Anthropic's Messages API ({@code POST /v1/messages}). A request is rewritten
 * into the chat request the engine serves ({@link #openAiRequest}) and the engine's stream, write by write, into
 * named SSE events ({@code event:} then {@code data:} with the same {@code type}). Streaming only.
 *
 * <p>Responses: {@code response.created}, {@code response.output_item.added} (a message),
 * {@code response.content_part.added}, one {@code response.output_text.delta} per engine write, then
 * {@code response.output_text.done}, {@code response.content_part.done}, {@code response.output_item.done} and
 * {@code response.completed} (or {@code response.incomplete} with {@code incomplete_details.reason}
 * {@code max_output_tokens}) whose {@code response.usage} has {@code input_tokens},
 * {@code input_tokens_details.cached_tokens}, {@code output_tokens} and {@code output_tokens_details}; errors as an
 * {@code error} event. Messages: {@code message_start} (with {@code usage.input_tokens}), a text
 * {@code content_block_start}, one {@code content_block_delta} ({@code text_delta}) per engine write,
 * {@code content_block_stop}, {@code message_delta} ({@code stop_reason} {@code end_turn} or {@code max_tokens};
 * {@code usage.output_tokens}, {@code input_tokens}: those no cache held, {@code cache_read_input_tokens}) and
 * {@code message_stop};
 * errors as an {@code error} event with {@code error.type} and {@code error.message}. Neither sends {@code [DONE]}.
 */
final class TypedEventStream implements StreamTranslator {

    /** The two APIs, at {@code /v1/responses} and {@code /v1/messages}. */
    enum Api { RESPONSES, MESSAGES }

    private final Api api;
    private final String model;
    private final StringBuilder text = new StringBuilder();
    private boolean started;
    private String finish;
    private int prompt;
    private int completion;
    private int cached;
    private int sequence;
    /** The function the answer calls (null: a text answer), and its call's id. */
    private String toolName;
    private String callId;

    TypedEventStream(Api api, String model) {
        this.api = api;
        this.model = model;
    }

    /**
     * The chat request equivalent to a Responses or Messages request (streaming with continuous usage): the
     * Responses API's {@code instructions} and {@code input} (a string or message items), the Messages API's
     * {@code system} and {@code messages}, as chat messages; {@code max_output_tokens} or {@code max_tokens};
     * vLLM's {@code ignore_eos} and {@code min_tokens}.
     *
     * @throws IllegalArgumentException when the request does not stream or has no messages
     */
    static ObjectNode openAiRequest(Api api, JsonNode in) {
        JsonText.object(in);
        if (!in.path("stream").asBoolean(false)) {
            throw new IllegalArgumentException("the simulator's " + (api == Api.RESPONSES ? "/v1/responses"
                    : "/v1/messages") + " only streams: send \"stream\": true");
        }
        ObjectNode out = JsonText.MAPPER.createObjectNode();
        ArrayNode messages = out.putArray("messages");
        JsonNode system = in.get(api == Api.RESPONSES ? "instructions" : "system");
        if (system != null && !system.isNull()) {
            messages.addObject().put("role", "system").set("content", system);
        }
        JsonNode input = in.get(api == Api.RESPONSES ? "input" : "messages");
        if (input != null && input.isTextual() && api == Api.RESPONSES) {
            messages.addObject().put("role", "user").set("content", input);
        } else if (input != null && input.isArray()) {
            input.forEach(m -> messages.add(chatMessage(m)));
        }
        tools(in, out);
        if (messages.isEmpty()) {
            throw new IllegalArgumentException(api == Api.RESPONSES ? "'input' must be a string or a non-empty array"
                    : "'messages' must be a non-empty array");
        }
        String max = api == Api.RESPONSES ? "max_output_tokens" : "max_tokens";
        if (in.hasNonNull(max)) {
            out.set("max_tokens", in.get(max));
        }
        for (String field : new String[] {"model", "ignore_eos", "min_tokens"}) {
            if (in.hasNonNull(field)) {
                out.set(field, in.get(field));
            }
        }
        out.put("stream", true);
        out.putObject("stream_options").put("include_usage", true).put("continuous_usage_stats", true);
        return out;
    }

    /**
     * A Responses input item or a Messages message as a chat message: a tool's result ({@code function_call_output},
     * a {@code tool_result} block) as a {@code tool} message, the model's earlier call as an assistant message.
     */
    private static JsonNode chatMessage(JsonNode m) {
        String type = m.path("type").asText("");
        if (type.equals("function_call_output")) {
            return JsonText.MAPPER.createObjectNode().put("role", "tool").put("content", m.path("output").asText(""));
        }
        if (type.equals("function_call")) {
            return JsonText.MAPPER.createObjectNode().put("role", "assistant").put("content", "");
        }
        for (JsonNode block : m.path("content")) {
            if (block.path("type").asText("").equals("tool_result")) {
                JsonNode c = block.path("content");
                return JsonText.MAPPER.createObjectNode().put("role", "tool")
                        .put("content", c.isTextual() ? c.asText() : c.toString());
            }
        }
        return m;
    }

    /**
     * The request's tools and tool choice in chat's shape: the Responses API's flat functions ({@code name},
     * {@code parameters}) and the Messages API's ({@code name}, {@code input_schema}); a choice of {@code any} is
     * chat's {@code required}, a named tool or function chat's named function.
     */
    private static void tools(JsonNode in, ObjectNode out) {
        JsonNode tools = in.get("tools");
        if (tools != null && tools.isArray()) {
            ArrayNode chat = out.putArray("tools");
            for (JsonNode t : tools) {
                ObjectNode f = chat.addObject().put("type", "function").putObject("function");
                f.put("name", t.path("name").asText(""));
                if (t.has("description")) {
                    f.set("description", t.get("description"));
                }
                f.set("parameters", t.has("parameters") ? t.get("parameters") : t.path("input_schema"));
            }
        }
        JsonNode choice = in.get("tool_choice");
        if (choice != null && !choice.isNull()) {
            String type = choice.isTextual() ? choice.asText() : choice.path("type").asText("");
            String name = choice.path("name").asText(null);
            if (name != null) {
                out.putObject("tool_choice").put("type", "function").putObject("function").put("name", name);
            } else {
                out.put("tool_choice", type.equals("any") ? "required" : type);
            }
        }
    }

    @Override
    public String contentType() {
        return "text/event-stream; charset=utf-8";
    }

    @Override
    public String translate(String chunk) {
        StringBuilder out = new StringBuilder(chunk.length() + 256);
        for (String event : chunk.split("\n\n")) {
            String data = event.startsWith("data: ") ? event.substring(6) : event;
            if (data.isEmpty()) {
                continue;
            }
            if (data.equals("[DONE]")) {
                if (finish != null) {
                    end(out);
                }
                continue;
            }
            JsonNode n;
            try {
                n = JsonText.MAPPER.readTree(data);
            } catch (JsonProcessingException e) {
                out.append("data: ").append(data).append("\n\n"); // a malformed-event fault passes as it is
                continue;
            }
            if (n.hasNonNull("error")) {
                error(out, n.get("error").path("message").asText("error"));
                continue;
            }
            JsonNode usage = n.path("usage");
            if (usage.isObject()) {
                prompt = usage.path("prompt_tokens").asInt(prompt);
                completion = usage.path("completion_tokens").asInt(completion);
                cached = usage.path("prompt_tokens_details").path("cached_tokens").asInt(cached);
            }
            JsonNode choices = n.path("choices");
            if (!choices.isArray() || choices.isEmpty()) {
                continue;
            }
            JsonNode c = choices.get(0);
            if (!started) {
                start(out, c.path("delta"));
            }
            String content = c.path("delta").path("content").asText("");
            if (!content.isEmpty()) {
                delta(out, content);
            }
            JsonNode call = c.path("delta").path("tool_calls").path(0).path("function");
            if (!call.path("arguments").asText("").isEmpty()) {
                toolDelta(out, call.get("arguments").asText());
            }
            if (c.path("finish_reason").isTextual()) {
                finish = c.get("finish_reason").asText();
            }
        }
        return out.toString();
    }

    /** The stream's opening events, for a text answer or (the first delta names a function) a tool call. */
    private void start(StringBuilder out, JsonNode firstDelta) {
        started = true;
        JsonNode call = firstDelta.path("tool_calls").path(0);
        if (call.isObject()) {
            toolName = call.path("function").path("name").asText("tool");
            callId = call.path("id").asText("call_sim");
        }
        if (api == Api.MESSAGES) {
            event(out, "message_start", "\"message\":{\"id\":\"msg_sim\",\"type\":\"message\",\"role\":\"assistant\","
                    + "\"model\":\"" + JsonText.escape(model) + "\",\"content\":[],\"stop_reason\":null,"
                    + "\"stop_sequence\":null,\"usage\":{\"input_tokens\":" + prompt + ",\"output_tokens\":0}}");
            event(out, "content_block_start", "\"index\":0,\"content_block\":" + (toolName == null
                    ? "{\"type\":\"text\",\"text\":\"\"}" : "{\"type\":\"tool_use\",\"id\":\"" + JsonText.escape(callId)
                    + "\",\"name\":\"" + JsonText.escape(toolName) + "\",\"input\":{}}"));
            return;
        }
        event(out, "response.created", "\"response\":" + response("in_progress", "null", "[]", "null"));
        if (toolName != null) {
            event(out, "response.output_item.added", "\"output_index\":0,\"item\":" + functionCall("in_progress"));
            return;
        }
        event(out, "response.output_item.added", "\"output_index\":0,\"item\":" + message("in_progress", "[]"));
        event(out, "response.content_part.added", PART + ",\"part\":{\"type\":\"output_text\",\"text\":\"\","
                + "\"annotations\":[]}");
    }

    /** A fragment of the call's arguments (JSON text). */
    private void toolDelta(StringBuilder out, String arguments) {
        text.append(arguments);
        String a = JsonText.escape(arguments);
        if (api == Api.MESSAGES) {
            event(out, "content_block_delta", "\"index\":0,\"delta\":{\"type\":\"input_json_delta\",\"partial_json\":\""
                    + a + "\"}");
        } else {
            event(out, "response.function_call_arguments.delta", "\"item_id\":\"fc_sim\",\"output_index\":0,"
                    + "\"delta\":\"" + a + "\"");
        }
    }

    /** The call as a Responses output item; its arguments so far. */
    private String functionCall(String status) {
        return "{\"id\":\"fc_sim\",\"type\":\"function_call\",\"status\":\"" + status + "\",\"call_id\":\""
                + JsonText.escape(callId) + "\",\"name\":\"" + JsonText.escape(toolName) + "\",\"arguments\":\""
                + JsonText.escape(text.toString()) + "\"}";
    }

    private void delta(StringBuilder out, String content) {
        text.append(content);
        String t = JsonText.escape(content);
        if (api == Api.MESSAGES) {
            event(out, "content_block_delta", "\"index\":0,\"delta\":{\"type\":\"text_delta\",\"text\":\"" + t + "\"}");
        } else {
            event(out, "response.output_text.delta", PART + ",\"delta\":\"" + t + "\",\"logprobs\":[]");
        }
    }

    private void end(StringBuilder out) {
        boolean length = finish.equals("length");
        if (api == Api.MESSAGES) {
            event(out, "content_block_stop", "\"index\":0");
            event(out, "message_delta", "\"delta\":{\"stop_reason\":\"" + (length ? "max_tokens"
                    : toolName != null ? "tool_use" : "end_turn")
                    + "\",\"stop_sequence\":null},\"usage\":{\"input_tokens\":" + (prompt - cached) + ",\"output_tokens\":"
                    + completion + ",\"cache_read_input_tokens\":" + cached + "}");
            event(out, "message_stop", "");
            return;
        }
        String usage = "{\"input_tokens\":" + prompt + ",\"input_tokens_details\":{\"cached_tokens\":" + cached
                + "},\"output_tokens\":" + completion + ",\"output_tokens_details\":{\"reasoning_tokens\":0},"
                + "\"total_tokens\":" + (prompt + completion) + "}";
        String status = length ? "incomplete" : "completed";
        String incomplete = length ? "{\"reason\":\"max_output_tokens\"}" : "null";
        if (toolName != null) {
            event(out, "response.function_call_arguments.done", "\"item_id\":\"fc_sim\",\"output_index\":0,"
                    + "\"arguments\":\"" + JsonText.escape(text.toString()) + "\"");
            String item = functionCall(status);
            event(out, "response.output_item.done", "\"output_index\":0,\"item\":" + item);
            event(out, "response." + status, "\"response\":" + response(status, incomplete, "[" + item + "]", usage));
            return;
        }
        String all = JsonText.escape(text.toString());
        String part = "{\"type\":\"output_text\",\"text\":\"" + all + "\",\"annotations\":[]}";
        event(out, "response.output_text.done", PART + ",\"text\":\"" + all + "\",\"logprobs\":[]");
        event(out, "response.content_part.done", PART + ",\"part\":" + part);
        String item = message("completed", "[" + part + "]");
        event(out, "response.output_item.done", "\"output_index\":0,\"item\":" + item);
        event(out, "response." + status, "\"response\":" + response(status, incomplete, "[" + item + "]", usage));
    }

    private void error(StringBuilder out, String message) {
        String m = JsonText.escape(message);
        if (api == Api.MESSAGES) {
            event(out, "error", "\"error\":{\"type\":\"api_error\",\"message\":\"" + m + "\"}");
        } else {
            event(out, "error", "\"code\":\"server_error\",\"message\":\"" + m + "\",\"param\":null");
        }
    }

    private static final String PART = "\"item_id\":\"msg_sim\",\"output_index\":0,\"content_index\":0";

    private String response(String status, String incomplete, String output, String usage) {
        return "{\"id\":\"resp_sim\",\"object\":\"response\",\"model\":\"" + JsonText.escape(model) + "\",\"status\":\""
                + status + "\",\"incomplete_details\":" + incomplete + ",\"output\":" + output + ",\"usage\":" + usage
                + "}";
    }

    private static String message(String status, String content) {
        return "{\"id\":\"msg_sim\",\"type\":\"message\",\"status\":\"" + status + "\",\"role\":\"assistant\","
                + "\"content\":" + content + "}";
    }

    /** One named event: {@code event: TYPE}, then its data object with {@code type} first (and a sequence number). */
    private void event(StringBuilder out, String type, String fields) {
        out.append("event: ").append(type).append("\ndata: {\"type\":\"").append(type).append('"');
        if (api == Api.RESPONSES) {
            out.append(",\"sequence_number\":").append(sequence++);
        }
        out.append(fields.isEmpty() ? "" : ",").append(fields).append("}\n\n");
    }
}
