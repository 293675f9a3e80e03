package dev.kneepoint.sim;

import com.fasterxml.jackson.core.JsonProcessingException;
import com.fasterxml.jackson.databind.node.ArrayNode;
import com.fasterxml.jackson.databind.node.ObjectNode;
import java.io.IOException;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.List;
import java.util.SplittableRandom;
import java.util.concurrent.atomic.AtomicLong;

/**
 * The pooling APIs, answered once (never streamed): embeddings ({@code /v1/embeddings}, Ollama's {@code /api/embed}),
 * rerank ({@code /rerank}, {@code /v1/rerank}, {@code /v2/rerank}; TEI's shape on {@code /rerank} with {@code texts})
 * and score ({@code /score}, {@code /v1/score}). It models what such a request costs a vLLM-like server: each input,
 * or each query-document pair of a cross-encoder, is one engine sequence of its prompt tokens that ends with its
 * prefill (one output, the pooled result), batched with whatever else runs and through the prefix cache like any
 * prompt; the answer is sent once every sequence of the request has finished, the request's thread waiting for them.
 * Pooling sequences count prompt tokens in {@code /metrics}, never generation tokens, TTFT, ITL or end-to-end latency.
 * Validation, HTTP faults and the waiting-queue cap work as on the completion routes ({@link CompletionHandler}).
 */
final class PoolingHandler {
    private static final String JSON = "application/json";
    private final SimConfig config;
    private final Engine engine;
    private final SimMetrics metrics;
    private final FaultPlanner faults;
    private final AtomicLong counter = new AtomicLong();

    PoolingHandler(SimConfig config, Engine engine, SimMetrics metrics, FaultPlanner faults) {
        this.config = config;
        this.engine = engine;
        this.metrics = metrics;
        this.faults = faults;
    }

    /** Serves one pooling request sent to {@code path}. */
    void handle(String path, HttpRequestData req, SimExchange ex) throws IOException {
        long arrival = System.nanoTime();
        metrics.requestsReceived.increment();
        long index = counter.getAndIncrement();
        SplittableRandom random = new SplittableRandom(Sequence.mix(~config.seed() ^ Sequence.mix(index + 1)));
        PoolingRequest pr;
        FaultPlanner.Decision fault;
        try {
            pr = PoolingRequest.parse(path, JsonText.MAPPER.readTree(req.body()));
            fault = faults.decide(req.header(FaultPlanner.HEADER), random, arrival);
        } catch (IllegalArgumentException | JsonProcessingException e) {
            CompletionHandler.error(ex, 400, "BadRequestError", e.getMessage());
            return;
        }
        if (pr.model() != null && !config.serves(pr.model())) {
            CompletionHandler.error(ex, 404, "NotFoundError", "The model `" + pr.model() + "` does not exist.");
            return;
        }
        if (CompletionHandler.refusedByFault(fault, metrics, ex)) {
            return;
        }
        String invalid = invalid(pr);
        if (invalid != null) {
            CompletionHandler.error(ex, 400, "BadRequestError", invalid);
            return;
        }
        if (!CompletionHandler.admitted(fault, config, engine, metrics, ex)) {
            return;
        }
        StreamSink sink = new StreamSink();
        List<Sequence> seqs = new ArrayList<>(pr.items().size());
        int promptTokens = 0;
        for (PoolingRequest.Item item : pr.items()) {
            long[] ids = item.promptIds();
            promptTokens += ids.length;
            seqs.add(Sequence.pooling(index, ids, config.blockSize(), sink));
        }
        seqs.forEach(engine::submit);
        try {
            awaitAll(sink, seqs.size());
            if (CompletionHandler.answeredFault(fault, ex)) {
                return;
            }
            String id = Long.toHexString(Sequence.mix(~config.seed() + index + 1));
            ex.send(200, JSON, JsonText.MAPPER.writeValueAsBytes(answer(pr, id, promptTokens, arrival)));
        } catch (IOException e) {
            seqs.forEach(engine::abort);
            throw e;
        } catch (InterruptedException e) {
            seqs.forEach(engine::abort);
            ex.markBroken();
            Thread.currentThread().interrupt();
        }
    }

    /** Why the engine cannot take the request (vLLM's messages), or null when it can. */
    private String invalid(PoolingRequest pr) {
        int maxLen = config.maxModelLen();
        for (int i = 0; i < pr.items().size(); i++) {
            int n = pr.items().get(i).promptIds().length;
            if (n < 1) {
                return "input " + i + " has no tokens: every input must have at least one";
            }
            if (n > maxLen) {
                return "This model's maximum context length is " + maxLen + " tokens. However, your prompt contains "
                        + n + " input tokens, which exceeds this limit even without any output tokens. Please reduce"
                        + " the length of the input prompt.";
            }
        }
        Integer d = pr.dimensions();
        int size = config.embeddingDimensions();
        if (d != null && (d < 1 || d > size)) {
            return "Model '" + config.modelName() + "' only supports dimensions in range [1, " + size + "], got " + d + ".";
        }
        return null;
    }

