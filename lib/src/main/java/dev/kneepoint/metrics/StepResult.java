package dev.kneepoint.metrics;

import java.util.Collections;
import java.util.LinkedHashMap;
import java.util.Locale;
import java.util.Map;
import java.util.TreeMap;

/**
 * Everything measured in one step (METRICS.md "Step (aggregate) metrics").
 *
 * <p>Membership: counts, failure classes and latency distributions cover the step's non-warm-up
 * requests (the load layer flags as warm-up the requests dispatched before the window start, and the
 * window ends after the step's last request ended, so these are the requests dispatched in the window).
 * Latency distributions take OK requests only; {@code schedule_lag} takes every dispatched request.
 * Windowed rates are about time, not membership: they count whatever of the step happened inside the
 * window (tokens arriving, prompts dispatched, requests completing), warm-up requests included.
 * Rates are NaN for a zero-length window.
 *
 * <p>The measurements are grouped: {@link Counts}, {@link Latency}, {@link Rates} and {@link Tokens}.
 * Built by {@link StepAggregator}; elsewhere (tests, hand-made results) with {@link #builder()}, whose
 * {@link StepResultBuilder#build()} fills in the defaults. Both paths validate in the canonical constructor, which reports every
 * invalid field at once.
 *
 * @param info        what load the step applied
 * @param window      measurement window
 * @param windowS     window length, seconds
 * @param counts      request counts
 * @param latency     latency distributions
 * @param rates       windowed rates and fractions
 * @param tokens      token means and totals of the step's OK requests
 * @param slo         the SLO goodput was judged against
 * @param clientCheck whether the load generator, not the server, limited the step ({@link ClientCheck})
 */
