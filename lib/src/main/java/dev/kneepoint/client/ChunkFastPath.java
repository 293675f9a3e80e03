package dev.kneepoint.client;

/**
 * The allocation-light fast path of {@link OpenAiChunkDecoder}: decodes the common shape of an OpenAI
 * chunk (strings without escapes, integer usage counts) with a hand-written scanner over the payload
 * ({@link StrictJsonScanner}), without a Jackson parser per event. It is strict JSON and conservative: anything it does not handle
 * exactly as the Jackson path would (an escape, an error object, {@code timings}, a fractional count,
 * malformed JSON...) makes it give up ({@code null}), and the caller decodes the payload with Jackson.
 * Whenever it returns a chunk, that chunk equals the Jackson path's ({@code ChunkFastPathTest} checks
 * this over generated and mutated payloads). One instance per payload; not thread-safe.
 */
final class ChunkFastPath extends StrictJsonScanner {
    private String content;
    private String reasoning;
    private String role;
    private String finishReason;
    private int choices = -1;
    private int promptTokens = -1;
    private int completionTokens = -1;
    private java.util.List<StreamPayload.ToolCallDelta> toolCalls;
    private int cachedTokens = -1;
    private String callName;
    private String callArguments;

    private ChunkFastPath(String s) {
        super(s);
    }

    /** The decoded chunk, or null when the payload needs the general (Jackson) path. */
    static StreamPayload.Chunk tryDecode(String data) {
        ChunkFastPath p = new ChunkFastPath(data);
        try {
            return p.chunk();
        } catch (GiveUp | StringIndexOutOfBoundsException e) {
            return null;
        }
    }

    private StreamPayload.Chunk chunk() {
        ws();
        expect('{');
        if (membersFollow('}')) {
            while (true) {
                int k = member();
                if (is(k, "choices")) {
                    choices();
                } else if (is(k, "usage")) {
                    usage();
                } else if (is(k, "object")) {
                    // "error" is an error object; a non-string value is an edge case left to Jackson
                    if (peek() != '"') {
                        throw GIVE_UP;
                    }
                    int v = key();
                    if (is(v, "error")) {
                        throw GIVE_UP;
                    }
                } else if (is(k, "error") || is(k, "message") || is(k, "timings")) {
                    throw GIVE_UP;
                } else {
                    skipValue(1);
                }
                if (!next('}')) {
                    break;
                }
            }
        }
        onlyWhitespaceLeft();
        return new StreamPayload.Chunk(content, reasoning, role, finishReason, choices, promptTokens,
                completionTokens, -1, null, toolCalls, cachedTokens);
    }

    private void choices() {
        if (peek() != '[') {
            skipValue(1);
            return;
        }
        choices = 0;
        if (!enter(']')) {
            return;
        }
        do {
            expect('{');
            choices++;
            if (!membersFollow('}')) {
                continue;
            }
            do {
                int k = member();
                if (is(k, "delta") || is(k, "message")) {
                    if (peek() == '{') {
                        delta();
                    } else {
                        skipValue(2);
                    }
                } else if (is(k, "text")) {
                    content = concat(content, stringOrSkip());
                } else if (is(k, "finish_reason")) {
                    char c = peek();
                    if (c == '"') {
                        int r = key();
                        if (finishReason == null) {
                            finishReason = text(r);
                        }
                    } else if (c == '{' || c == '[') {
                        throw GIVE_UP;
                    } else {
                        skipValue(2);
                    }
                } else {
                    skipValue(2);
                }
            } while (next('}'));
        } while (next(']'));
    }

    private void delta() {
        if (!enter('}')) {
            return;
        }
        do {
            int k = member();
            if (is(k, "content")) {
                content = concat(content, stringOrSkip());
            } else if (is(k, "reasoning_content") || is(k, "reasoning")) {
                reasoning = concat(reasoning, stringOrSkip());
            } else if (is(k, "role")) {
                String v = stringOrSkip();
                role = v != null ? v : role;
            } else if (is(k, "tool_calls")) {
                toolCalls();
            } else if (is(k, "function_call")) {
                callName = null;
                callArguments = null;
                if (function(3)) {
                    addCall(0, null);
                }
            } else {
                skipValue(3);
            }
        } while (next('}'));
    }

    /** A {@code tool_calls} array (depth 3): each object entry one fragment ({@code index}, {@code id}, {@code function}). */
    private void toolCalls() {
        if (peek() != '[') {
            skipValue(3);
            return;
        }
        if (!enter(']')) {
            return;
        }
        int position = 0;
        do {
            if (peek() != '{') {
                skipValue(4);
                position++;
                continue;
            }
            int index = position++;
            String id = null;
            callName = null;
            callArguments = null;
            if (enter('}')) {
                do {
                    int k = member();
                    if (is(k, "function")) {
                        function(5);
                    } else if (is(k, "index")) {
                        index = intOrSkip(index);
                    } else if (is(k, "id")) {
                        id = concat(id, stringOrSkip());
                    } else {
                        skipValue(5);
                    }
                } while (next('}'));
            }
            addCall(index, id);
        } while (next(']'));
    }

    /**
     * A {@code function} object at {@code depth}: its {@code name} and {@code arguments} into the fragment being read;
     * false when the value is not an object.
     */
    private boolean function(int depth) {
        if (peek() != '{') {
            skipValue(depth);
            return false;
        }
        if (!enter('}')) {
            return true;
        }
        do {
            int k = member();
            if (is(k, "name")) {
                callName = concat(callName, stringOrSkip());
            } else if (is(k, "arguments")) {
                callArguments = concat(callArguments, stringOrSkip());
            } else {
                skipValue(depth + 1);
            }
        } while (next('}'));
        return true;
    }

    private void addCall(int index, String id) {
        if (toolCalls == null) {
            toolCalls = new java.util.ArrayList<>(1);
        }
        toolCalls.add(new StreamPayload.ToolCallDelta(index, id, callName, callArguments));
    }

    private void usage() {
        if (peek() != '{') {
            skipValue(1);
            return;
        }
        if (!enter('}')) {
            return;
        }
        do {
            int k = member();
            if (is(k, "prompt_tokens")) {
                promptTokens = intOrSkip(promptTokens);
            } else if (is(k, "completion_tokens")) {
                completionTokens = intOrSkip(completionTokens);
            } else if (is(k, "completion_tokens_details")) {
                throw GIVE_UP;
            } else if (is(k, "prompt_tokens_details")) {
                promptDetails();
            } else {
                skipValue(2);
            }
        } while (next('}'));
    }

    /** {@code usage.prompt_tokens_details} (depth 2): its {@code cached_tokens}; anything odd is left to Jackson. */
    private void promptDetails() {
        if (peek() != '{') {
            skipValue(2);
            return;
        }
        if (!enter('}')) {
            return;
        }
        do {
            int k = member();
            if (is(k, "cached_tokens")) {
                char c = peek();
                if (c != '-' && (c < '0' || c > '9')) {
                    throw GIVE_UP; // Jackson keeps the last number given; a non-number among them is its call
                }
                cachedTokens = intOrSkip(cachedTokens);
            } else {
                skipValue(3);
            }
        } while (next('}'));
    }

    private static String concat(String a, String b) {
        if (b == null || b.isEmpty()) {
            return a;
        }
        return a == null || a.isEmpty() ? b : a + b;
    }
}
