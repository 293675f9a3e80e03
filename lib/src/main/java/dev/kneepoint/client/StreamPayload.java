package dev.kneepoint.client;

import java.util.List;
import java.util.Map;
import java.util.Objects;

/**
 * One decoded payload of a response stream (or a whole non-streaming response): a chunk, the
 * {@code [DONE]} marker, an error object sent by the server, or something that could not be decoded.
 * The native APIs' events (TGI, Ollama, llama.cpp, SGLang) are mapped onto the same {@link Chunk}
 * fields by their decoders: generated text to {@code content}, thinking to {@code reasoning}, the
 * server's cumulative or total count to {@code completionTokens} ({@code choices} 0 or a finish
 * reason marks it final), phase timings to {@code timings}.
 */
sealed interface StreamPayload {

    /** The {@code [DONE]} sentinel that ends an OpenAI stream. */
    record Done() implements StreamPayload {
    }

    /** Shared instance of {@link Done}. */
    Done DONE = new Done();

    /** An error object in the stream ({@code {"error":{...}}} or {@code {"object":"error",...}}). */
    record ServerError(String message) implements StreamPayload {
        public ServerError {
            message = Objects.requireNonNullElse(message, "");
        }
    }

    /**
     * The answer of a pooling API ({@link ApiKind#isPooling()}): no generated tokens, {@code items} vectors or results.
     *
     * @param items        embedding vectors, rerank results or scores the answer returned
     * @param promptTokens the prompt tokens its usage reported, -1 when absent
     * @param timings      server-reported phase timings in ms (Ollama's {@code *_duration}), possibly empty
     */
    record Pooled(int items, int promptTokens, Map<String, Double> timings) implements StreamPayload {
        public Pooled {
            timings = timings == null ? Map.of() : Map.copyOf(timings);
        }
    }

    /** Not valid JSON, or JSON of an unexpected shape. */
    record Malformed(String message) implements StreamPayload {
        public Malformed {
            message = Objects.requireNonNullElse(message, "");
        }
    }

    /**
     * A {@code chat.completion.chunk}, {@code text_completion} or non-streaming completion.
     *
     * @param content          generated text ({@code delta.content}, {@code message.content} or {@code text}); "" when none
     * @param reasoning        reasoning text ({@code reasoning_content} or {@code reasoning}); "" when none
     * @param role             the role announced by the chunk, or null
     * @param finishReason     the first non-null {@code finish_reason}, or null
     * @param choices          number of entries in {@code choices} (0 for a usage-only chunk), -1 when absent
     * @param promptTokens     {@code usage.prompt_tokens}, -1 when absent
     * @param completionTokens {@code usage.completion_tokens} (cumulative under continuous usage), -1 when absent
     * @param reasoningTokens  {@code usage.completion_tokens_details.reasoning_tokens}, -1 when absent
     * @param timings          server-reported phase timings and counts (llama.cpp {@code timings}, Ollama
     *                         {@code *_duration} in ms, TGI {@code details}, SGLang {@code meta_info}), possibly empty
     * @param toolCalls        the tool-call fragments the chunk carries, in order: each {@code tool_calls} entry (and the
     *                         legacy {@code function_call}, the Messages API's {@code tool_use} block, the Responses
     *                         API's {@code function_call} item and argument deltas); empty when none
     * @param cachedTokens     {@code usage.prompt_tokens_details.cached_tokens}: prompt tokens the server's prefix
     *                         cache held; -1 when absent
     */
    record Chunk(String content, String reasoning, String role, String finishReason, int choices,
                 int promptTokens, int completionTokens, int reasoningTokens, Map<String, Double> timings,
                 List<ToolCallDelta> toolCalls, int cachedTokens)
            implements StreamPayload {
        public Chunk {
            content = Objects.requireNonNullElse(content, "");
            reasoning = Objects.requireNonNullElse(reasoning, "");
            timings = timings == null ? Map.of() : Map.copyOf(timings);
            toolCalls = toolCalls == null ? List.of() : List.copyOf(toolCalls);
        }

        /** A chunk without tool calls or a cached count (the native APIs' decoders, whose streams have neither). */
        public Chunk(String content, String reasoning, String role, String finishReason, int choices,
                     int promptTokens, int completionTokens, int reasoningTokens, Map<String, Double> timings) {
            this(content, reasoning, role, finishReason, choices, promptTokens, completionTokens, reasoningTokens,
                    timings, List.of(), -1);
        }

        /** A chunk of generated text only (each part may be ""): a native stream's delta event. */
        static Chunk delta(String content, String reasoning) {
            return new Chunk(content, reasoning, null, null, 1, -1, -1, -1, null, List.of(), -1);
        }

        /** A chunk of one tool-call fragment only: a native stream's tool-call event. */
        static Chunk toolCall(ToolCallDelta call) {
            return new Chunk("", "", null, null, 1, -1, -1, -1, null, List.of(call), -1);
        }

        /**
         * True when the chunk carries generated text (content, reasoning or a tool call's name or arguments): a
         * token-carrying event.
         */
        public boolean carriesText() {
            return !content.isEmpty() || !reasoning.isEmpty() || callsTool();
        }

        /** True when the chunk carries reasoning text and nothing of the answer (neither content nor a tool call). */
        public boolean reasoningOnly() {
            return content.isEmpty() && !callsTool() && !reasoning.isEmpty();
        }

        /** True when a tool-call fragment carries generated text: a function's name or a piece of its arguments. */
        public boolean callsTool() {
            for (ToolCallDelta d : toolCalls) { // on every chunk: no stream pipeline
                if (d.generates()) {
                    return true;
                }
            }
            return false;
        }

        /** True when the chunk has a {@code usage} object with a completion count. */
        public boolean hasUsage() {
            return completionTokens >= 0;
        }
    }

    /**
     * One fragment of a streamed tool call: the call it belongs to ({@code index}), and what this fragment adds. The
     * first fragment of a call usually names it ({@code id}, {@code name}); the next ones carry pieces of its
     * {@code arguments} (JSON text), which {@link ToolCallText} joins into whole calls.
     *
     * @param index     the call's position in the answer ({@code tool_calls[].index}, the content block's or output
     *                  item's index)
     * @param id        the call's id, or null when this fragment has none
     * @param name      the function's name, or null when this fragment has none
     * @param arguments a piece of the arguments' JSON text, "" when none
     */
    record ToolCallDelta(int index, String id, String name, String arguments) {
        public ToolCallDelta {
            arguments = Objects.requireNonNullElse(arguments, "");
        }

        /** True when the fragment carries generated text: the function's name or a piece of its arguments. */
        boolean generates() {
            return (name != null && !name.isEmpty()) || !arguments.isEmpty();
        }
    }
}
