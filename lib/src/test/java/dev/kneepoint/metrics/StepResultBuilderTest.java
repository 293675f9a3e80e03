package dev.kneepoint.metrics;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.util.Map;
import org.HdrHistogram.Histogram;
import org.junit.jupiter.api.Test;

/** {@link StepResult#builder()}: every problem reported at once, and the defaults the old overloads gave. */
class StepResultBuilderTest {
    private static final StepInfo INFO = TestRecords.closedStep("c=2", 2);
    /** Window [1, 3) s: 2 s long. */
    private static final StepWindow WINDOW = new StepWindow(0, 1_000_000_000L, 3_000_000_000L, true);

    private static Distribution lagOf(long... ms) {
        Histogram h = Distribution.newHistogram();
        for (long m : ms) {
            h.recordValue(m * 1_000_000L);
        }
        return Distribution.of(h);
    }

    @Test
    void buildReportsEveryProblemAtOnce() {
        assertThatThrownBy(() -> StepResult.builder().ttft(null).windowS(-1).requestsOk(2).requestsFailed(1)
                .cancelled(-2).warmupRequests(-3).dropped(5).retried(9).build())
                .isInstanceOf(IllegalArgumentException.class)
                .hasMessageStartingWith("Invalid StepResult (8 problems): ")
                .hasMessageContaining("info is required")
                .hasMessageContaining("window is required")
                .hasMessageContaining("ttft must not be null")
                .hasMessageContaining("windowS must be >= 0 seconds (the builder's default: the window's length), got -1.0")
                .hasMessageContaining("cancelled must be >= 0, got -2")
                .hasMessageContaining("warmupRequests must be >= 0, got -3")
                .hasMessageContaining("dropped (5) must be <= requestsFailed (1)")
                .hasMessageContaining("retried (9) must be <= requestsOk + requestsFailed (3)");
    }

    @Test
    void oneProblemIsSingularAndNaNWindowIsAProblem() {
        assertThatThrownBy(() -> StepResult.builder().info(INFO).window(WINDOW).windowS(Double.NaN).build())
                .hasMessage("Invalid StepResult (1 problem): windowS must be >= 0 seconds (the builder's default: the"
                        + " window's length), got NaN");
        assertThatThrownBy(() -> StepResult.builder().info(INFO).window(WINDOW).slo(null).clientCheck(null)
                .failuresByClass(null).build())
                .hasMessageStartingWith("Invalid StepResult (3 problems): ")
                .hasMessageContaining("slo must not be null").hasMessageContaining("clientCheck must not be null")
                .hasMessageContaining("failuresByClass must not be null");
    }

    /**
     * The canonical constructor is public too: given the values the builder rejected above, it rejects them with the
     * same message, and a valid value built either way is equal.
     */
    @Test
    void canonicalConstructorRejectsWhatTheBuilderRejects() {
        Distribution e = Distribution.empty();
        ClientCheck check = ClientCheck.evaluate(INFO, 2.0, 3, e, ClientHealth.NOT_MEASURED, ClientThresholds.defaults());
        String builderMessage = messageOf(() -> StepResult.builder().ttft(null).windowS(-1).requestsOk(2)
                .requestsFailed(1).cancelled(-2).warmupRequests(-3).dropped(5).retried(9).build());
        String canonicalMessage = messageOf(() -> new StepResult(null, null, -1,
                new StepResult.Counts(2, 1, -2, 5, -3, 9, 0, 0, Map.of(), Map.of()),
                new StepResult.Latency(null, e, e, e, e, e, e, e, e, LatencyTrend.NONE),
                new StepResult.Rates(1, 1, 1, 1, 1, 0.3, 1),
                new StepResult.Tokens(1, 1, 0, 0),
                Slo.none(), check));
        assertThat(canonicalMessage).startsWith("Invalid StepResult (8 problems): ").isEqualTo(builderMessage);
        // the nulls only the canonical constructor can be given (the builder fills its defaults in) and the rest
        assertThatThrownBy(() -> new StepResult(INFO, WINDOW, Double.NaN,
                new StepResult.Counts(0, 0, 0, 0, 0, 0, -1, -1, null, null),
                new StepResult.Latency(e, e, null, e, e, e, e, null, null, null),
                new StepResult.Rates(1, 1, 1, 1, 1, 0, 1),
                new StepResult.Tokens(1, 1, -1, 0),
                null, null))
                .isInstanceOf(IllegalArgumentException.class)
                .hasMessageStartingWith("Invalid StepResult (12 problems): ")
                .hasMessageContaining("failuresByClass must not be null").hasMessageContaining("itl must not be null")
                .hasMessageContaining("scheduleLag must not be null").hasMessageContaining("ttfat must not be null")
                .hasMessageContaining("trend must not be null")
                .hasMessageContaining("tokenSources must not be null").hasMessageContaining("slo must not be null")
                .hasMessageContaining("clientCheck must not be null").hasMessageContaining("got NaN")
                .hasMessageContaining("outputLenMismatch must be >= 0, got -1")
                .hasMessageContaining("countDiscrepancy must be >= 0, got -1")
                .hasMessageContaining("reasoningTokens must be >= 0, got -1");
        StepResult viaBuilder = StepResult.builder().info(INFO).window(WINDOW).requestsOk(3).build();
        assertThat(new StepResult(INFO, WINDOW, 2.0,
                new StepResult.Counts(3, 0, 0, 0, 0, 0, 0, 0, Map.of(), Map.of()),
                new StepResult.Latency(e, e, e, e, e, e, e, e, e, LatencyTrend.NONE),
                new StepResult.Rates(Double.NaN, Double.NaN, Double.NaN, Double.NaN, Double.NaN, 0.0, Double.NaN),
                new StepResult.Tokens(Double.NaN, Double.NaN, 0, 0.0),
                Slo.none(), check)).isEqualTo(viaBuilder);
    }

