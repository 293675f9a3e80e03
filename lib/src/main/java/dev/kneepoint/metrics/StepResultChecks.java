package dev.kneepoint.metrics;

/**
 * The checks of the canonical {@link StepResult} constructor (which {@link StepResultBuilder#build()} calls): each
 * invalid component adds a problem, so that the constructor reports every problem at once.
 */
final class StepResultChecks {
    private StepResultChecks() {
    }

    /**
     * What is wrong with these components, in a fixed order (the rules: the {@link StepResult} constructor's
     * Javadoc); empty when nothing is. Of {@code rates} only its presence is checked: NaN means not measured.
     */
    static Problems problems(StepInfo info, StepWindow window, double windowS, StepResult.Counts counts,
            StepResult.Latency latency, StepResult.Rates rates, StepResult.Tokens tokens, Slo slo,
            ClientCheck clientCheck) {
        Problems problems = new Problems()
                .check(info != null, "info is required (the step's StepInfo)")
                .check(window != null, "window is required (the step's StepWindow)");
        nonNull(problems, "counts", counts, "a StepResult.Counts; the builder always gives one");
        nonNull(problems, "latency", latency, "a StepResult.Latency; the builder always gives one");
        nonNull(problems, "rates", rates, "a StepResult.Rates; the builder always gives one");
        nonNull(problems, "tokens", tokens, "a StepResult.Tokens; the builder always gives one");
        if (counts != null) {
            nonNull(problems, "failuresByClass", counts.failuresByClass(), "an empty map when none failed");
            nonNull(problems, "tokenSources", counts.tokenSources(), "an empty map when none");
        }
        if (latency != null) {
            String empty = "Distribution.empty() when not measured";
            nonNull(problems, "ttft", latency.ttft(), empty);
            nonNull(problems, "ttftSched", latency.ttftSched(), empty);
            nonNull(problems, "itl", latency.itl(), empty);
            nonNull(problems, "chunkGap", latency.chunkGap(), empty);
            nonNull(problems, "tpot", latency.tpot(), empty);
            nonNull(problems, "e2e", latency.e2e(), empty);
            nonNull(problems, "e2eSched", latency.e2eSched(), empty);
            nonNull(problems, "scheduleLag", latency.scheduleLag(), empty);
            nonNull(problems, "ttfat", latency.ttfat(), empty);
            nonNull(problems, "trend", latency.trend(), "LatencyTrend.NONE when not measured");
        }
        nonNull(problems, "slo", slo, "Slo.none() when none");
        nonNull(problems, "clientCheck", clientCheck, "the builder derives one from the schedule lag");
        problems.check(windowS >= 0,
                "windowS must be >= 0 seconds (the builder's default: the window's length), got " + windowS);
        if (counts != null) {
            count(problems, "requestsOk", counts.requestsOk());
            count(problems, "requestsFailed", counts.requestsFailed());
            count(problems, "cancelled", counts.cancelled());
            count(problems, "abandoned", counts.abandoned());
            count(problems, "outputInvalid", counts.outputInvalid());
            count(problems, "dropped", counts.dropped());
            count(problems, "warmupRequests", counts.warmupRequests());
            count(problems, "outputLenMismatch", counts.outputLenMismatch());
            count(problems, "countDiscrepancy", counts.countDiscrepancy());
        }
        if (tokens != null) {
            count(problems, "reasoningTokens", tokens.reasoningTokens());
            count(problems, "cachedPromptTokens", tokens.cachedPromptTokens());
            count(problems, "reportedPromptTokens", tokens.reportedPromptTokens());
        }
        if (counts != null) {
            long ok = counts.requestsOk();
            long failed = counts.requestsFailed();
            long dropped = counts.dropped();
            long retried = counts.retried();
            count(problems, "retried", retried);
            // Compared only when the counts they are compared with are valid (a negative one is reported above).
            problems.check(dropped <= failed || failed < 0, "dropped (" + dropped + ") must be <= requestsFailed ("
                    + failed + "): dropped requests are counted as failed too");
            problems.check(retried <= ok + failed || ok < 0 || failed < 0, "retried (" + retried
                    + ") must be <= requestsOk + requestsFailed (" + (ok + failed)
                    + "): only those requests are counted as resent");
        }
        return problems;
    }

    private static void nonNull(Problems problems, String name, Object value, String instead) {
        problems.check(value != null, name + " must not be null (" + instead + ")");
    }

    private static void count(Problems problems, String name, long n) {
        problems.check(n >= 0, name + " must be >= 0, got " + n);
    }
}