public record StepResult(
        StepInfo info, StepWindow window, double windowS, Counts counts, Latency latency, Rates rates, Tokens tokens,
        Slo slo, ClientCheck clientCheck) {

    /**
     * Request counts; the maps are kept sorted by label (the canonical {@link StepResult} constructor checks them).
     *
     * @param requestsOk        OK requests
     * @param requestsFailed    not OK and not cancelled (dropped included)
     * @param cancelled         cancelled requests, reported apart
     * @param dropped           dropped requests (also in {@code requestsFailed} and {@code failuresByClass})
     * @param warmupRequests    warm-up requests, excluded from everything but the windowed rates
     * @param retried           requests resent once on a fresh connection after a stale kept-alive one
     *                          ({@link RequestRecord.Response#retried()}), of {@code requestsOk + requestsFailed}; not
     *                          extra requests: each one's latency includes the lost attempt
     * @param outputLenMismatch OK requests whose output length differs from the requested one
     * @param countDiscrepancy  requests whose client-side token count disagrees with the server total
     * @param failuresByClass   outcome label → count for every non-OK, non-cancelled outcome, sorted by label
     * @param tokenSources      token source label → requests, sorted by label
     * @param abandoned         requests the workload gave up mid-request ({@code ABANDONED}), reported apart like
     *                          the cancelled ones: neither OK nor failed
     * @param outputInvalid     OK requests whose answer was to be structured output and is not
     */
    public record Counts(long requestsOk, long requestsFailed, long cancelled, long dropped, long warmupRequests,
            long retried, long outputLenMismatch, long countDiscrepancy, Map<String, Long> failuresByClass,
            Map<String, Long> tokenSources, long abandoned, long outputInvalid) {
        public Counts {
            failuresByClass = sorted(failuresByClass);
            tokenSources = sorted(tokenSources);
        }

        /** Counts of a step whose workload gave no request up. */
        public Counts(long requestsOk, long requestsFailed, long cancelled, long dropped, long warmupRequests,
                      long retried, long outputLenMismatch, long countDiscrepancy, Map<String, Long> failuresByClass,
                      Map<String, Long> tokenSources) {
            this(requestsOk, requestsFailed, cancelled, dropped, warmupRequests, retried, outputLenMismatch,
                    countDiscrepancy, failuresByClass, tokenSources, 0, 0);
        }

        /** An unmodifiable copy sorted by key; null stays null, for the {@link StepResult} constructor to report. */
        private static Map<String, Long> sorted(Map<String, Long> m) {
            return m == null ? null : Collections.unmodifiableMap(new TreeMap<>(m));
        }
    }

    /**
     * Latency distributions of the step's OK requests ({@code scheduleLag}: of every dispatched one).
     *
     * @param ttft        {@code t_first_token − t_dispatch}
     * @param ttftSched   {@code t_first_token − t_intended}
     * @param itl         per-token inter-token latency
     * @param chunkGap    raw gaps between token-carrying events
     * @param tpot        time per output token, requests with at least 2 output tokens
     * @param e2e         {@code t_last_token − t_dispatch}
     * @param e2eSched    {@code t_last_token − t_intended}
     * @param scheduleLag {@code t_dispatch − t_intended}
     * @param ttfat       time to the first answer token ({@code t_first_answer − t_dispatch}) of the step's OK
     *                    requests that produced answer text; equal to TTFT for requests without reasoning. Empty when
     *                    the step's records carry no first-answer time (no request with reasoning)
     * @param trend       how {@code ttft_sched} moved through the window ({@link LatencyTrend})
     */
    public record Latency(Distribution ttft, Distribution ttftSched, Distribution itl, Distribution chunkGap,
            Distribution tpot, Distribution e2e, Distribution e2eSched, Distribution scheduleLag,
            Distribution ttfat, LatencyTrend trend) {

        /**
         * The distributions by their file name ({@code ttft_ms} ...), in the order summary.json lists them;
         * {@code ttfat_ms} last, only when the step measured it.
         */
        public Map<String, Distribution> distributions() {
            Map<String, Distribution> m = new LinkedHashMap<>();
            m.put("ttft_ms", ttft);
            m.put("ttft_sched_ms", ttftSched);
            m.put("itl_ms", itl);
            m.put("chunk_gap_ms", chunkGap);
            m.put("tpot_ms", tpot);
            m.put("e2e_ms", e2e);
            m.put("e2e_sched_ms", e2eSched);
            m.put("schedule_lag_ms", scheduleLag);
            if (ttfat.count() > 0) { // only steps whose requests carried reasoning: other summaries stay unchanged
                m.put("ttfat_ms", ttfat);
            }
            return Collections.unmodifiableMap(m);
        }
    }

    /**
     * Windowed rates and fractions (NaN when not measured).
     *
     * @param outputTokensPerS output tokens arriving in the window / window length
     * @param inputTokensPerS  prompt tokens of requests dispatched in the window / window length
     * @param requestsPerS     OK requests completing in the window / window length
     * @param goodputRps       requests completing in the window that met the SLO / window length
     * @param goodFraction     good / all non-cancelled outcomes completing in the window (NaN when none)
     * @param failureRate      requestsFailed / (requestsOk + requestsFailed) (NaN when none)
     * @param concurrencyMean  time-average of requests in flight over the window
     * @param itemsPerS        items the OK pooling requests completing in the window returned (embedding vectors,
     *                         rerank or score results) / window length; 0 for a step of generation requests
     */
    public record Rates(double outputTokensPerS, double inputTokensPerS, double requestsPerS, double goodputRps,
            double goodFraction, double failureRate, double concurrencyMean, double itemsPerS) {

        /** The rates of a step of generation requests (no pooling items). */
        public Rates(double outputTokensPerS, double inputTokensPerS, double requestsPerS, double goodputRps,
                     double goodFraction, double failureRate, double concurrencyMean) {
            this(outputTokensPerS, inputTokensPerS, requestsPerS, goodputRps, goodFraction, failureRate,
                    concurrencyMean, 0);
        }
    }

    /**
     * Tokens of the step's OK requests.
     *
     * @param meanPromptTokens    mean prompt tokens (NaN when none): the token budget
     * @param meanOutputTokens    mean output tokens (NaN when none)
     * @param reasoningTokens     output tokens carried as reasoning content ({@code reasoning_content},
     *                            {@code reasoning}, Ollama {@code thinking}); part of the output tokens
     * @param meanReasoningTokens mean reasoning tokens (NaN when none)
     * @param cachedPromptTokens  prompt tokens the server's prefix cache held, summed over the OK requests whose usage
     *                            said ({@code prompt_tokens_details.cached_tokens})
     * @param reportedPromptTokens the prompt tokens of those same requests (0: no request said)
     */
    public record Tokens(double meanPromptTokens, double meanOutputTokens, long reasoningTokens,
            double meanReasoningTokens, long cachedPromptTokens, long reportedPromptTokens) {

        /** The same counts without cached-token reports (a server that gives none). */
        public Tokens(double meanPromptTokens, double meanOutputTokens, long reasoningTokens, double meanReasoningTokens) {
            this(meanPromptTokens, meanOutputTokens, reasoningTokens, meanReasoningTokens, 0, 0);
        }

        /** True when some OK request's usage said how many of its prompt tokens were cached. */
        public boolean cacheReported() { return reportedPromptTokens > 0; }

        /** {@code cachedPromptTokens / reportedPromptTokens}: the prefix cache's share of the prompts; NaN unreported. */
        public double cachedShare() {
            return cacheReported() ? (double) cachedPromptTokens / reportedPromptTokens : Double.NaN;
        }
    }

    /**
     * Validates every component and reports every problem at once (as {@link StepResultBuilder#build()} does, which calls
     * this): {@code info}, {@code window}, the groups, their maps and distributions, {@code slo} and
     * {@code clientCheck} must not be null; {@code windowS} must be ≥ 0 (not NaN); counts must be ≥ 0,
     * {@code dropped ≤ requestsFailed} and {@code retried ≤ requestsOk + requestsFailed}. Rates and means are not
     * checked (NaN means not measured).
     *
     * @throws IllegalArgumentException listing every problem at once
     */
    public StepResult {
        StepResultChecks.problems(info, window, windowS, counts, latency, rates, tokens, slo, clientCheck)
                .throwIfAny("StepResult");
    }

    /**
     * A builder holding the defaults: 0 counts, empty maps and distributions ({@link Distribution#empty()}), NaN
     * rates and means, {@link Slo#none()}; {@code windowS}, {@code failureRate}, {@code meanReasoningTokens} and
     * {@code clientCheck} are derived when not given (see {@link StepResultBuilder}). {@code info} and {@code window} are
     * required.
     */
    public static StepResultBuilder builder() {
        return new StepResultBuilder();
    }

    /** True when the load generator, not the server, limited this step ({@link ClientCheck#clientBound()}). */
    public boolean clientBound() {
        return clientCheck.clientBound();
    }

    /** The distributions by their file name, in the order summary.json lists them ({@link Latency#distributions()}). */
    public Map<String, Distribution> distributions() {
        return latency.distributions();
    }

    @Override
    public String toString() {
        return String.format(Locale.ROOT, "StepResult[%s, window=%.3fs, ok=%d, failed=%d, out_tok/s=%.1f, "
                        + "req/s=%.3f, goodput=%.3f, conc=%.2f, ttft p99=%.3fms, ttft_sched p99=%.3fms, itl p99=%.3fms]",
                info.label(), windowS, counts.requestsOk(), counts.requestsFailed(), rates.outputTokensPerS(),
                rates.requestsPerS(), rates.goodputRps(), rates.concurrencyMean(), latency.ttft().p99(),
                latency.ttftSched().p99(), latency.itl().p99());
    }
}
