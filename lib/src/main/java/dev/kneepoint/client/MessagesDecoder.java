package dev.kneepoint.client;

import com.fasterxml.jackson.databind.JsonNode;
import java.util.ArrayList;
import java.util.List;

/**
 * The Anthropic Messages API, {@code POST /v1/messages} (served by vLLM as well): SSE events whose data is an
 * object with a {@code type}. {@code message_start} carries {@code message.usage.input_tokens} (the prompt tokens
 * no cache held) and {@code cache_read_input_tokens} (those a prompt cache held; vLLM with
 * {@code --enable-prompt-tokens-details}); generated text arrives as
 * {@code content_block_delta} with a {@code text_delta} ({@code text}), thinking as a {@code thinking_delta}
 * ({@code thinking}), a tool call as a {@code content_block_start} with a {@code tool_use} block (its
 * {@code name}) and then {@code input_json_delta} fragments ({@code partial_json}). {@code message_delta} carries
 * {@code delta.stop_reason} and {@code usage.output_tokens} (the total so far, final on that event; vLLM repeats
 * the input counts there), and {@code message_stop} ends the stream (vLLM before 0.34 sends a {@code [DONE]} after
 * it). An {@code error} event is a server error; {@code ping}
 * and the block start/stop events carry no generated text. A non-streamed answer is the {@code message} object,
 * read whole.
 *
 * <p>Finish reasons in the OpenAI words: {@code end_turn} and {@code stop_sequence} are {@code stop},
 * {@code max_tokens} is {@code length}, {@code tool_use} is {@code tool_calls}.
 */
final class MessagesDecoder extends NativeDecoder {

    MessagesDecoder() {
        super(true); // vLLM releases before 0.34 send [DONE] after message_stop
    }

    @Override
    StreamPayload decodeObject(JsonNode n) {
        return switch (NativeJson.text(n, "type")) {
            case "content_block_delta" -> delta(n.path("delta"), NativeJson.integer(n, "index"));
            case "content_block_start" -> {
                JsonNode block = n.path("content_block");
                yield NativeJson.text(block, "type").equals("tool_use")
                        ? StreamPayload.Chunk.toolCall(new StreamPayload.ToolCallDelta(NativeJson.integer(n, "index"),
                                NativeJson.text(block, "id"), NativeJson.text(block, "name"), ""))
                        : StreamPayload.Chunk.delta("", "");
            }
            case "message_start" -> prompt(n.path("message").path("usage"));
            case "message_delta" -> {
                String stop = NativeJson.text(n.path("delta"), "stop_reason");
                JsonNode usage = n.path("usage");
                yield new StreamPayload.Chunk("", "", null, stop.isEmpty() ? null : finishReason(stop), 0,
                        promptTokens(usage), NativeJson.integer(usage, "output_tokens"), -1, null, null,
                        NativeJson.integer(usage, "cache_read_input_tokens"));
            }
            case "message_stop" -> ending(StreamPayload.Chunk.delta("", ""));
            case "message" -> whole(n);
            case "" -> new StreamPayload.Malformed("a Messages API event without a type: "
                    + OpenAiChunkDecoder.snippet(n.toString()));
            default -> StreamPayload.Chunk.delta("", "");
        };
    }

    /** A {@code content_block_delta}'s delta, of content block {@code index}. */
    private static StreamPayload delta(JsonNode d, int index) {
        return switch (NativeJson.text(d, "type")) {
            case "text_delta" -> StreamPayload.Chunk.delta(NativeJson.text(d, "text"), "");
            case "thinking_delta" -> StreamPayload.Chunk.delta("", NativeJson.text(d, "thinking"));
            case "input_json_delta" -> StreamPayload.Chunk.toolCall(
                    new StreamPayload.ToolCallDelta(index, null, null, NativeJson.text(d, "partial_json")));
            default -> StreamPayload.Chunk.delta("", "");
        };
    }

    /** The prompt's count and its cached share; the output count of this event is not the final one. */
    private static StreamPayload.Chunk prompt(JsonNode usage) {
        return new StreamPayload.Chunk("", "", "assistant", null, 1, promptTokens(usage), -1, -1, null, null,
                NativeJson.integer(usage, "cache_read_input_tokens"));
    }

    /**
     * The whole prompt: {@code input_tokens} counts only the tokens no cache held, so the cache's reads and writes
     * ({@code cache_read_input_tokens}, {@code cache_creation_input_tokens}) are added back; -1 when none is said.
     */
    private static int promptTokens(JsonNode usage) {
        int input = NativeJson.integer(usage, "input_tokens");
        return input < 0 ? -1 : input + Math.max(0, NativeJson.integer(usage, "cache_read_input_tokens"))
                + Math.max(0, NativeJson.integer(usage, "cache_creation_input_tokens"));
    }

    /** A non-streamed message: its content blocks (text, thinking, tool uses) and its usage. */
    private StreamPayload whole(JsonNode m) {
        StringBuilder content = new StringBuilder();
        StringBuilder thinking = new StringBuilder();
        List<StreamPayload.ToolCallDelta> tools = new ArrayList<>();
        int index = 0;
        for (JsonNode block : m.path("content")) {
            switch (NativeJson.text(block, "type")) {
                case "text" -> content.append(NativeJson.text(block, "text"));
                case "thinking" -> thinking.append(NativeJson.text(block, "thinking"));
                case "tool_use" -> tools.add(new StreamPayload.ToolCallDelta(index, NativeJson.text(block, "id"),
                        NativeJson.text(block, "name"), block.path("input").toString()));
                default -> {
                }
            }
            index++;
        }
        JsonNode usage = m.path("usage");
        String stop = NativeJson.text(m, "stop_reason");
        return ending(new StreamPayload.Chunk(content.toString(), thinking.toString(), "assistant",
                finishReason(stop.isEmpty() ? "end_turn" : stop), 0, promptTokens(usage),
                NativeJson.integer(usage, "output_tokens"), -1, null, tools,
                NativeJson.integer(usage, "cache_read_input_tokens")));
    }

    private static String finishReason(String stop) {
        return switch (stop) {
            case "end_turn", "stop_sequence" -> "stop";
            case "max_tokens" -> "length";
            case "tool_use" -> "tool_calls";
            default -> stop;
        };
    }
}
