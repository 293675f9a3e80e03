package dev.kneepoint.sweep;

import dev.kneepoint.client.ApiKind;
import dev.kneepoint.client.TargetConfig;
import dev.kneepoint.request.SessionWorkload;
import java.util.EnumSet;
import java.util.List;
import java.util.Set;

/**
 * The checks of what a sweep's requests carry against its target's API: a model mix needs an API whose body names
 * the model; a batch ({@link Sweep#batch}) needs a pooling API, a pooling API generates nothing (so nothing that
 * shapes or judges generated output applies), and a batch-size ladder runs at one concurrency level.
 */
final class ShapeChecks {
    /** The APIs whose request body has no model field: a model mix cannot route their requests. */
    private static final Set<ApiKind> NO_MODEL = EnumSet.of(ApiKind.TGI_GENERATE_STREAM, ApiKind.LLAMACPP_COMPLETION,
            ApiKind.SGLANG_GENERATE, ApiKind.TEI_RERANK);

    private ShapeChecks() {
    }

    /** Adds every problem of {@code s}'s request shape for {@code target} to {@code problems}. */
    static void add(SweepSettings s, TargetConfig target, List<String> problems) {
        if (s.models != null && NO_MODEL.contains(target.apiKind())) {
            problems.add("a model mix names each request's model, and the " + target.apiKind().label() + " API's "
                    + "body has no model field (the server serves one model): use an OpenAI-compatible API (chat, "
                    + "completions, embeddings ...), or one model");
        }
        boolean pooling = target.apiKind().isPooling();
        if (s.batch.isEmpty() || s.batch.stream().anyMatch(b -> b == null || b < 1)) {
            problems.add("batch sizes must be 1 or more inputs per request, got " + s.batch);
        }
        if (!pooling && !s.batch.equals(List.of(SweepDefaults.BATCH))) {
            problems.add("a batch of inputs applies to the pooling APIs (embeddings, ollama-embed, rerank, tei-rerank, "
                    + "score), and the target's API is " + target.apiKind().label() + ": set one, or remove the batch");
        }
        if (!pooling) {
            return;
        }
        String api = target.apiKind().label();
        if (s.tools != null || s.structured != null || s.media != null) {
            problems.add("a " + api + " request generates no answer: tools, structured output and media do not apply;"
                    + " remove them");
        }
        if (s.turns > 1 || s.workload instanceof SessionWorkload) {
            problems.add("a " + api + " request has no answer to carry into a next turn: chat sessions do not apply;"
                    + " use single requests");
        }
        if (s.abandonAfterTokens > 0) {
            problems.add("a " + api + " answer has no tokens to give up after: use abandon(rate, after) instead");
        }
        if (s.batch.size() > 1 && (s.concurrency.size() != 1 || s.replaysTrace() || s.sweepsRates()
                || s.searchesSlo())) {
            problems.add("a batch-size ladder " + s.batch + " runs closed loop at one concurrency level, got "
                    + (s.concurrency.isEmpty() ? "an open-loop sweep" : "levels " + s.concurrency)
                    + ": give one concurrency level, or run one sweep per batch size");
        }
    }
}
