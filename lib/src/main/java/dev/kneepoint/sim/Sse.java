package dev.kneepoint.sim;

import java.nio.charset.StandardCharsets;
import java.util.List;

/**
 * OpenAI-shaped SSE events and JSON bodies, built by hand (this is the hot path). Chat chunks are
 * {@code chat.completion.chunk} objects, completion chunks {@code text_completion} objects.
 */
final class Sse {
    /** The model the answer names: the one the request asked for (an adapter's name, when it asked for one). */
    private final String model;
    /** Words of the generated text; each is exactly one token with its leading space. */
    static final String[] VOCAB = ("alpha beta gamma delta zeta theta iota kappa lambda sigma omega river stone cloud "
            + "light green amber north south east west maple cedar birch pine oak lake hill field ocean wind rain snow "
            + "storm quiet swift calm bright dark gold silver iron copper paper glass water fire earth metal wood sun "
            + "moon star comet orbit pixel token batch queue cache block range spark ember").split(" ");

    static {
        if (VOCAB.length != 64) {
            throw new IllegalStateException("vocabulary must have 64 words, has " + VOCAB.length);
        }
    }

    /** Each vocabulary word as UTF-8 bytes with its leading space (the hot path copies these). */
    private static final byte[][] WORD_BYTES = new byte[VOCAB.length][];

    static {
        for (int i = 0; i < VOCAB.length; i++) {
            WORD_BYTES[i] = (" " + VOCAB[i]).getBytes(StandardCharsets.US_ASCII);
        }
    }

    /** No {@code usage} field. */
    static final int NO_USAGE = 0;
    /** {@code "usage":null} ({@code include_usage}: every chunk but the last). */
    static final int NULL_USAGE = 1;
    /** {@code "usage":{...}} with the counts (vLLM's {@code continuous_usage_stats}). */
    static final int COUNT_USAGE = 2;

    private static final byte[] DATA = ascii("data: ");
    private static final byte[] ROLE = ascii(
            "[{\"index\":0,\"delta\":{\"role\":\"assistant\",\"content\":\"\"},\"logprobs\":null,\"finish_reason\":null}]");
    private static final byte[] CHAT_OPEN = ascii("[{\"index\":0,\"delta\":{\"content\":\"");
    private static final byte[] TEXT_OPEN = ascii("[{\"index\":0,\"text\":\"");
    private static final byte[] CHAT_CLOSE = ascii("\"},\"logprobs\":null,\"finish_reason\":null}]");
    private static final byte[] TEXT_CLOSE = ascii("\",\"logprobs\":null,\"finish_reason\":null}]");
    private static final byte[] CHAT_FINISH = ascii("[{\"index\":0,\"delta\":{},\"logprobs\":null,\"finish_reason\":\"");
    private static final byte[] TEXT_FINISH = ascii("[{\"index\":0,\"text\":\"\",\"logprobs\":null,\"finish_reason\":\"");
    private static final byte[] FINISH_CLOSE = ascii("\"}]");
    private static final byte[] USAGE_NULL = ascii(",\"usage\":null}\n\n");
    private static final byte[] USAGE_OPEN = ascii(",\"usage\":{\"prompt_tokens\":");
    private static final byte[] USAGE_TOTAL = ascii(",\"total_tokens\":");
    private static final byte[] USAGE_COMPLETION = ascii(",\"completion_tokens\":");
    private static final byte[] USAGE_CLOSE = ascii("}}\n\n");
    private static final byte[] USAGE_CACHED = ascii(",\"prompt_tokens_details\":{\"cached_tokens\":");
    private static final byte[] USAGE_DETAILS_CLOSE = ascii("}}}\n\n");
    private static final byte[] EVENT_END = ascii("}\n\n");
    private static final byte[] DONE = ascii("data: [DONE]\n\n");
    private static final byte[] CALL_OPEN = ascii("[{\"index\":0,\"delta\":{\"tool_calls\":[{\"index\":0,"
            + "\"function\":{\"arguments\":\"");
    /** What opens a call's arguments: the JSON object {@code {"query":"...}, escaped inside the arguments string. */
    private static final byte[] ARGUMENTS_OPEN = ascii("{\\\"query\\\":\\\"");
    private static final byte[] ARGUMENTS_CLOSE = ascii("\\\"}");
    private static final byte[] CALL_CLOSE = ascii("\"}}]},\"logprobs\":null,\"finish_reason\":null}]");
    private static final byte[] MALFORMED = ascii("[{\"index\":0,\"delta\":{\"content\":\"\n\n");

