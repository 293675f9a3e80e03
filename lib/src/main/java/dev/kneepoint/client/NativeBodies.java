package dev.kneepoint.client;

import dev.kneepoint.request.RequestSpec;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;

/**
 * Request bodies of the native (non-OpenAI) APIs. The workload states the output length the
 * OpenAI way ({@link RequestSpec#maxTokens()} and the extra fields {@code ignore_eos},
 * {@code min_tokens}, {@code n_predict}, {@code max_completion_tokens}); each API gets its own
 * equivalents, and a control the server lacks is left out (the length check then reports it):
 *
 * <table>
 * <caption>Output-length fields</caption>
 * <tr><th>API</th><th>maximum</th><th>ignore EOS</th><th>minimum</th></tr>
 * <tr><td>TGI</td><td>{@code parameters.max_new_tokens}</td><td>—</td><td>—</td></tr>
 * <tr><td>Ollama</td><td>{@code options.num_predict}</td><td>—</td><td>—</td></tr>
 * <tr><td>llama.cpp</td><td>{@code n_predict}</td><td>{@code ignore_eos}</td><td>—</td></tr>
 * <tr><td>SGLang</td><td>{@code sampling_params.max_new_tokens}</td><td>{@code sampling_params.ignore_eos}</td>
 *     <td>{@code sampling_params.min_new_tokens}</td></tr>
 * <tr><td>Responses</td><td>{@code max_output_tokens}</td><td>{@code ignore_eos}</td><td>{@code min_tokens}</td></tr>
 * <tr><td>Messages</td><td>{@code max_tokens}</td><td>{@code ignore_eos}</td><td>{@code min_tokens}</td></tr>
 * </table>
 *
 * The Responses and Messages APIs carry the chat messages ({@code input}, {@code messages}; the Messages API's
 * system prompt in {@code system}); {@code ignore_eos} and {@code min_tokens} are vLLM's extensions, sent as on
 * chat completions (vLLM 0.34 honours only {@code ignore_eos} on Responses and only {@code min_tokens} on
 * Messages, and ignores the other, so exact lengths hold on both). A Responses request says {@code store: false}: a benchmark keeps no state on the server.
 *
 * Other extra fields of the spec, then the target's, are merged at the top level (later ones
 * override earlier ones).
 */
final class NativeBodies {
    private static final Set<String> CONTROLS = Set.of("ignore_eos", "min_tokens", "n_predict", "max_completion_tokens");

    private NativeBodies() {
    }

    static Map<String, Object> bodyMap(TargetConfig t, RequestSpec spec) {
        Map<String, Object> extra = spec.extraBody();
        int max = spec.maxTokens() >= 0 ? spec.maxTokens()
                : intOr(extra.get("n_predict"), intOr(extra.get("max_completion_tokens"), -1));
        boolean ignoreEos = Boolean.TRUE.equals(extra.get("ignore_eos"));
        int min = intOr(extra.get("min_tokens"), -1);
        Map<String, Object> body = new LinkedHashMap<>();
        switch (t.apiKind()) {
            case TGI_GENERATE_STREAM -> {
                body.put("inputs", spec.prompt());
                Map<String, Object> params = new LinkedHashMap<>();
                if (max >= 0) {
                    params.put("max_new_tokens", max);
                }
                params.put("details", true);
                body.put("parameters", params);
            }
            case OLLAMA_GENERATE, OLLAMA_CHAT -> {
                body.put("model", spec.modelOr(t.model()));
                if (t.apiKind() == ApiKind.OLLAMA_CHAT) {
                    body.put("messages", messages(spec, t.apiKind()));
                } else {
                    body.put("prompt", spec.prompt());
                }
                body.put("stream", t.stream());
                if (max >= 0) {
                    body.put("options", Map.of("num_predict", max));
                }
            }
            case LLAMACPP_COMPLETION -> {
                body.put("prompt", spec.prompt());
                if (max >= 0) {
                    body.put("n_predict", max);
                }
                if (ignoreEos) {
                    body.put("ignore_eos", true);
                }
                body.put("stream", t.stream());
            }
            case SGLANG_GENERATE -> {
                body.put("text", spec.prompt());
                Map<String, Object> sp = new LinkedHashMap<>();
                if (max >= 0) {
                    sp.put("max_new_tokens", max);
                }
                if (ignoreEos) {
                    sp.put("ignore_eos", true);
                }
                if (min >= 0) {
                    sp.put("min_new_tokens", min);
                }
                body.put("sampling_params", sp);
                body.put("stream", t.stream());
            }
            case RESPONSES, MESSAGES -> {
                body.put("model", spec.modelOr(t.model()));
                boolean messagesApi = t.apiKind() == ApiKind.MESSAGES;
                List<Map<String, Object>> msgs = messages(spec, t.apiKind());
                if (messagesApi && !msgs.isEmpty() && msgs.getFirst().get("role").equals("system")) {
                    body.put("system", msgs.removeFirst().get("content"));
                }
                body.put(messagesApi ? "messages" : "input", msgs);
                if (max >= 0) {
                    body.put(messagesApi ? "max_tokens" : "max_output_tokens", max);
                }
                if (!messagesApi) {
                    body.put("store", false);
                }
                body.put("stream", t.stream());
                if (ignoreEos) {
                    body.put("ignore_eos", true);
                }
                if (min >= 0) {
                    body.put("min_tokens", min);
                }
            }
            case CHAT, COMPLETIONS, EMBEDDINGS, OLLAMA_EMBED, RERANK, TEI_RERANK, SCORE ->
                    throw new IllegalArgumentException("not a native generation API: " + t.apiKind());
        }
        extra.forEach((k, v) -> {
            if (!CONTROLS.contains(k)) {
                body.put(k, v);
            }
        });
        body.putAll(t.extraBody());
        if (t.apiKind() == ApiKind.RESPONSES || t.apiKind() == ApiKind.MESSAGES) {
            tools(body, t.apiKind() == ApiKind.MESSAGES);
        }
        return body;
    }

