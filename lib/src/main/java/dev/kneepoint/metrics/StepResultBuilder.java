package dev.kneepoint.metrics;

import java.util.List;
import java.util.Map;
import java.util.OptionalDouble;
import java.util.function.DoubleFunction;

/**
 * Builds a {@link StepResult} ({@link StepResult#builder()}); {@link #build()} reports every problem at once. Each setter is named after the
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
public final class StepResultBuilder {
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
    private double itemsPerS;
    private double meanPromptTokens = Double.NaN;
    private double meanOutputTokens = Double.NaN;
    /** Empty: derived from the reasoning tokens and the OK requests. */
    private OptionalDouble meanReasoningTokens = OptionalDouble.empty();
    private Slo slo = Slo.none();
    /** The client check for the window length: derived from the schedule lag unless one was set. */
    private DoubleFunction<ClientCheck> clientCheck = this::derivedCheck;

    // Unset fields hold their defaults, so a null here was set explicitly and the constructor reports it.
    StepResultBuilder() {}

    /** What load the step applied (required). */
    public StepResultBuilder info(StepInfo info) { this.info = info; return this; }
    /** The measurement window (required). */
    public StepResultBuilder window(StepWindow window) { this.window = window; return this; }
    /** Window length, s (default: the window's length); must be ≥ 0. */
    public StepResultBuilder windowS(double seconds) { this.windowS = OptionalDouble.of(seconds); return this; }
    /** OK requests. */
    public StepResultBuilder requestsOk(long n) { this.requestsOk = n; return this; }
    /** Not OK and not cancelled requests, dropped included. */
    public StepResultBuilder requestsFailed(long n) { this.requestsFailed = n; return this; }
    /** Cancelled requests. */
    public StepResultBuilder cancelled(long n) { this.cancelled = n; return this; }
    /** Requests the workload gave up mid-request ({@code ABANDONED}). */
    public StepResultBuilder abandoned(long n) { this.abandoned = n; return this; }
    public StepResultBuilder outputInvalid(long n) { this.outputInvalid = n; return this; } // structured answers that did not parse
    /** Dropped requests (at most {@code requestsFailed}: they are part of it). */
    public StepResultBuilder dropped(long n) { this.dropped = n; return this; }
    /** Warm-up requests. */
    public StepResultBuilder warmupRequests(long n) { this.warmupRequests = n; return this; }
    /** Outcome label → count of the failed requests. */
    public StepResultBuilder failuresByClass(Map<String, Long> counts) { this.failuresByClass = counts; return this; }
    /** {@code t_first_token − t_dispatch}. */
    public StepResultBuilder ttft(Distribution d) { this.ttft = d; return this; }
    /** {@code t_first_token − t_intended}. */
    public StepResultBuilder ttftSched(Distribution d) { this.ttftSched = d; return this; }
    /** Per-token inter-token latency. */
    public StepResultBuilder itl(Distribution d) { this.itl = d; return this; }
    /** Raw gaps between token-carrying events. */
    public StepResultBuilder chunkGap(Distribution d) { this.chunkGap = d; return this; }
    /** Time per output token. */
    public StepResultBuilder tpot(Distribution d) { this.tpot = d; return this; }
    /** {@code t_last_token − t_dispatch}. */
    public StepResultBuilder e2e(Distribution d) { this.e2e = d; return this; }
    /** {@code t_last_token − t_intended}. */
    public StepResultBuilder e2eSched(Distribution d) { this.e2eSched = d; return this; }
    /** {@code t_dispatch − t_intended}. */
    public StepResultBuilder scheduleLag(Distribution d) { this.scheduleLag = d; return this; }
    /** Time to the first answer token. */
    public StepResultBuilder ttfat(Distribution d) { this.ttfat = d; return this; }
    /** How {@code ttft_sched} moved through the window (default {@link LatencyTrend#NONE}). */
    public StepResultBuilder trend(LatencyTrend t) { this.trend = t; return this; }
    /** Output tokens arriving in the window / window length. */
    public StepResultBuilder outputTokensPerS(double v) { this.outputTokensPerS = v; return this; }
    /** Prompt tokens of requests dispatched in the window / window length. */
    public StepResultBuilder inputTokensPerS(double v) { this.inputTokensPerS = v; return this; }
    /** OK requests completing in the window / window length. */
    public StepResultBuilder requestsPerS(double v) { this.requestsPerS = v; return this; }
    /** Requests completing in the window that met the SLO / window length. */
    public StepResultBuilder goodputRps(double v) { this.goodputRps = v; return this; }
    /** Good / all non-cancelled outcomes completing in the window. */
    public StepResultBuilder goodFraction(double v) { this.goodFraction = v; return this; }
    /** requestsFailed / (requestsOk + requestsFailed) (default: computed from the counts). */
    public StepResultBuilder failureRate(double v) { this.failureRate = OptionalDouble.of(v); return this; }
    /** Time-average of requests in flight over the window. */
    public StepResultBuilder concurrencyMean(double v) { this.concurrencyMean = v; return this; }
    /** Items (vectors, scores) returned by OK pooling requests completing in the window / window length (default 0). */
    public StepResultBuilder itemsPerS(double v) { this.itemsPerS = v; return this; }
    /** OK requests whose output length differs from the requested one. */
    public StepResultBuilder outputLenMismatch(long n) { this.outputLenMismatch = n; return this; }
    /** Requests whose client-side token count disagrees with the server total. */
    public StepResultBuilder countDiscrepancy(long n) { this.countDiscrepancy = n; return this; }
    /** Token source label → requests. */
    public StepResultBuilder tokenSources(Map<String, Long> counts) { this.tokenSources = counts; return this; }
    /** Mean prompt tokens of the OK requests. */
    public StepResultBuilder meanPromptTokens(double v) { this.meanPromptTokens = v; return this; }
    /** Mean output tokens of the OK requests. */
    public StepResultBuilder meanOutputTokens(double v) { this.meanOutputTokens = v; return this; }
    /** The SLO goodput was judged against (default {@link Slo#none()}). */
    public StepResultBuilder slo(Slo slo) { this.slo = slo; return this; }
    /** Reasoning tokens of the OK requests. */
    public StepResultBuilder reasoningTokens(long n) { this.reasoningTokens = n; return this; }
    /**
     * Of the OK requests whose usage said how many prompt tokens the prefix cache held: those tokens, and all their
     * prompt tokens (default 0 and 0: none said).
     */
    public StepResultBuilder cachedPromptTokens(long cached, long reported) {
        this.cachedPromptTokens = cached;
        this.reportedPromptTokens = reported;
        return this;
    }
    /** Mean reasoning tokens of the OK requests (default: reasoningTokens / requestsOk, NaN without OK requests). */
    public StepResultBuilder meanReasoningTokens(double v) { this.meanReasoningTokens = OptionalDouble.of(v); return this; }
    /** The client self-check (default: schedule lag alone, without client health, default thresholds). */
    public StepResultBuilder clientCheck(ClientCheck check) { this.clientCheck = seconds -> check; return this; }
    /** Requests resent on a fresh connection after a stale kept-alive one (at most requestsOk + requestsFailed). */
    public StepResultBuilder retried(long n) { this.retried = n; return this; }

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
                new StepResult.Counts(requestsOk, requestsFailed, cancelled, dropped, warmupRequests, retried,
                        outputLenMismatch, countDiscrepancy, failuresByClass, tokenSources, abandoned,
                        outputInvalid),
                new StepResult.Latency(ttft, ttftSched, itl, chunkGap, tpot, e2e, e2eSched, scheduleLag, ttfat, trend),
                new StepResult.Rates(outputTokensPerS, inputTokensPerS, requestsPerS, goodputRps, goodFraction, rate,
                        concurrencyMean, itemsPerS),
                new StepResult.Tokens(meanPromptTokens, meanOutputTokens, reasoningTokens, meanReasoning, cachedPromptTokens,
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