    /** Waits (interruptibly) until {@code count} sequences have sent their one, finishing output. */
    private static void awaitAll(StreamSink sink, int count) throws InterruptedException {
        List<StreamSink.Out> batch = new ArrayList<>();
        int finished = 0;
        while (finished < count) {
            sink.takeAll(batch);
            for (StreamSink.Out o : batch) {
                finished += o.finished() ? 1 : 0;
            }
        }
    }

    /** The answer body in the request's API's shape. */
    private Object answer(PoolingRequest pr, String id, int promptTokens, long arrival) {
        ObjectNode out = JsonText.MAPPER.createObjectNode();
        long created = System.currentTimeMillis() / 1000;
        int size = config.embeddingDimensions();
        int dims = pr.dimensions() == null ? size : pr.dimensions();
        switch (pr.api()) {
            case EMBEDDINGS -> {
                out.put("id", "embd-" + id).put("object", "list").put("created", created).put("model", config.modelName());
                ArrayNode data = out.putArray("data");
                for (int i = 0; i < pr.items().size(); i++) {
                    float[] v = Embedding.of(pr.items().get(i).first(), size, dims);
                    ObjectNode d = data.addObject().put("index", i).put("object", "embedding");
                    if (pr.base64()) {
                        d.put("embedding", Embedding.base64(v));
                    } else {
                        floats(d.putArray("embedding"), v);
                    }
                }
                usage(out, promptTokens).put("completion_tokens", 0).putNull("completion_tokens_details");
            }
            case OLLAMA_EMBED -> {
                out.put("model", config.modelName());
                ArrayNode all = out.putArray("embeddings");
                pr.items().forEach(item -> floats(all.addArray(), Embedding.of(item.first(), size, dims)));
                out.put("total_duration", System.nanoTime() - arrival).put("load_duration", 0)
                        .put("prompt_eval_count", promptTokens);
            }
            case RERANK -> {
                out.put("id", "score-" + id).put("model", config.modelName());
                usage(out, promptTokens);
                ArrayNode results = out.putArray("results");
                for (Scored s : ranked(pr, size)) {
                    ObjectNode r = results.addObject().put("index", s.index());
                    r.putObject("document").put("text", pr.items().get(s.index()).text()).putNull("multi_modal");
                    r.put("relevance_score", s.score());
                }
            }
            case TEI_RERANK -> {
                ArrayNode results = JsonText.MAPPER.createArrayNode();
                for (Scored s : ranked(pr, size)) {
                    ObjectNode r = results.addObject().put("index", s.index());
                    if (pr.returnText()) {
                        r.put("text", pr.items().get(s.index()).text());
                    }
                    r.put("score", s.score());
                }
                return results;
            }
            case SCORE -> {
                out.put("id", "score-" + id).put("object", "list").put("created", created).put("model", config.modelName());
                ArrayNode data = out.putArray("data");
                List<Scored> scores = scores(pr, size);
                scores.forEach(s -> data.addObject().put("index", s.index()).put("object", "score").put("score", s.score()));
                usage(out, promptTokens).put("completion_tokens", 0).putNull("completion_tokens_details");
            }
        }
        return out;
    }

    private record Scored(int index, double score) {
    }

    private static List<Scored> scores(PoolingRequest pr, int size) {
        List<Scored> out = new ArrayList<>(pr.items().size());
        for (int i = 0; i < pr.items().size(); i++) {
            PoolingRequest.Item item = pr.items().get(i);
            out.add(new Scored(i, Embedding.relevance(item.first(), item.second(), size)));
        }
        return out;
    }

    /** The pairs by relevance, highest first (ties in request order), at most {@code top_n} of them (0 = all). */
    private static List<Scored> ranked(PoolingRequest pr, int size) {
        List<Scored> all = new ArrayList<>(scores(pr, size));
        all.sort(Comparator.comparingDouble(Scored::score).reversed());
        return pr.topN() > 0 && pr.topN() < all.size() ? all.subList(0, pr.topN()) : all;
    }

    private static ObjectNode usage(ObjectNode out, int promptTokens) {
        return out.putObject("usage").put("prompt_tokens", promptTokens).put("total_tokens", promptTokens);
    }

    private static void floats(ArrayNode into, float[] v) {
        for (float f : v) {
            into.add(f);
        }
    }
}
