package dev.kneepoint.workload;

import java.util.LinkedHashMap;
import java.util.Locale;
import java.util.Map;
import java.util.Objects;

/**
 * How to ask a server for an exact output length. Servers differ: vLLM, SGLang and the simulator
 * honour {@code max_tokens} + {@code ignore_eos} + {@code min_tokens}; llama.cpp {@code n_predict}
 * (and {@code max_tokens}) + {@code ignore_eos}; OpenAI proper only {@code max_completion_tokens},
 * an upper bound (the answer may stop earlier). Whether the server obeyed is checked afterwards
 * with {@link LengthCheck}.
 *
 * @param server the server kind
 * @param exact  true to force the length (ignore EOS, minimum = maximum) where the server allows it;
 *               false to send only the upper bound and let the model stop on its own
 */
public record OutputControl(Server server, boolean exact) {

    /** Server kinds with different output-length fields. */
    public enum Server {
        /** vLLM: {@code max_tokens}, {@code ignore_eos}, {@code min_tokens}. */
        VLLM,
        /** SGLang: same fields as vLLM. */
        SGLANG,
        /** The embedded simulator: same fields as vLLM. */
        SIMULATOR,
        /** llama.cpp server: {@code n_predict} and {@code max_tokens}, {@code ignore_eos}. */
        LLAMA_CPP,
        /** OpenAI's API: {@code max_completion_tokens} only; no way to force the length. */
        OPENAI,
        /** Unknown server: {@code max_tokens} only. */
        GENERIC
    }

    /** What to put in a {@link RequestSpec}: its {@code maxTokens} (-1: none) and extra body fields. */
    public record Fields(int maxTokens, Map<String, Object> extraBody) {
        public Fields {
            extraBody = Map.copyOf(extraBody);
        }
    }

    public OutputControl {
        Objects.requireNonNull(server, "server");
    }

    /** Exact lengths on a vLLM-compatible server (the default; also right for SGLang and the simulator). */
    public static OutputControl exact(Server server) {
        return new OutputControl(server, true);
    }

    /** Upper bound only: the model may stop earlier. */
    public static OutputControl upTo(Server server) {
        return new OutputControl(server, false);
    }

    /**
     * What a sweep sends unless told otherwise: the exact length ({@code ignore_eos}, understood by vLLM, SGLang and
     * llama.cpp) when {@code ignoreEos}, else an upper bound any server takes.
     */
    public static OutputControl forIgnoreEos(boolean ignoreEos) {
        return ignoreEos ? exact(Server.VLLM) : upTo(Server.GENERIC);
    }

    /** True when this server kind can be made to produce exactly the requested length. */
    public boolean canForceLength() {
        return server != Server.OPENAI && server != Server.GENERIC;
    }

    /** The fields that ask for {@code tokens} output tokens. */
    public Fields fields(int tokens) {
        if (tokens < 1) {
            throw new IllegalArgumentException("output length must be >= 1, got " + tokens);
        }
        Map<String, Object> extra = new LinkedHashMap<>();
        int maxTokens = tokens;
        switch (server) {
            case VLLM, SGLANG, SIMULATOR -> {
                if (exact) {
                    extra.put("ignore_eos", true);
                    extra.put("min_tokens", tokens);
                }
            }
            case LLAMA_CPP -> {
                extra.put("n_predict", tokens);
                if (exact) {
                    extra.put("ignore_eos", true);
                }
            }
            case OPENAI -> {
                maxTokens = -1;
                extra.put("max_completion_tokens", tokens);
            }
            case GENERIC -> { }
        }
        return new Fields(maxTokens, extra);
    }

    /** Describes the fields sent, e.g. {@code vllm exact (max_tokens, ignore_eos, min_tokens)}. */
    public String describe() {
        return server.name().toLowerCase(Locale.ROOT) + (exact && canForceLength() ? " exact " : " up-to ")
                + fields(1).extraBody().keySet() + (fields(1).maxTokens() >= 0 ? " + max_tokens" : "");
    }
}