    private static String messageOf(Runnable build) {
        try {
            build.run();
        } catch (IllegalArgumentException ex) {
            return ex.getMessage();
        }
        throw new AssertionError("no IllegalArgumentException");
    }

    @Test
    void defaultsOfAnAlmostEmptyBuilder() {
        StepResult r = StepResult.builder().info(INFO).window(WINDOW).build();
        assertThat(r.windowS()).isEqualTo(2.0); // the window's length: (3e9 - 1e9) ns, exact in binary
        assertThat(r.counts().requestsOk() + r.counts().requestsFailed() + r.counts().cancelled() + r.counts().dropped()
                + r.counts().warmupRequests() + r.counts().outputLenMismatch() + r.counts().countDiscrepancy()
                + r.tokens().reasoningTokens() + r.counts().retried()).isZero();
        assertThat(r.counts().failuresByClass()).isEmpty();
        assertThat(r.counts().tokenSources()).isEmpty();
        assertThat(r.distributions().values()).allSatisfy(d -> assertThat(d.count()).isZero());
        assertThat(r.latency().ttfat()).isEqualTo(Distribution.empty());
        assertThat(new double[] {r.rates().outputTokensPerS(), r.rates().inputTokensPerS(), r.rates().requestsPerS(),
                r.rates().goodputRps(), r.rates().goodFraction(), r.rates().failureRate(), r.rates().concurrencyMean(),
                r.tokens().meanPromptTokens(), r.tokens().meanOutputTokens(), r.tokens().meanReasoningTokens()})
                .containsOnly(Double.NaN);
        assertThat(r.slo()).isEqualTo(Slo.none());
        assertThat(r.clientBound()).isFalse();
        assertThat(r.clientCheck().health()).isEqualTo(ClientHealth.NOT_MEASURED);
    }

    /**
     * The old overloads (removed) delegated with: reasoning tokens 0 and mean reasoning tokens 0.0 (NaN without OK
     * requests), client check {@code ClientCheck.evaluate(info, windowS, ok + failed + cancelled, scheduleLag,
     * NOT_MEASURED, defaults)}, an empty ttfat. The builder given the same explicit fields gives the same result.
     */
    @Test
    void defaultsEqualWhatTheOldOverloadsProduced() {
        Distribution d = lagOf(10, 20, 30);
        Distribution lag = lagOf(0, 1, 40); // p99 40 ms > limit max(5, 5% x 2 s / 5 requests = 20 ms): crossed
        Slo slo = Slo.builder().ttftMs(100).build();
        Map<String, Long> failures = Map.of("HTTP_ERROR(503)", 1L);
        Map<String, Long> sources = Map.of("server_usage", 4L);
        StepResult built = StepResult.builder().info(INFO).window(WINDOW).windowS(2.0).requestsOk(3)
                .requestsFailed(1).cancelled(1).warmupRequests(2).failuresByClass(failures).ttft(d).ttftSched(d).itl(d)
                .chunkGap(d).tpot(d).e2e(d).e2eSched(d).scheduleLag(lag).outputTokensPerS(50).inputTokensPerS(150)
                .requestsPerS(1.5).goodputRps(1).goodFraction(0.5).failureRate(0.25).concurrencyMean(1.8)
                .outputLenMismatch(1).tokenSources(sources).meanPromptTokens(100).meanOutputTokens(33).slo(slo)
                .build();
        StepResult old = new StepResult(INFO, WINDOW, 2.0,
                new StepResult.Counts(3, 1, 1, 0, 2, 0, 1, 0, failures, sources),
                new StepResult.Latency(d, d, d, d, d, d, d, lag, Distribution.empty(), LatencyTrend.NONE),
                new StepResult.Rates(50, 150, 1.5, 1, 0.5, 0.25, 1.8),
                new StepResult.Tokens(100, 33, 0, 0.0),
                slo, ClientCheck.evaluate(INFO, 2.0, 5, lag, ClientHealth.NOT_MEASURED, ClientThresholds.defaults()));
        assertThat(built).isEqualTo(old);
        assertThat(built.clientBound()).as("the derived check judged the lag: 40 ms > 20 ms").isTrue();
        // Without OK requests the old overloads gave NaN mean reasoning tokens, and so does the builder.
        StepResult none = StepResult.builder().info(INFO).window(WINDOW).requestsFailed(2).build();
        assertThat(none.tokens().meanReasoningTokens()).isNaN();
        assertThat(none.rates().failureRate()).isEqualTo(1.0); // derived: 2 failed / 2 outcomes
    }

    @Test
    void explicitValuesOverrideTheDerivedOnes() {
        ClientCheck check = ClientCheck.evaluate(INFO, 2.0, 1, lagOf(1), ClientHealth.NOT_MEASURED,
                ClientThresholds.defaults());
        StepResult r = StepResult.builder().info(INFO).window(WINDOW).windowS(1.5).requestsOk(4).reasoningTokens(10)
                .meanReasoningTokens(7).failureRate(0.5).clientCheck(check).retried(3).build();
        assertThat(r.windowS()).isEqualTo(1.5);
        assertThat(r.tokens().meanReasoningTokens()).isEqualTo(7.0);
        assertThat(r.rates().failureRate()).isEqualTo(0.5);
        assertThat(r.clientCheck()).isSameAs(check);
        assertThat(r.counts().retried()).isEqualTo(3);
        // derived when not given: 10 reasoning tokens / 4 OK requests
        assertThat(StepResult.builder().info(INFO).window(WINDOW).requestsOk(4).reasoningTokens(10).build()
                .tokens().meanReasoningTokens()).isEqualTo(2.5);
    }
}
