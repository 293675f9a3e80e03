package dev.kneepoint.workload;

import com.fasterxml.jackson.databind.JsonNode;
import dev.kneepoint.client.ApiKind;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

/**
 * One server family's tokenize endpoint: where it is, what it is sent and how its answer is read. Shapes are
 * taken from the servers' source (see {@code docs/SERVERS.md}, "Prompt calibration"):
 * <ul>
 *   <li>{@link #OPENAI}: vLLM's {@code /tokenize}, SGLang ({@code python/sglang/srt/entrypoints/openai/serving_tokenize.py}, routed at
 *       {@code /tokenize} and {@code /v1/tokenize}) and the simulator: {@code {"model","prompt"}} →
 *       {@code {"count":N,"tokens":[...],"max_model_len":M}};</li>
 *   <li>{@link #LLAMA_CPP}: llama.cpp's llama-server: {@code {"content","add_special"}} → {@code {"tokens":[...]}};</li>
 *   <li>{@link #TGI}: text-generation-inference ({@code router/src/server.rs} {@code tokenize}, body a
 *       GenerateRequest): {@code {"inputs"}} → {@code [{"id","text","start","stop"}, ...]};</li>
 *   <li>{@link #LLAMA_CPP_PYTHON}: llama-cpp-python's {@code llama_cpp.server} ({@code llama_cpp/server/app.py}
 *       {@code /extras/tokenize}, {@code types.py} TokenizeInputRequest): {@code {"input","model"}} →
 *       {@code {"tokens":[...]}} (BOS included).</li>
 * </ul>
 */
enum TokenizeDialect {
    OPENAI("vllm shape", "tokenize", "{model, prompt}"),
    LLAMA_CPP("llama.cpp shape", "tokenize", "{content, add_special}"),
    TGI("tgi shape", "tokenize", "{inputs}"),
    LLAMA_CPP_PYTHON("llama_cpp.server shape", "extras/tokenize", "{input, model}");

    private final String label;
    private final String endpoint;
    private final String bodyShape;

    TokenizeDialect(String label, String endpoint, String bodyShape) {
        this.label = label;
        this.endpoint = endpoint;
        this.bodyShape = bodyShape;
    }

    /** Short name for {@code describe()}, e.g. {@code tgi shape}. */
    String label() {
        return label;
    }

    /** Path relative to the server root, e.g. {@code extras/tokenize}. */
    String endpoint() {
        return endpoint;
    }

    /** The body's fields, for error messages. */
    String bodyShape() {
        return bodyShape;
    }

    /** The request body counting {@code text} as a completions prompt (special tokens the server adds included). */
    Map<String, Object> body(String text, String model) {
        Map<String, Object> b = new LinkedHashMap<>();
        switch (this) {
            case OPENAI -> {
                b.put("model", model);
                b.put("prompt", text);
            }
            case LLAMA_CPP -> {
                b.put("content", text);
                b.put("add_special", false);
            }
            case TGI -> b.put("inputs", text);
            case LLAMA_CPP_PYTHON -> {
                b.put("input", text);
                if (model != null && !model.isBlank()) {
                    b.put("model", model);
                }
            }
        }
        return b;
    }

    /**
     * The token count in {@code reply}, or -1 when the reply is not this dialect's shape. An empty token list
     * for a non-empty text is not a count: llama-server ignores {@code prompt} and answers {@code {"tokens":[]}}.
     */
    int parse(JsonNode reply, String text) {
        if (reply == null) {
            return -1;
        }
        if (this == TGI) {
            return reply.isArray() && (!reply.isEmpty() || text.isEmpty()) ? reply.size() : -1;
        }
        if (!reply.isObject()) {
            return -1;
        }
        JsonNode count = reply.get("count");
        if (this != LLAMA_CPP && count != null && count.isIntegralNumber()) {
            return count.asInt();
        }
        JsonNode tokens = reply.get("tokens");
        if (tokens != null && tokens.isArray() && (!tokens.isEmpty() || text.isEmpty())) {
            return tokens.size();
        }
        return -1;
    }

    /** The order in which to try the dialects: the one the target's API suggests first, then the others. */
    static List<TokenizeDialect> order(ApiKind hint) {
        TokenizeDialect first = switch (hint == null ? ApiKind.CHAT : hint) {
            case TGI_GENERATE_STREAM -> TGI;
            case LLAMACPP_COMPLETION -> LLAMA_CPP;
            default -> OPENAI;
        };
        List<TokenizeDialect> out = new ArrayList<>();
        out.add(first);
        for (TokenizeDialect d : values()) {
            if (d != first) {
                out.add(d);
            }
        }
        return out;
    }
}
