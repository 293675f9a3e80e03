package dev.kneepoint.workload;

import dev.kneepoint.request.RequestSpec;
import dev.kneepoint.request.SessionWorkload;
import dev.kneepoint.request.Workload;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Objects;

/**
 * Pooling requests made of another workload's prompts, {@code size} to a request ({@code RequestSpec.inputs}):
 * request {@code i} takes the prompts of the base's requests {@code i·size} to {@code i·size + size − 1}, so the same
 * index always sends the same batch and no prompt is sent twice (until a dataset cycles). With a query (rerank,
 * score), each request takes one more: its first prompt is the query, the next {@code size} are the documents.
 *
 * <p>The requested prompt tokens are what the server will count when every request's length was known: the sum of
 * the batch's prompts, and for a query, the query's once per document (a cross-encoder scores each query-document
 * pair as one sequence); -1 when one of them is unknown.
 */
public final class PoolingBatch implements DescribedWorkload {
    private final Workload base;
    private final int size;
    private final boolean query;

    private PoolingBatch(Workload base, int size, boolean query) {
        this.base = base;
        this.size = size;
        this.query = query;
    }

    /**
     * Batches of {@code size} of {@code base}'s prompts, led by a query prompt when {@code query}.
     *
     * @throws IllegalArgumentException when {@code size < 1} or {@code base} runs chat sessions (a pooling request has
     *                                  no answer to carry into a next turn)
     */
    public static PoolingBatch of(Workload base, int size, boolean query) {
        Objects.requireNonNull(base, "base");
        if (size < 1) {
            throw new IllegalArgumentException("a pooling batch needs at least 1 input, got " + size);
        }
        if (base instanceof SessionWorkload) {
            throw new IllegalArgumentException("a pooling request has no answer to carry into a next turn: use a"
                    + " workload of single requests, not chat sessions");
        }
        return new PoolingBatch(base, size, query);
    }

    /** The inputs per request. */
    public int size() {
        return size;
    }

    @Override
    public RequestSpec next(long index) {
        int stride = size + (query ? 1 : 0);
        long first = index * stride;
        RequestSpec lead = base.next(first);
        List<String> inputs = new ArrayList<>(size);
        int queryTokens = query ? lead.requestedPromptTokens() : 0;
        long tokens = 0;
        boolean known = !query || queryTokens >= 0;
        for (int k = 0; k < size; k++) {
            RequestSpec s = query || k > 0 ? base.next(first + (query ? 1 : 0) + k) : lead;
            inputs.add(text(s));
            known &= s.requestedPromptTokens() >= 0;
            tokens += Math.max(0, s.requestedPromptTokens()) + queryTokens;
        }
        int requested = known ? (int) Math.min(tokens, Integer.MAX_VALUE) : -1;
        return new RequestSpec(text(lead), List.of(), -1, requested, Map.of(), lead.tag()).withInputs(inputs, requested)
                .withModel(lead.model());
    }

    /** A request's text: its prompt, or (a chat request of a dataset) its last message's. */
    private static String text(RequestSpec s) {
        return !s.prompt().isEmpty() || s.messages().isEmpty() ? s.prompt() : s.messages().getLast().content();
    }

    @Override
    public Map<String, Object> describe() {
        Map<String, Object> d = new LinkedHashMap<>();
        d.put("kind", "pooling-batch");
        d.put("batch", size);
        d.put("query", query);
        if (base instanceof DescribedWorkload described) {
            d.put("inputs", described.describe());
        }
        return d;
    }
}
