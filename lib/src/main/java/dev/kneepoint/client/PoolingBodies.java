package dev.kneepoint.client;

import dev.kneepoint.request.RequestSpec;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;

/**
 * Request bodies of the pooling APIs ({@link ApiKind#isPooling()}). The batch is the spec's
 * {@link RequestSpec#inputs()}; rerank and score take the spec's prompt as the query:
 *
 * <table>
 * <caption>Pooling request bodies</caption>
 * <tr><th>API</th><th>body</th></tr>
 * <tr><td>embeddings</td><td>{@code model}, {@code input}: the batch, {@code encoding_format: "float"}</td></tr>
 * <tr><td>ollama-embed</td><td>{@code model}, {@code input}: the batch</td></tr>
 * <tr><td>rerank</td><td>{@code model}, {@code query}, {@code documents}: the batch</td></tr>
 * <tr><td>tei-rerank</td><td>{@code query}, {@code texts}: the batch</td></tr>
 * <tr><td>score</td><td>{@code model}, {@code text_1}: the query, {@code text_2}: the batch</td></tr>
 * </table>
 *
 * A spec without inputs sends its prompt as a batch of one (rerank and score: scored against itself). The
 * generation controls ({@code max_tokens}, {@code ignore_eos} ...) mean nothing here and are left out; other extra
 * fields of the spec, then the target's, are merged at the top level (e.g. {@code encoding_format: "base64"},
 * {@code dimensions}, {@code truncate_prompt_tokens}).
 */
final class PoolingBodies {
    private static final Set<String> CONTROLS = Set.of("ignore_eos", "min_tokens", "n_predict", "max_completion_tokens",
            "max_tokens");

    private PoolingBodies() {
    }

    static Map<String, Object> bodyMap(TargetConfig t, RequestSpec spec) {
        List<String> batch = batch(spec);
        Map<String, Object> body = new LinkedHashMap<>();
        switch (t.apiKind()) {
            case EMBEDDINGS -> {
                body.put("model", spec.modelOr(t.model()));
                body.put("input", batch);
                body.put("encoding_format", "float");
            }
            case OLLAMA_EMBED -> {
                body.put("model", spec.modelOr(t.model()));
                body.put("input", batch);
            }
            case RERANK -> {
                body.put("model", spec.modelOr(t.model()));
                body.put("query", spec.prompt());
                body.put("documents", batch);
            }
            case TEI_RERANK -> {
                body.put("query", spec.prompt());
                body.put("texts", batch);
            }
            case SCORE -> {
                body.put("model", spec.modelOr(t.model()));
                body.put("text_1", spec.prompt());
                body.put("text_2", batch);
            }
            default -> throw new IllegalArgumentException("not a pooling API: " + t.apiKind());
        }
        spec.extraBody().forEach((k, v) -> {
            if (!CONTROLS.contains(k)) {
                body.put(k, v);
            }
        });
        body.putAll(t.extraBody());
        return body;
    }

    /** The items the answer to {@code spec} must return: one per input of its batch. */
    static int expectedItems(RequestSpec spec) {
        return batch(spec).size();
    }

    private static List<String> batch(RequestSpec spec) {
        return spec.inputs().isEmpty() ? List.of(spec.prompt()) : spec.inputs();
    }
}
