package dev.kneepoint.sim;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.node.ArrayNode;
import com.fasterxml.jackson.databind.node.ObjectNode;
import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.util.function.Function;

/**
 * Routes requests: {@code POST /v1/chat/completions}, {@code POST /v1/completions},
 * {@code GET /v1/models}, {@code POST /tokenize}, {@code POST /detokenize}, {@code GET /health},
 * {@code GET /metrics}, {@code GET /version}, and the native streaming APIs of {@link NativeStream}
 * ({@code POST /generate_stream}, {@code /api/generate}, {@code /api/chat}, {@code /completion},
 * {@code /generate}), and the typed-event chat APIs of {@link TypedEventStream} ({@code POST /v1/responses},
 * {@code /v1/messages}), and the pooling APIs of {@link PoolingHandler} ({@code POST /v1/embeddings}, {@code /api/embed},
 * {@code /rerank}, {@code /v1/rerank}, {@code /v2/rerank}, {@code /score}, {@code /v1/score}). Unknown paths get 404, wrong methods 405, both with
 * an OpenAI-style error body.
 */
final class SimRouter implements MiniHttpServer.Handler {
    private static final String JSON = "application/json";
    private final SimConfig config;
    private final Engine engine;
    private final SimMetrics metrics;
    private final CompletionHandler completions;
    private final PoolingHandler pooling;
    private final long created = System.currentTimeMillis() / 1000;

    SimRouter(SimConfig config, Engine engine, SimMetrics metrics, CompletionHandler completions,
              PoolingHandler pooling) {
        this.config = config;
        this.engine = engine;
        this.metrics = metrics;
        this.completions = completions;
        this.pooling = pooling;
    }

    @Override
    public void handle(HttpRequestData req, SimExchange ex) throws IOException {
        String path = req.path();
        boolean post = req.method().equals("POST");
        boolean get = req.method().equals("GET");
        switch (path) {
            case "/v1/chat/completions", "/v1/completions" -> {
                if (post) {
                    completions.handle(path.contains("chat"), req, ex);
                } else {
                    methodNotAllowed(ex);
                }
            }
            case "/v1/models" -> json(ex, get, models());
            case "/health" -> {
                if (get) {
                    ex.send(200, JSON, new byte[0]);
                } else {
                    methodNotAllowed(ex);
                }
            }
            case "/version" -> json(ex, get, "{\"version\":\"kneepoint-sim\"}");
            case "/reset_prefix_cache" -> { // vLLM's: forget the cached prefixes nobody uses now
                if (post) {
                    engine.resetPrefixCache();
                    ex.send(200, JSON, new byte[0]);
                } else {
                    methodNotAllowed(ex);
                }
            }
            case "/metrics" -> {
                if (get) {
                    ex.send(200, "text/plain; version=0.0.4; charset=utf-8",
                            metrics.render(engine.gauges()).getBytes(StandardCharsets.UTF_8));
                } else {
                    methodNotAllowed(ex);
                }
            }
            case "/generate_stream", "/api/generate", "/api/chat", "/completion", "/generate" -> {
                if (post) {
                    nativeApi(NativeStream.Api.of(path), req, ex);
                } else {
                    methodNotAllowed(ex);
                }
            }
            case "/v1/responses", "/v1/messages" -> {
                if (post) {
                    typedEvents(path.endsWith("responses") ? TypedEventStream.Api.RESPONSES
                            : TypedEventStream.Api.MESSAGES, req, ex);
                } else {
                    methodNotAllowed(ex);
                }
            }
            case "/v1/embeddings", "/api/embed", "/rerank", "/v1/rerank", "/v2/rerank", "/score", "/v1/score" -> {
                if (post) {
                    pooling.handle(path, req, ex);
                } else {
                    methodNotAllowed(ex);
                }
            }
            case "/tokenize" -> postIds(req, ex, post, SimRouter::promptIds, this::tokenized);
            case "/detokenize" -> postIds(req, ex, post, SimRouter::tokenIds, SimRouter::detokenized);
            default -> CompletionHandler.error(ex, 404, "NotFoundError", "no route for " + path);
        }
    }

    private void nativeApi(NativeStream.Api api, HttpRequestData req, SimExchange ex) throws IOException {
        translated(in -> NativeStream.openAiRequest(api, in), new NativeStream(api, config.modelName()),
                api == NativeStream.Api.OLLAMA_CHAT, req, ex);
    }

    private void typedEvents(TypedEventStream.Api api, HttpRequestData req, SimExchange ex) throws IOException {
        translated(in -> TypedEventStream.openAiRequest(api, in), new TypedEventStream(api, config.modelName()), true,
                req, ex);
    }