    private final boolean chat;
    /** {@code data: {"id":...,"choices":} as UTF-8 bytes, the start of every chunk of this response. */
    private final byte[] head;

    /**
     * @param chat chat completions (else text completions)
     * @param id response id
     * @param created creation time in epoch seconds
     * @param model model name
     */
    Sse(boolean chat, String id, long created, String model) {
        this.chat = chat;
        this.model = model;
        this.head = ("data: {\"id\":\"" + id + "\",\"object\":\"" + (chat ? "chat.completion.chunk" : "text_completion")
                + "\",\"created\":" + created + ",\"model\":\"" + JsonText.escape(model) + "\",\"choices\":")
                .getBytes(StandardCharsets.UTF_8);
    }

    String model() {
        return model;
    }

    /** Text of output tokens {@code [from, from + n)} of a request with text seed {@code seed}. */
    static void appendWords(StringBuilder sb, long seed, int from, int n) {
        for (int i = from; i < from + n; i++) {
            sb.append(' ').append(VOCAB[word(seed, i)]);
        }
    }

    private static int word(long seed, int i) {
        return (int) (Sequence.mix(seed + i) >>> 58);
    }

    /** The assistant role chunk (chat only). */
    void role(ByteText sb, int usage, int prompt, int completion) {
        sb.append(head).append(ROLE);
        usage(sb, usage, prompt, completion);
    }

    /** A content chunk carrying output tokens {@code [from, from + n)}. */
    void content(ByteText sb, long seed, int from, int n, int usage, int prompt, int completion) {
        content(sb, seed, from, n, usage, prompt, completion, null, null);
    }

    /**
     * A content chunk carrying output tokens {@code [from, from + n)}, after {@code open} and before {@code close}
     * (JSON-escaped text, or null): a JSON answer's opening (the first chunk) and its closing (the last one).
     */
    void content(ByteText sb, long seed, int from, int n, int usage, int prompt, int completion, String open,
                 String close) {
        sb.append(head).append(chat ? CHAT_OPEN : TEXT_OPEN);
        if (open != null) {
            sb.append(open);
        }
        for (int i = from; i < from + n; i++) {
            sb.append(WORD_BYTES[word(seed, i)]);
        }
        if (close != null) {
            sb.append(close);
        }
        sb.append(chat ? CHAT_CLOSE : TEXT_CLOSE);
        usage(sb, usage, prompt, completion);
    }

    /**
     * The opening of a JSON answer with {@code keys} (every key but the last an empty string; the words are the last
     * key's value), as raw JSON text; {@link #JSON_CLOSE} closes it.
     */
    static String jsonOpen(List<String> keys) {
        StringBuilder sb = new StringBuilder("{");
        for (int i = 0; i < keys.size(); i++) {
            sb.append('"').append(JsonText.escape(keys.get(i))).append("\":\"");
            sb.append(i < keys.size() - 1 ? "\"," : "");
        }
        return sb.toString();
    }

    /** What closes a JSON answer opened by {@link #jsonOpen}, as raw JSON text. */
    static final String JSON_CLOSE = "\"}";

