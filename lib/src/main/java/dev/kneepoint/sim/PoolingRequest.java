package dev.kneepoint.sim;

import com.fasterxml.jackson.databind.JsonNode;
import java.util.ArrayList;
import java.util.List;

/**
 * The parts of a pooling request (embeddings, rerank, score) the simulator honours. Each {@link Item} is one engine
 * sequence: an input to embed, or a (query, document) pair a cross-encoder reads as one sequence.
 *
 * @param api which API asked, and so which answer shape
 * @param model requested model, {@code null} when absent
 * @param items the inputs, in request order (never empty)
 * @param base64 OpenAI's {@code encoding_format: "base64"} (little-endian float32); else floats
 * @param dimensions the embedding size asked ({@code dimensions}), {@code null} for the model's own
 * @param topN rerank: the most results to answer ({@code top_n}); 0 = all
 * @param returnText TEI rerank: {@code return_text}, each result echoes its text
 */
record PoolingRequest(Api api, String model, List<Item> items, boolean base64, Integer dimensions, int topN,
                      boolean returnText) {

    /** The pooling APIs, by the answer shape each gets. */
    enum Api {
        /** {@code POST /v1/embeddings}: OpenAI's (and vLLM's, llama.cpp's) embeddings. */
        EMBEDDINGS,
        /** {@code POST /api/embed}: Ollama's. */
        OLLAMA_EMBED,
        /** {@code POST /rerank}, {@code /v1/rerank}, {@code /v2/rerank}: vLLM's (Jina/Cohere-shaped) rerank. */
        RERANK,
        /** {@code POST /rerank} with {@code texts}: Hugging Face TEI's rerank, a bare array. */
        TEI_RERANK,
        /** {@code POST /score}, {@code /v1/score}: vLLM's score. */
        SCORE
    }

    /**
     * One engine sequence of the request.
     *
     * @param first the input's token ids (for a pair: the query's)
     * @param second for a pair, the document's token ids; {@code null} for an input to embed
     * @param text for a pair, the document's text (echoed by rerank); else {@code null}
     */
    record Item(long[] first, long[] second, String text) {
        /** The sequence's prompt: the input, or query then document. */
        long[] promptIds() {
            if (second == null) {
                return first;
            }
            long[] ids = java.util.Arrays.copyOf(first, first.length + second.length);
            System.arraycopy(second, 0, ids, first.length, second.length);
            return ids;
        }
    }

    /**
     * Parses the body sent to {@code path}; {@link IllegalArgumentException} with the reason when it is invalid
     * (a {@code stream: true} included: these APIs answer once).
     */
    static PoolingRequest parse(String path, JsonNode root) {
        JsonText.object(root);
        if (root.path("stream").asBoolean(false)) {
            throw new IllegalArgumentException("pooling requests (embeddings, rerank, score) cannot be streamed;"
                    + " send stream: false or leave it out");
        }
        String model = root.hasNonNull("model") ? root.get("model").asText() : null;
        Api api = switch (path) {
            case "/v1/embeddings" -> Api.EMBEDDINGS;
            case "/api/embed" -> Api.OLLAMA_EMBED;
            case "/score", "/v1/score" -> Api.SCORE;
            default -> path.equals("/rerank") && root.has("texts") && !root.has("documents") ? Api.TEI_RERANK
                    : Api.RERANK;
        };
        List<Item> items = switch (api) {
            case EMBEDDINGS, OLLAMA_EMBED -> inputs(root.get("input"), api == Api.EMBEDDINGS);
            case RERANK, TEI_RERANK -> pairs(List.of(text(root.get("query"), "query")),
                    texts(root.get(api == Api.RERANK ? "documents" : "texts"), api == Api.RERANK ? "documents" : "texts"));
            case SCORE -> pairs(texts(first(root, "text_1", "queries", "data_1"), "text_1"),
                    texts(first(root, "text_2", "documents", "data_2"), "text_2"));
        };
        String format = root.path("encoding_format").asText("float");
        if (!format.equals("float") && !format.equals("base64")) {
            throw new IllegalArgumentException("encoding_format must be 'float' or 'base64', got '" + format + "'");
        }
        Integer dimensions = CompletionRequest.intOrNull(root, "dimensions");
        Integer topN = CompletionRequest.intOrNull(root, "top_n");
        if (topN != null && topN < 0) {
            throw new IllegalArgumentException("top_n must be >= 0 (0 = all), got " + topN);
        }
        return new PoolingRequest(api, model, List.copyOf(items), format.equals("base64"), dimensions,
                topN == null ? 0 : topN, root.path("return_text").asBoolean(false));
    }

    /** Embedding inputs: a string, a list of strings, and (OpenAI's) a list of token ids or a list of such lists. */
    private static List<Item> inputs(JsonNode input, boolean tokenIds) {
        if (input == null || input.isNull()) {
            throw new IllegalArgumentException("'input' is required");
        }
        List<Item> out = new ArrayList<>();
        if (input.isTextual()) {
            out.add(new Item(Tokenizer.encode(input.asText()), null, null));
            return out;
        }
        if (!input.isArray() || input.isEmpty()) {
            throw new IllegalArgumentException("'input' must be a string or a non-empty list");
        }
        if (tokenIds && input.get(0).isIntegralNumber()) {
            out.add(new Item(ids(input), null, null));
            return out;
        }
        for (JsonNode n : input) {
            if (n.isTextual()) {
                out.add(new Item(Tokenizer.encode(n.asText()), null, null));
            } else if (tokenIds && n.isArray() && !n.isEmpty() && n.get(0).isIntegralNumber()) {
                out.add(new Item(ids(n), null, null));
            } else {
                throw new IllegalArgumentException(tokenIds ? "'input' must be a string, a list of strings, a list of"
                        + " token ids or a list of lists of token ids" : "'input' must be a string or a list of strings");
            }
        }
        return out;
    }

    private static long[] ids(JsonNode list) {
        long[] ids = new long[list.size()];
        for (int i = 0; i < ids.length; i++) {
            if (!list.get(i).isIntegralNumber()) {
                throw new IllegalArgumentException("a list of token ids must hold only integers");
            }
            ids[i] = list.get(i).asLong();
        }
        return ids;
    }

    /** Query-document pairs, vLLM's way: 1:1, 1:N (the one query against each document) or N:N (pairwise). */
    private static List<Item> pairs(List<String> queries, List<String> documents) {
        if (queries.size() > 1 && queries.size() != documents.size()) {
            throw new IllegalArgumentException("Input lengths must be either 1:1, 1:N or N:N");
        }
        List<Item> out = new ArrayList<>(documents.size());
        long[] one = Tokenizer.encode(queries.getFirst());
        for (int i = 0; i < documents.size(); i++) {
            long[] q = queries.size() == 1 ? one : Tokenizer.encode(queries.get(i));
            out.add(new Item(q, Tokenizer.encode(documents.get(i)), documents.get(i)));
        }
        return out;
    }

    /** A string or a non-empty list of strings. */
    private static List<String> texts(JsonNode n, String field) {
        if (n != null && n.isArray()) {
            if (n.isEmpty()) {
                throw new IllegalArgumentException("'" + field + "' must not be empty");
            }
            List<String> out = new ArrayList<>(n.size());
            n.forEach(t -> out.add(text(t, field)));
            return out;
        }
        if (n == null || !n.isTextual()) {
            throw new IllegalArgumentException("'" + field + "' must be a string or a list of strings");
        }
        return List.of(n.asText());
    }

    private static String text(JsonNode n, String field) {
        if (n == null || !n.isTextual()) {
            throw new IllegalArgumentException("'" + field + "' must be a string");
        }
        return n.asText();
    }

    /** The first of {@code names} the body has (vLLM takes its score inputs under any of three names). */
    private static JsonNode first(JsonNode root, String... names) {
        for (String name : names) {
            if (root.has(name)) {
                return root.get(name);
            }
        }
        return null;
    }
}
