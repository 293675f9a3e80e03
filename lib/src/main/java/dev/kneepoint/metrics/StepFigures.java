package dev.kneepoint.metrics;

import java.util.List;
import java.util.function.ToLongFunction;

/**
 * The per-step counts that summary.json and the steps table ({@code Tables.steps}) both show under the same
 * names: each name defined once, next to how it is read off a {@link StepResult}, in the order both show them.
 */
public final class StepFigures {
    private StepFigures() {}

    /** A whole-number figure of a step. */
    public record Count(String name, ToLongFunction<StepResult> value) {}

    /** How the step's requests ended: {@code requests_ok, requests_failed, cancelled, dropped, warmup_requests}. */
    public static final List<Count> OUTCOMES = List.of(
            new Count("requests_ok", s -> s.counts().requestsOk()),
            new Count("requests_failed", s -> s.counts().requestsFailed()),
            new Count("cancelled", s -> s.counts().cancelled()),
            new Count("dropped", s -> s.counts().dropped()),
            new Count("warmup_requests", s -> s.counts().warmupRequests()));

    /**
     * Requests the workload gave up mid-request ({@code abandoned}): shown after {@link #OUTCOMES} only where a step
     * has some, so the files of runs without abandonment stay as they were.
     */
    public static final Count ABANDONED = new Count("abandoned", s -> s.counts().abandoned());

    /** OK answers that were to be structured output and are not ({@code output_invalid}): likewise only where some. */
    public static final Count OUTPUT_INVALID = new Count("output_invalid", s -> s.counts().outputInvalid());

    /** What the step's records disagreed on or needed: {@code output_len_mismatch, count_discrepancy, retried}. */
    public static final List<Count> DISCREPANCIES = List.of(
            new Count("output_len_mismatch", s -> s.counts().outputLenMismatch()),
            new Count("count_discrepancy", s -> s.counts().countDiscrepancy()),
            new Count("retried", s -> s.counts().retried()));
}