    /** Serves a request of another API: rewritten into a chat or completion request, its stream translated back. */
    private void translated(Function<JsonNode, ObjectNode> rewrite, StreamTranslator translator, boolean chat,
                            HttpRequestData req, SimExchange ex) throws IOException {
        byte[] body;
        try {
            body = JsonText.MAPPER.writeValueAsBytes(rewrite.apply(JsonText.MAPPER.readTree(req.body())));
        } catch (IOException | IllegalArgumentException e) {
            CompletionHandler.error(ex, 400, "BadRequestError", e.getMessage());
            return;
        }
        ex.translateWith(translator);
        completions.handle(chat, new HttpRequestData(req.method(), req.path(), req.headers(), body), ex);
    }

    /** The base model, then each LoRA adapter with the base as its {@code parent}, as vLLM lists them. */
    private String models() {
        StringBuilder sb = new StringBuilder("{\"object\":\"list\",\"data\":[");
        model(sb, config.modelName(), null);
        config.loraAdapters().forEach(a -> model(sb.append(','), a, config.modelName()));
        return sb.append("]}").toString();
    }

    private void model(StringBuilder sb, String id, String parent) {
        sb.append("{\"id\":\"").append(JsonText.escape(id)).append("\",\"object\":\"model\",\"created\":").append(created)
                .append(",\"owned_by\":\"kneepoint-sim\",\"root\":\"").append(JsonText.escape(id)).append("\",\"parent\":")
                .append(parent == null ? "null" : "\"" + JsonText.escape(parent) + "\"").append(",\"max_model_len\":")
                .append(config.maxModelLen()).append('}');
    }

    /**
     * Answers a POST whose JSON body gives token ids ({@code /tokenize}, {@code /detokenize}): 405 for another
     * method, 400 with the reason when {@code read} cannot take the ids from the body, else 200 with the JSON
     * object {@code answer} makes of them.
     */
    private static void postIds(HttpRequestData req, SimExchange ex, boolean post, Function<JsonNode, long[]> read,
                                Function<long[], ObjectNode> answer) throws IOException {
        if (!post) {
            methodNotAllowed(ex);
            return;
        }
        long[] ids;
        try {
            ids = read.apply(JsonText.MAPPER.readTree(req.body()));
        } catch (IOException | IllegalArgumentException | NullPointerException e) {
            CompletionHandler.error(ex, 400, "BadRequestError", String.valueOf(e.getMessage()));
            return;
        }
        ex.send(200, JSON, JsonText.MAPPER.writeValueAsBytes(answer.apply(ids)));
    }

    /**
     * The ids {@code /tokenize} counts: of the chat template over {@code messages} (and {@code tools}, as vLLM's
     * {@code /tokenize} takes them), else of {@code prompt}.
     */
    private static long[] promptIds(JsonNode root) {
        if (root != null && root.has("messages")) {
            return CompletionRequest.chatPrompt(root.get("messages"), ToolChoice.parse(root));
        }
        return CompletionRequest.textPrompt(root == null ? null : root.get("prompt"));
    }

    private ObjectNode tokenized(long[] ids) {
        ObjectNode out = JsonText.MAPPER.createObjectNode();
        out.put("count", ids.length);
        out.put("max_model_len", config.maxModelLen());
        ArrayNode tokens = out.putArray("tokens");
        for (long id : ids) {
            tokens.add(id);
        }
        return out;
    }

    /** The ids {@code /detokenize} turns back into text: its {@code tokens} list. */
    private static long[] tokenIds(JsonNode root) {
        JsonNode tokens = root.get("tokens");
        if (tokens == null || !tokens.isArray()) {
            throw new IllegalArgumentException("'tokens' must be a list of token ids");
        }
        long[] ids = new long[tokens.size()];
        for (int i = 0; i < ids.length; i++) {
            ids[i] = tokens.get(i).asLong();
        }
        return ids;
    }

    private static ObjectNode detokenized(long[] ids) {
        ObjectNode out = JsonText.MAPPER.createObjectNode();
        out.put("prompt", Tokenizer.decode(ids));
        return out;
    }

    private static void json(SimExchange ex, boolean allowed, String body) throws IOException {
        if (allowed) {
            ex.send(200, JSON, body.getBytes(StandardCharsets.UTF_8));
        } else {
            methodNotAllowed(ex);
        }
    }

    private static void methodNotAllowed(SimExchange ex) throws IOException {
        CompletionHandler.error(ex, 405, "MethodNotAllowedError", "method not allowed");
    }
}
