package dev.kneepoint.sim;

/**
 * OpenAI-shaped SSE events and JSON bodies, built by hand (this is the hot path). Chat chunks are
 * {@code chat.completion.chunk} objects, completion chunks {@code text_completion} objects.
 */
final class Sse {
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

    private final boolean chat;
    private final String prefix;

    /**
     * @param chat chat completions (else text completions)
     * @param id response id
     * @param created creation time in epoch seconds
     * @param model model name
     */
    Sse(boolean chat, String id, long created, String model) {
        this.chat = chat;
        this.prefix = "{\"id\":\"" + id + "\",\"object\":\"" + (chat ? "chat.completion.chunk" : "text_completion")
                + "\",\"created\":" + created + ",\"model\":\"" + Json.escape(model) + "\",\"choices\":";
    }

    /** Text of output tokens {@code [from, from + n)} of a request with text seed {@code seed}. */
    static void appendWords(StringBuilder sb, long seed, int from, int n) {
        for (int i = from; i < from + n; i++) {
            sb.append(' ').append(VOCAB[(int) (Sequence.mix(seed + i) >>> 58)]);
        }
    }

    /** The assistant role chunk (chat only). */
    void role(StringBuilder sb, String usage) {
        sb.append("data: ").append(prefix)
                .append("[{\"index\":0,\"delta\":{\"role\":\"assistant\",\"content\":\"\"},\"logprobs\":null,\"finish_reason\":null}]");
        usage(sb, usage);
    }

    /** A content chunk carrying output tokens {@code [from, from + n)}. */
    void content(StringBuilder sb, long seed, int from, int n, String usage) {
        sb.append("data: ").append(prefix).append(chat ? "[{\"index\":0,\"delta\":{\"content\":\"" : "[{\"index\":0,\"text\":\"");
        appendWords(sb, seed, from, n);
        sb.append(chat ? "\"}" : "\"").append(",\"logprobs\":null,\"finish_reason\":null}]");
        usage(sb, usage);
    }

    /** The finish chunk (empty delta / text). */
    void finish(StringBuilder sb, String reason, String usage) {
        sb.append("data: ").append(prefix).append(chat ? "[{\"index\":0,\"delta\":{}" : "[{\"index\":0,\"text\":\"\"")
                .append(",\"logprobs\":null,\"finish_reason\":\"").append(reason).append("\"}]");
        usage(sb, usage);
    }

    /** The {@code include_usage} chunk with {@code "choices":[]}. */
    void usageChunk(StringBuilder sb, int prompt, int completion) {
        sb.append("data: ").append(prefix).append("[]");
        usage(sb, usage(prompt, completion));
    }

    static void done(StringBuilder sb) {
        sb.append("data: [DONE]\n\n");
    }

    /** An error event as vLLM and OpenAI send mid-stream. */
    static void error(StringBuilder sb, String message, int code) {
        sb.append("data: ").append(errorJson(message, "internal_server_error", code)).append("\n\n");
    }

    /** An event whose JSON is cut off (malformed). */
    void malformed(StringBuilder sb) {
        sb.append("data: ").append(prefix).append("[{\"index\":0,\"delta\":{\"content\":\"\n\n");
    }

    static String usage(int prompt, int completion) {
        return "{\"prompt_tokens\":" + prompt + ",\"total_tokens\":" + (prompt + completion) + ",\"completion_tokens\":"
                + completion + "}";
    }

    static String errorJson(String message, String type, int code) {
        return "{\"error\":{\"message\":\"" + Json.escape(message) + "\",\"type\":\"" + type
                + "\",\"param\":null,\"code\":" + code + "}}";
    }

    private static void usage(StringBuilder sb, String usage) {
        if (usage != null) {
            sb.append(",\"usage\":").append(usage);
        }
        sb.append("}\n\n");
    }
}
