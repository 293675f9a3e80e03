package dev.kneepoint.client;

import com.fasterxml.jackson.databind.JsonNode;
import java.util.ArrayList;
import java.util.List;

/**
 * The OpenAI Responses API, {@code POST /v1/responses} (served by vLLM and SGLang as well): SSE events whose data
 * is an object with a {@code type}. Generated text arrives as {@code response.output_text.delta} ({@code delta}),
 * reasoning as {@code response.reasoning_text.delta} or {@code response.reasoning_summary_text.delta}, a function
 * call as {@code response.output_item.added} with a {@code function_call} item (its {@code name}) and then
 * {@code response.function_call_arguments.delta} fragments. The stream ends with {@code response.completed},
 * {@code response.incomplete} or {@code response.failed}, whose {@code response} carries {@code status},
 * {@code incomplete_details.reason} and {@code usage} ({@code input_tokens}, {@code output_tokens},
 * {@code input_tokens_details.cached_tokens}, {@code output_tokens_details.reasoning_tokens}); no {@code [DONE]}
 * follows. vLLM before 0.34 ends a length stop with {@code response.completed} whose {@code status} is
 * {@code incomplete}: the status, not the event, gives the finish reason. An {@code error} event ({@code message} at the top level) is a server error. The other events
 * ({@code response.created}, {@code .in_progress}, {@code .content_part.added}, the {@code .done} ones) carry no
 * generated text. A non-streamed response is the same {@code response} object, read whole.
 *
 * <p>Finish reasons in the OpenAI words: {@code completed} is {@code stop} ({@code tool_calls} when the output
 * holds a function call), {@code incomplete} for {@code max_output_tokens} is {@code length}.
 */
final class ResponsesDecoder extends NativeDecoder {
    private boolean calledTool;

    ResponsesDecoder() {
        super(true); // sent by neither vLLM nor OpenAI; a proxy that adds one ends the stream, no error
    }

    @Override
    StreamPayload decodeObject(JsonNode n) {
        String type = NativeJson.text(n, "type");
        return switch (type) {
            case "response.output_text.delta" -> StreamPayload.Chunk.delta(NativeJson.text(n, "delta"), "");
            case "response.reasoning_text.delta", "response.reasoning_summary_text.delta" ->
                    StreamPayload.Chunk.delta("", NativeJson.text(n, "delta"));
            case "response.function_call_arguments.delta" -> StreamPayload.Chunk.toolCall(new StreamPayload.ToolCallDelta(
                    NativeJson.integer(n, "output_index"), null, null, NativeJson.text(n, "delta")));
            case "response.output_item.added" -> functionCallName(n.path("item"), NativeJson.integer(n, "output_index"));
            case "response.completed", "response.incomplete", "response.failed" -> end(n.path("response"));
            case "error" -> new StreamPayload.ServerError(errorText(n));
            case "" -> n.has("output") || n.has("status") ? whole(n) : unexpected(n);
            default -> StreamPayload.Chunk.delta("", "");
        };
    }

    /** A function call's first event (output item {@code index}): its name is its first generated text. */
    private StreamPayload functionCallName(JsonNode item, int index) {
        if (!NativeJson.text(item, "type").equals("function_call")) {
            return StreamPayload.Chunk.delta("", "");
        }
        calledTool = true;
        return StreamPayload.Chunk.toolCall(new StreamPayload.ToolCallDelta(index, NativeJson.text(item, "call_id"),
                NativeJson.text(item, "name"), ""));
    }

    /** The final event: the response's status and usage (the server's totals). */
    private StreamPayload end(JsonNode response) {
        String status = NativeJson.text(response, "status");
        if (status.equals("failed")) {
            JsonNode err = response.path("error");
            String msg = NativeJson.text(err, "message");
            return new StreamPayload.ServerError(msg.isEmpty() ? "response failed: " + OpenAiChunkDecoder.snippet(
                    response.toString()) : msg);
        }
        return ending(totals(response, "", "", List.of(), finishReason(response, status)));
    }

    /** A non-streamed response: its output items' text, reasoning and function calls, and its usage. */
    private StreamPayload whole(JsonNode response) {
        StringBuilder content = new StringBuilder();
        StringBuilder reasoning = new StringBuilder();
        List<StreamPayload.ToolCallDelta> tools = new ArrayList<>();
        int index = 0;
        for (JsonNode item : response.path("output")) {
            switch (NativeJson.text(item, "type")) {
                case "message" -> item.path("content").forEach(p -> content.append(NativeJson.text(p, "text")));
                case "reasoning" -> {
                    item.path("content").forEach(p -> reasoning.append(NativeJson.text(p, "text")));
                    item.path("summary").forEach(p -> reasoning.append(NativeJson.text(p, "text")));
                }
                case "function_call" -> {
                    calledTool = true;
                    tools.add(new StreamPayload.ToolCallDelta(index, NativeJson.text(item, "call_id"),
                            NativeJson.text(item, "name"), NativeJson.text(item, "arguments")));
                }
                default -> {
                }
            }
            index++;
        }
        String status = NativeJson.text(response, "status");
        if (status.equals("failed")) {
            return end(response);
        }
        return ending(totals(response, content.toString(), reasoning.toString(), tools,
                finishReason(response, status)));
    }

    private String finishReason(JsonNode response, String status) {
        if (status.equals("incomplete")) {
            String why = NativeJson.text(response.path("incomplete_details"), "reason");
            return why.equals("max_output_tokens") || why.isEmpty() ? "length" : why;
        }
        return calledTool ? "tool_calls" : "stop";
    }

    private static StreamPayload.Chunk totals(JsonNode response, String content, String reasoning,
                                              List<StreamPayload.ToolCallDelta> tools,
                                              String finish) {
        JsonNode usage = response.path("usage");
        return new StreamPayload.Chunk(content, reasoning, null, finish, 0, NativeJson.integer(usage, "input_tokens"),
                NativeJson.integer(usage, "output_tokens"),
                NativeJson.integer(usage.path("output_tokens_details"), "reasoning_tokens"), null, tools,
                NativeJson.integer(usage.path("input_tokens_details"), "cached_tokens"));
    }


    private static String errorText(JsonNode n) {
        String msg = NativeJson.text(n, "message");
        String code = NativeJson.text(n, "code");
        return msg.isEmpty() ? OpenAiChunkDecoder.snippet(n.toString()) : code.isEmpty() ? msg : code + ": " + msg;
    }

    private static StreamPayload unexpected(JsonNode n) {
        return new StreamPayload.Malformed("a Responses API event without a type: "
                + OpenAiChunkDecoder.snippet(n.toString()));
    }
}
