package dev.kneepoint.metrics;

import java.util.Collections;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.OptionalDouble;
import java.util.TreeMap;
import java.util.function.DoubleFunction;

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
 * {@link Builder#build()} fills in the defaults. Both paths validate in the canonical constructor, which reports every
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
     */
    public record Rates(double outputTokensPerS, double inputTokensPerS, double requestsPerS, double goodputRps,
            double goodFraction, double failureRate, double concurrencyMean) {}

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
     * Validates every component and reports every problem at once (as {@link Builder#build()} does, which calls
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
     * {@code clientCheck} are derived when not given (see {@link Builder}). {@code info} and {@code window} are
     * required.
     */
    public static Builder builder() {
        return new Builder();
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

    /**
     * Builds a {@link StepResult}; {@link #build()} reports every problem at once. Each setter is named after the
     * component it sets (of the record or of one of its groups). Defaults, for what is not set:
     * <ul>
     *   <li>counts ({@code requestsOk ... warmupRequests, outputLenMismatch, countDiscrepancy, reasoningTokens,
     *       retried}): 0; {@code failuresByClass}, {@code tokenSources}: empty; every distribution:
     *       {@link Distribution#empty()};</li>
     *   <li>rates ({@code outputTokensPerS, inputTokensPerS, requestsPerS, goodputRps, goodFraction,
     *       concurrencyMean}) and {@code meanPromptTokens, meanOutputTokens}: NaN (not measured);
     *       {@code slo}: {@link Slo#none()};</li>
     *   <li>{@code windowS}: the window's length in seconds; {@code failureRate}:
     *       {@code requestsFailed / (requestsOk + requestsFailed)}, NaN when both are 0; {@code meanReasoningTokens}:
     *       {@code reasoningTokens / requestsOk}, NaN without OK requests;</li>
     *   <li>{@code clientCheck}: the schedule lag alone judged against {@link ClientThresholds#defaults()}, without
     *       client health: {@code ClientCheck.evaluate(info, windowS, requestsOk + requestsFailed + cancelled,
     *       scheduleLag, ClientHealth.NOT_MEASURED, ClientThresholds.defaults())}.</li>
     * </ul>
     * Not thread-safe.
     */
    public static final class Builder {
        private StepInfo info;
        private StepWindow window;
        /** Empty: derived from the window. */
        private OptionalDouble windowS = OptionalDouble.empty();
        private long requestsOk;
        private long requestsFailed;
        private long cancelled;
        private long abandoned;
        private long outputInvalid;
        private long dropped;
        private long warmupRequests;
        private long outputLenMismatch;
        private long countDiscrepancy;
        private long reasoningTokens;
        private long cachedPromptTokens;
        private long reportedPromptTokens;
        private long retried;
        private Map<String, Long> failuresByClass = Map.of();
        private Map<String, Long> tokenSources = Map.of();
        private Distribution ttft = Distribution.empty();
        private Distribution ttftSched = Distribution.empty();
        private Distribution itl = Distribution.empty();
        private Distribution chunkGap = Distribution.empty();
        private Distribution tpot = Distribution.empty();
        private Distribution e2e = Distribution.empty();
        private Distribution e2eSched = Distribution.empty();
        private Distribution scheduleLag = Distribution.empty();
        private Distribution ttfat = Distribution.empty();
        private LatencyTrend trend = LatencyTrend.NONE;
        private double outputTokensPerS = Double.NaN;
        private double inputTokensPerS = Double.NaN;
        private double requestsPerS = Double.NaN;
        private double goodputRps = Double.NaN;
        private double goodFraction = Double.NaN;
        /** Empty: derived from the counts. */
        private OptionalDouble failureRate = OptionalDouble.empty();
        private double concurrencyMean = Double.NaN;
        private double meanPromptTokens = Double.NaN;
        private double meanOutputTokens = Double.NaN;
        /** Empty: derived from the reasoning tokens and the OK requests. */
        private OptionalDouble meanReasoningTokens = OptionalDouble.empty();
        private Slo slo = Slo.none();
        /** The client check for the window length: derived from the schedule lag unless one was set. */
        private DoubleFunction<ClientCheck> clientCheck = this::derivedCheck;

        // Unset fields hold their defaults, so a null here was set explicitly and the constructor reports it.
        private Builder() {}

        /** What load the step applied (required). */
        public Builder info(StepInfo info) { this.info = info; return this; }
        /** The measurement window (required). */
        public Builder window(StepWindow window) { this.window = window; return this; }
        /** Window length, s (default: the window's length); must be ≥ 0. */
        public Builder windowS(double seconds) { this.windowS = OptionalDouble.of(seconds); return this; }
        /** OK requests. */
        public Builder requestsOk(long n) { this.requestsOk = n; return this; }
        /** Not OK and not cancelled requests, dropped included. */
        public Builder requestsFailed(long n) { this.requestsFailed = n; return this; }
        /** Cancelled requests. */
        public Builder cancelled(long n) { this.cancelled = n; return this; }
        /** Requests the workload gave up mid-request ({@code ABANDONED}). */
        public Builder abandoned(long n) { this.abandoned = n; return this; }
        public Builder outputInvalid(long n) { this.outputInvalid = n; return this; } // structured answers that did not parse
        /** Dropped requests (at most {@code requestsFailed}: they are part of it). */
        public Builder dropped(long n) { this.dropped = n; return this; }
        /** Warm-up requests. */
        public Builder warmupRequests(long n) { this.warmupRequests = n; return this; }
        /** Outcome label → count of the failed requests. */
        public Builder failuresByClass(Map<String, Long> counts) { this.failuresByClass = counts; return this; }
        /** {@code t_first_token − t_dispatch}. */
        public Builder ttft(Distribution d) { this.ttft = d; return this; }
        /** {@code t_first_token − t_intended}. */
        public Builder ttftSched(Distribution d) { this.ttftSched = d; return this; }
        /** Per-token inter-token latency. */
        public Builder itl(Distribution d) { this.itl = d; return this; }
        /** Raw gaps between token-carrying events. */
        public Builder chunkGap(Distribution d) { this.chunkGap = d; return this; }
        /** Time per output token. */
        public Builder tpot(Distribution d) { this.tpot = d; return this; }
        /** {@code t_last_token − t_dispatch}. */
        public Builder e2e(Distribution d) { this.e2e = d; return this; }
        /** {@code t_last_token − t_intended}. */
        public Builder e2eSched(Distribution d) { this.e2eSched = d; return this; }
        /** {@code t_dispatch − t_intended}. */
        public Builder scheduleLag(Distribution d) { this.scheduleLag = d; return this; }
        /** Time to the first answer token. */
        public Builder ttfat(Distribution d) { this.ttfat = d; return this; }
        /** How {@code ttft_sched} moved through the window (default {@link LatencyTrend#NONE}). */
        public Builder trend(LatencyTrend t) { this.trend = t; return this; }
        /** Output tokens arriving in the window / window length. */
        public Builder outputTokensPerS(double v) { this.outputTokensPerS = v; return this; }
        /** Prompt tokens of requests dispatched in the window / window length. */
        public Builder inputTokensPerS(double v) { this.inputTokensPerS = v; return this; }
        /** OK requests completing in the window / window length. */
        public Builder requestsPerS(double v) { this.requestsPerS = v; return this; }
        /** Requests completing in the window that met the SLO / window length. */
        public Builder goodputRps(double v) { this.goodputRps = v; return this; }
        /** Good / all non-cancelled outcomes completing in the window. */
        public Builder goodFraction(double v) { this.goodFraction = v; return this; }
        /** requestsFailed / (requestsOk + requestsFailed) (default: computed from the counts). */
        public Builder failureRate(double v) { this.failureRate = OptionalDouble.of(v); return this; }
        /** Time-average of requests in flight over the window. */
        public Builder concurrencyMean(double v) { this.concurrencyMean = v; return this; }
        /** OK requests whose output length differs from the requested one. */
        public Builder outputLenMismatch(long n) { this.outputLenMismatch = n; return this; }
        /** Requests whose client-side token count disagrees with the server total. */
        public Builder countDiscrepancy(long n) { this.countDiscrepancy = n; return this; }
        /** Token source label → requests. */
        public Builder tokenSources(Map<String, Long> counts) { this.tokenSources = counts; return this; }
        /** Mean prompt tokens of the OK requests. */
        public Builder meanPromptTokens(double v) { this.meanPromptTokens = v; return this; }
        /** Mean output tokens of the OK requests. */
        public Builder meanOutputTokens(double v) { this.meanOutputTokens = v; return this; }
        /** The SLO goodput was judged against (default {@link Slo#none()}). */
        public Builder slo(Slo slo) { this.slo = slo; return this; }
        /** Reasoning tokens of the OK requests. */
        public Builder reasoningTokens(long n) { this.reasoningTokens = n; return this; }
        /**
         * Of the OK requests whose usage said how many prompt tokens the prefix cache held: those tokens, and all their
         * prompt tokens (default 0 and 0: none said).
         */
        public Builder cachedPromptTokens(long cached, long reported) {
            this.cachedPromptTokens = cached;
            this.reportedPromptTokens = reported;
            return this;
        }
        /** Mean reasoning tokens of the OK requests (default: reasoningTokens / requestsOk, NaN without OK requests). */
        public Builder meanReasoningTokens(double v) { this.meanReasoningTokens = OptionalDouble.of(v); return this; }
        /** The client self-check (default: schedule lag alone, without client health, default thresholds). */
        public Builder clientCheck(ClientCheck check) { this.clientCheck = seconds -> check; return this; }
        /** Requests resent on a fresh connection after a stale kept-alive one (at most requestsOk + requestsFailed). */
        public Builder retried(long n) { this.retried = n; return this; }

        /**
         * The result: the defaults filled in, then validated by the canonical constructor.
         *
         * @throws IllegalArgumentException listing every problem at once: a missing {@code info} or {@code window},
         *                                  a null argument, a negative count, a negative or NaN {@code windowS},
         *                                  more dropped than failed or more retried than OK + failed requests
         */
        public StepResult build() {
            // Without a window its length is unknown: 0 keeps the missing window the only problem reported.
            double seconds = windowS.orElseGet(() -> window == null ? 0 : window.lengthNanos() / 1e9);
            long outcomes = requestsOk + requestsFailed;
            double rate = failureRate.orElseGet(() -> outcomes == 0 ? Double.NaN : (double) requestsFailed / outcomes);
            double meanReasoning = meanReasoningTokens.orElseGet(
                    () -> requestsOk == 0 ? Double.NaN : (double) reasoningTokens / requestsOk);
            ClientCheck check = clientCheck.apply(seconds);
            return new StepResult(info, window, seconds,
                    new Counts(requestsOk, requestsFailed, cancelled, dropped, warmupRequests, retried,
                            outputLenMismatch, countDiscrepancy, failuresByClass, tokenSources, abandoned,
                            outputInvalid),
                    new Latency(ttft, ttftSched, itl, chunkGap, tpot, e2e, e2eSched, scheduleLag, ttfat, trend),
                    new Rates(outputTokensPerS, inputTokensPerS, requestsPerS, goodputRps, goodFraction, rate,
                            concurrencyMean),
                    new Tokens(meanPromptTokens, meanOutputTokens, reasoningTokens, meanReasoning, cachedPromptTokens,
                            reportedPromptTokens), slo, check);
        }

        private ClientCheck derivedCheck(double seconds) {
            if (info == null || scheduleLag == null) {
                // Nothing to judge; the constructor rejects the missing field, and this unjudged check keeps it
                // from also reporting a missing clientCheck the caller never set.
                return new ClientCheck(ClientHealth.NOT_MEASURED, ClientThresholds.defaults(), Double.NaN, List.of(),
                        false);
            }
            return ClientCheck.evaluate(info, seconds, requestsOk + requestsFailed + cancelled, scheduleLag,
                    ClientHealth.NOT_MEASURED, ClientThresholds.defaults());
        }
    }
}
