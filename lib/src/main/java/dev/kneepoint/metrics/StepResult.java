package dev.kneepoint.metrics;

import java.util.Collections;
import java.util.Locale;
import java.util.Map;
import java.util.Objects;
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
 * @param info              what load the step applied
 * @param window            measurement window
 * @param windowS           window length, seconds
 * @param requestsOk        OK requests
 * @param requestsFailed    not OK and not cancelled (dropped included)
 * @param cancelled         cancelled requests, reported apart
 * @param dropped           dropped requests (also in {@code requestsFailed} and {@code failuresByClass})
 * @param warmupRequests    warm-up requests, excluded from everything but the windowed rates
 * @param failuresByClass   outcome label → count for every non-OK, non-cancelled outcome, sorted by label
 * @param ttft              {@code t_first_token − t_dispatch}
 * @param ttftSched         {@code t_first_token − t_intended}
 * @param itl               per-token inter-token latency
 * @param chunkGap          raw gaps between token-carrying events
 * @param tpot              time per output token, requests with at least 2 output tokens
 * @param e2e               {@code t_last_token − t_dispatch}
 * @param e2eSched          {@code t_last_token − t_intended}
 * @param scheduleLag       {@code t_dispatch − t_intended}
 * @param outputTokensPerS  output tokens arriving in the window / window length
 * @param inputTokensPerS   prompt tokens of requests dispatched in the window / window length
 * @param requestsPerS      OK requests completing in the window / window length
 * @param goodputRps        requests completing in the window that met the SLO / window length
 * @param goodFraction      good / all non-cancelled outcomes completing in the window (NaN when none)
 * @param failureRate       requestsFailed / (requestsOk + requestsFailed) (NaN when none)
 * @param concurrencyMean   time-average of requests in flight over the window
 * @param outputLenMismatch OK requests whose output length differs from the requested one
 * @param countDiscrepancy  requests whose client-side token count disagrees with the server total
 * @param tokenSources      token source label → requests, sorted by label
 * @param meanPromptTokens  mean prompt tokens of the step's OK requests (NaN when none): the token budget
 * @param meanOutputTokens  mean output tokens of the step's OK requests (NaN when none)
 * @param slo               the SLO goodput was judged against
 * @param reasoningTokens   output tokens of the step's OK requests carried as reasoning content
 *                          ({@code reasoning_content}, {@code reasoning}, Ollama {@code thinking}); part of the output tokens
 * @param meanReasoningTokens mean reasoning tokens of the step's OK requests (NaN when none)
 * @param ttfat             time to the first answer token ({@code t_first_answer − t_dispatch}) of the step's OK
 *                          requests that produced answer text; equal to TTFT for requests without reasoning. Empty when
 *                          the step's records carry no first-answer time (no request with reasoning)
 * @param clientCheck       whether the load generator, not the server, limited the step ({@link ClientCheck})
 */