    /**
     * Chat-shaped {@code tools} and {@code tool_choice} (a workload's {@code ToolUse}) in the Responses API's shape
     * (flat functions; a named choice {@code {"type":"function","name"}}) or the Messages API's ({@code name},
     * {@code input_schema}; choices {@code {"type":"auto"|"any"|"none"}} and {@code {"type":"tool","name"}}). Tools
     * already in the API's own shape are left as they are.
     */
    private static void tools(Map<String, Object> body, boolean messagesApi) {
        if (body.get("tools") instanceof List<?> tools && !tools.isEmpty()
                && tools.getFirst() instanceof Map<?, ?> first && first.get("function") instanceof Map<?, ?>) {
            List<Map<String, Object>> out = new ArrayList<>();
            for (Object o : tools) {
                Map<?, ?> f = (Map<?, ?>) ((Map<?, ?>) o).get("function");
                Map<String, Object> tool = new LinkedHashMap<>();
                if (!messagesApi) {
                    tool.put("type", "function");
                }
                tool.put("name", f.get("name"));
                if (f.get("description") != null) {
                    tool.put("description", f.get("description"));
                }
                tool.put(messagesApi ? "input_schema" : "parameters", f.get("parameters") != null ? f.get("parameters")
                        : Map.of("type", "object"));
                out.add(tool);
            }
            body.put("tools", out);
        }
        Object choice = body.get("tool_choice");
        String named = choice instanceof Map<?, ?> c && c.get("function") instanceof Map<?, ?> f
                && f.get("name") instanceof String n ? n : null;
        if (named != null) {
            body.put("tool_choice", Map.of("type", messagesApi ? "tool" : "function", "name", named));
        } else if (messagesApi && choice instanceof String s) {
            body.put("tool_choice", Map.of("type", s.equals("required") ? "any" : s));
        }
    }

    /** The chat messages in {@code kind}'s shape, media included (Ollama's {@code images}, the APIs' content parts). */
    private static List<Map<String, Object>> messages(RequestSpec spec, ApiKind kind) {
        List<Map<String, Object>> msgs = new ArrayList<>();
        for (RequestSpec.ChatMessage m : spec.chatMessages()) {
            Map<String, Object> msg = new LinkedHashMap<>();
            msg.put("role", m.role());
            if (m.media().isEmpty()) {
                msg.put("content", m.content());
            } else if (kind == ApiKind.OLLAMA_CHAT) {
                msg.put("content", m.content());
                msg.put("images", m.media().stream().map(RequestSpec.Media::base64).toList());
            } else {
                List<Map<String, Object>> parts = new ArrayList<>();
                boolean responses = kind == ApiKind.RESPONSES;
                parts.add(Map.of("type", responses ? "input_text" : "text", "text", m.content()));
                for (RequestSpec.Media media : m.media()) {
                    parts.add(responses ? Map.of("type", "input_image", "image_url", media.dataUrl())
                            : Map.of("type", "image", "source", Map.of("type", "base64", "media_type",
                            media.mimeType(), "data", media.base64())));
                }
                msg.put("content", parts);
            }
            msgs.add(msg);
        }
        return msgs;
    }

    private static int intOr(Object v, int dflt) {
        return v instanceof Number n && n.intValue() >= 0 ? n.intValue() : dflt;
    }
}