    /**
     * A tool-call chunk carrying output tokens {@code [from, from + n)} as arguments text ({@code {"query":" alpha
     * beta"}} over the call): the call's first chunk also carries the role, the call's id, type and function name
     * and opens the arguments; the last one closes them. Chat only.
     */
    void toolCall(ByteText sb, String callId, String function, boolean first, boolean last, long seed, int from, int n,
                  int usage, int prompt, int completion) {
        sb.append(head);
        if (first) {
            sb.append("[{\"index\":0,\"delta\":{\"role\":\"assistant\",\"content\":null,\"tool_calls\":[{\"index\":0,"
                    + "\"id\":\"" + callId + "\",\"type\":\"function\",\"function\":{\"name\":\"" + JsonText.escape(function)
                    + "\",\"arguments\":\"").append(ARGUMENTS_OPEN);
        } else {
            sb.append(CALL_OPEN);
        }
        for (int i = from; i < from + n; i++) {
            sb.append(WORD_BYTES[word(seed, i)]);
        }
        if (last) {
            sb.append(ARGUMENTS_CLOSE);
        }
        sb.append(CALL_CLOSE);
        usage(sb, usage, prompt, completion);
    }

    /** The whole arguments text of a call carrying output tokens {@code [0, n)}, as JSON text (not escaped). */
    static String arguments(long seed, int n) {
        StringBuilder sb = new StringBuilder("{\"query\":\"");
        appendWords(sb, seed, 0, n);
        return sb.append("\"}").toString();
    }

    /** The finish chunk (empty delta / text). */
    void finish(ByteText sb, String reason, int usage, int prompt, int completion) {
        sb.append(head).append(chat ? CHAT_FINISH : TEXT_FINISH).append(reason).append(FINISH_CLOSE);
        usage(sb, usage, prompt, completion);
    }

    /**
     * The {@code include_usage} chunk with {@code "choices":[]}, its usage with {@code prompt_tokens_details.cached_tokens}
     * (the prompt tokens the prefix cache held, as vLLM reports them with {@code --enable-prompt-tokens-details}).
     */
    void usageChunk(ByteText sb, int prompt, int completion, int cached) {
        sb.append(head).append('[').append(']').append(USAGE_OPEN).append(prompt).append(USAGE_TOTAL)
                .append(prompt + completion).append(USAGE_COMPLETION).append(completion).append(USAGE_CACHED)
                .append(Math.max(0, cached)).append(USAGE_DETAILS_CLOSE);
    }

    static void done(ByteText sb) {
        sb.append(DONE);
    }

    /** An error event as vLLM and OpenAI send mid-stream. */
    static void error(ByteText sb, String message, int code) {
        sb.append(DATA).append(errorJson(message, "internal_server_error", code)).append('\n').append('\n');
    }

    /** An event whose JSON is cut off (malformed). */
    void malformed(ByteText sb) {
        sb.append(head).append(MALFORMED);
    }

    /** A whole response's usage, with {@code prompt_tokens_details.cached_tokens} as in {@link #usageChunk}. */
    static String usage(int prompt, int completion, int cached) {
        return "{\"prompt_tokens\":" + prompt + ",\"total_tokens\":" + (prompt + completion) + ",\"completion_tokens\":"
                + completion + ",\"prompt_tokens_details\":{\"cached_tokens\":" + Math.max(0, cached) + "}}";
    }

    static String errorJson(String message, String type, int code) {
        return "{\"error\":{\"message\":\"" + JsonText.escape(message) + "\",\"type\":\"" + type
                + "\",\"param\":null,\"code\":" + code + "}}";
    }

    private static void usage(ByteText sb, int usage, int prompt, int completion) {
        switch (usage) {
            case NULL_USAGE -> sb.append(USAGE_NULL);
            case COUNT_USAGE -> sb.append(USAGE_OPEN).append(prompt).append(USAGE_TOTAL).append(prompt + completion)
                    .append(USAGE_COMPLETION).append(completion).append(USAGE_CLOSE);
            default -> sb.append(EVENT_END);
        }
    }

    private static byte[] ascii(String s) {
        return s.getBytes(StandardCharsets.US_ASCII);
    }
}