public record StepResult(
        StepInfo info, StepWindow window, double windowS,
        long requestsOk, long requestsFailed, long cancelled, long dropped, long warmupRequests,
        Map<String, Long> failuresByClass,
        Distribution ttft, Distribution ttftSched, Distribution itl, Distribution chunkGap,
        Distribution tpot, Distribution e2e, Distribution e2eSched, Distribution scheduleLag,
        double outputTokensPerS, double inputTokensPerS, double requestsPerS, double goodputRps,
        double goodFraction, double failureRate, double concurrencyMean,
        long outputLenMismatch, long countDiscrepancy, Map<String, Long> tokenSources,
        double meanPromptTokens, double meanOutputTokens, Slo slo, long reasoningTokens, double meanReasoningTokens,
        ClientCheck clientCheck, Distribution ttfat) {

    /** A result without a time-to-first-answer distribution (empty): the form before it was measured. */
    public StepResult(
            StepInfo info, StepWindow window, double windowS,
            long requestsOk, long requestsFailed, long cancelled, long dropped, long warmupRequests,
            Map<String, Long> failuresByClass,
            Distribution ttft, Distribution ttftSched, Distribution itl, Distribution chunkGap,
            Distribution tpot, Distribution e2e, Distribution e2eSched, Distribution scheduleLag,
            double outputTokensPerS, double inputTokensPerS, double requestsPerS, double goodputRps,
            double goodFraction, double failureRate, double concurrencyMean,
            long outputLenMismatch, long countDiscrepancy, Map<String, Long> tokenSources,
            double meanPromptTokens, double meanOutputTokens, Slo slo, long reasoningTokens, double meanReasoningTokens,
            ClientCheck clientCheck) {
        this(info, window, windowS, requestsOk, requestsFailed, cancelled, dropped, warmupRequests, failuresByClass,
                ttft, ttftSched, itl, chunkGap, tpot, e2e, e2eSched, scheduleLag, outputTokensPerS, inputTokensPerS,
                requestsPerS, goodputRps, goodFraction, failureRate, concurrencyMean, outputLenMismatch,
                countDiscrepancy, tokenSources, meanPromptTokens, meanOutputTokens, slo, reasoningTokens,
                meanReasoningTokens, clientCheck, Distribution.empty());
    }

    /** A result without reasoning counts (0 reasoning tokens); the form before reasoning was counted apart. */
    public StepResult(
            StepInfo info, StepWindow window, double windowS,
            long requestsOk, long requestsFailed, long cancelled, long dropped, long warmupRequests,
            Map<String, Long> failuresByClass,
            Distribution ttft, Distribution ttftSched, Distribution itl, Distribution chunkGap,
            Distribution tpot, Distribution e2e, Distribution e2eSched, Distribution scheduleLag,
            double outputTokensPerS, double inputTokensPerS, double requestsPerS, double goodputRps,
            double goodFraction, double failureRate, double concurrencyMean,
            long outputLenMismatch, long countDiscrepancy, Map<String, Long> tokenSources,
            double meanPromptTokens, double meanOutputTokens, Slo slo, ClientCheck clientCheck) {
        this(info, window, windowS, requestsOk, requestsFailed, cancelled, dropped, warmupRequests, failuresByClass,
                ttft, ttftSched, itl, chunkGap, tpot, e2e, e2eSched, scheduleLag, outputTokensPerS, inputTokensPerS,
                requestsPerS, goodputRps, goodFraction, failureRate, concurrencyMean, outputLenMismatch,
                countDiscrepancy, tokenSources, meanPromptTokens, meanOutputTokens, slo, 0,
                requestsOk == 0 ? Double.NaN : 0.0, clientCheck);
    }

    /**
     * A result with reasoning counts but without client health ({@link ClientHealth#NOT_MEASURED}): its
     * client check judges the schedule lag alone, against {@link ClientThresholds#defaults()}.
     */
    public StepResult(
            StepInfo info, StepWindow window, double windowS,
            long requestsOk, long requestsFailed, long cancelled, long dropped, long warmupRequests,
            Map<String, Long> failuresByClass,
            Distribution ttft, Distribution ttftSched, Distribution itl, Distribution chunkGap,
            Distribution tpot, Distribution e2e, Distribution e2eSched, Distribution scheduleLag,
            double outputTokensPerS, double inputTokensPerS, double requestsPerS, double goodputRps,
            double goodFraction, double failureRate, double concurrencyMean,
            long outputLenMismatch, long countDiscrepancy, Map<String, Long> tokenSources,
            double meanPromptTokens, double meanOutputTokens, Slo slo, long reasoningTokens, double meanReasoningTokens) {
        this(info, window, windowS, requestsOk, requestsFailed, cancelled, dropped, warmupRequests, failuresByClass,
                ttft, ttftSched, itl, chunkGap, tpot, e2e, e2eSched, scheduleLag, outputTokensPerS, inputTokensPerS,
                requestsPerS, goodputRps, goodFraction, failureRate, concurrencyMean, outputLenMismatch,
                countDiscrepancy, tokenSources, meanPromptTokens, meanOutputTokens, slo, reasoningTokens,
                meanReasoningTokens, ClientCheck.evaluate(info, windowS, requestsOk + requestsFailed + cancelled,
                        scheduleLag, ClientHealth.NOT_MEASURED, ClientThresholds.defaults()));
    }

    public StepResult {
        Objects.requireNonNull(info, "info");
        Objects.requireNonNull(window, "window");
        failuresByClass = Collections.unmodifiableMap(new TreeMap<>(failuresByClass));
        tokenSources = Collections.unmodifiableMap(new TreeMap<>(tokenSources));
        Objects.requireNonNull(slo, "slo");
        Objects.requireNonNull(clientCheck, "clientCheck");
        ttfat = ttfat == null ? Distribution.empty() : ttfat;
    }

    /**
     * A step without client health ({@link ClientHealth#NOT_MEASURED}): its client check judges the schedule lag
     * alone, against {@link ClientThresholds#defaults()}.
     */
    public StepResult(
            StepInfo info, StepWindow window, double windowS,
            long requestsOk, long requestsFailed, long cancelled, long dropped, long warmupRequests,
            Map<String, Long> failuresByClass,
            Distribution ttft, Distribution ttftSched, Distribution itl, Distribution chunkGap,
            Distribution tpot, Distribution e2e, Distribution e2eSched, Distribution scheduleLag,
            double outputTokensPerS, double inputTokensPerS, double requestsPerS, double goodputRps,
            double goodFraction, double failureRate, double concurrencyMean,
            long outputLenMismatch, long countDiscrepancy, Map<String, Long> tokenSources,
            double meanPromptTokens, double meanOutputTokens, Slo slo) {
        this(info, window, windowS, requestsOk, requestsFailed, cancelled, dropped, warmupRequests, failuresByClass,
                ttft, ttftSched, itl, chunkGap, tpot, e2e, e2eSched, scheduleLag, outputTokensPerS, inputTokensPerS,
                requestsPerS, goodputRps, goodFraction, failureRate, concurrencyMean, outputLenMismatch,
                countDiscrepancy, tokenSources, meanPromptTokens, meanOutputTokens, slo,
                ClientCheck.evaluate(info, windowS, requestsOk + requestsFailed + cancelled, scheduleLag,
                        ClientHealth.NOT_MEASURED, ClientThresholds.defaults()));
    }

    /** True when the load generator, not the server, limited this step ({@link ClientCheck#clientBound()}). */
    public boolean clientBound() {
        return clientCheck.clientBound();
    }

    /**
     * The distributions by their file name ({@code ttft_ms} ...), in the order summary.json lists them;
     * {@code ttfat_ms} last, only when the step measured it.
     */
    public Map<String, Distribution> distributions() {
        Map<String, Distribution> m = new java.util.LinkedHashMap<>();
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

    @Override
    public String toString() {
        return String.format(Locale.ROOT, "StepResult[%s, window=%.3fs, ok=%d, failed=%d, out_tok/s=%.1f, "
                        + "req/s=%.3f, goodput=%.3f, conc=%.2f, ttft p99=%.3fms, ttft_sched p99=%.3fms, itl p99=%.3fms]",
                info.label(), windowS, requestsOk, requestsFailed, outputTokensPerS, requestsPerS, goodputRps,
                concurrencyMean, ttft.p99(), ttftSched.p99(), itl.p99());
    }
}
