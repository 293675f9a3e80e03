package dev.kneepoint.metrics;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;
import static org.assertj.core.api.Assertions.within;

import java.time.Instant;
import java.util.List;
import java.util.Map;
import org.HdrHistogram.Histogram;
import org.junit.jupiter.api.Test;

/** The arithmetic of repeat trials: the interval across trials, and one load's trials pooled into one step. */
class TrialsTest {
    @Test
    void theIntervalIsStudentsTOfTheMeanAcrossTrials() {
        // 10, 12, 14: mean 12, sample sd 2, half-width t(0.975, 2) * 2 / sqrt(3) = 4.3027 * 1.1547 = 4.9683.
        Trials.Stat s = Trials.Stat.of(List.of(10.0, 12.0, 14.0));
        assertThat(s.n()).isEqualTo(3);
        assertThat(s.mean()).isEqualTo(12.0);
        assertThat(s.stddev()).isCloseTo(2.0, within(1e-12));
        assertThat(s.ciLow()).isCloseTo(12 - 4.9683, within(1e-3));
        assertThat(s.ciHigh()).isCloseTo(12 + 4.9683, within(1e-3));
        assertThat(s.cv()).isCloseTo(2.0 / 12, within(1e-12));
        // A trial that did not measure the metric is left out, not counted as 0.
        Trials.Stat gap = Trials.Stat.of(List.of(10.0, Double.NaN, 14.0));
        assertThat(gap.n()).isEqualTo(2);
        assertThat(gap.mean()).isEqualTo(12.0);
        assertThat(gap.halfWidth()).isCloseTo(12.7062 * Math.sqrt(8) / Math.sqrt(2), within(1e-3));
        // One trial has a mean but no interval.
        Trials.Stat one = Trials.Stat.of(List.of(5.0));
        assertThat(one.mean()).isEqualTo(5.0);
        assertThat(one.ciLow()).isNaN();
        assertThat(one.cv()).isNaN();
    }

    @Test
    void theTQuantileIsStudentsT() {
        // Exact values (R: qt(0.975, df), qt(0.95, df)).
        assertThat(Trials.tQuantile(0.95, 1)).isCloseTo(12.706205, within(1e-5));
        assertThat(Trials.tQuantile(0.95, 2)).isCloseTo(4.302653, within(1e-5));
        assertThat(Trials.tQuantile(0.95, 31)).isCloseTo(2.039513, within(1e-5));
        assertThat(Trials.tQuantile(0.90, 5)).isCloseTo(2.015048, within(1e-5));
        // Welch's degrees of freedom are fractional.
        assertThat(Trials.tQuantile(0.95, 2.5)).isBetween(3.182446, 4.302653);
        assertThatThrownBy(() -> Trials.tQuantile(0.95, 0)).hasMessageContaining("degrees of freedom > 0");
        assertThatThrownBy(() -> Trials.tQuantile(1.0, 3)).hasMessageContaining("confidence in (0, 1)");
    }

    @Test
    void aLoadsTrialsPoolIntoOneStepAndTheirSpreadIsReported() {
        // c=2 measured twice: trial 1 at 100 tok/s over 10 s with TTFT 50 ms, trial 2 at 200 tok/s over 30 s with
        // TTFT 150 ms; c=1 measured once in between would be a trial too, so here c=1 is the baseline (trial 0).
        StepResult base = step("baseline", 1, 0, 50, 10, 100, 20, 0);
        StepResult t1 = step("c=2 #1", 2, 1, 100, 10, 50, 100, 2);
        StepResult t2 = step("c=2 #2", 2, 2, 200, 30, 150, 300, 0);
        RunResult run = new RunResult("r", List.of(base, t1, t2), true, Instant.EPOCH, "sim");
        assertThat(Trials.repeated(run)).isTrue();

        RunResult pooled = Trials.pooled(run);
        assertThat(pooled.steps()).extracting(s -> s.info().label()).containsExactly("baseline", "c=2");
        StepResult p = pooled.steps().get(1);
        assertThat(p.info().trial()).isZero();
        assertThat(p.info().index()).isEqualTo(1);
        assertThat(p.windowS()).isEqualTo(40.0);
        assertThat(p.counts().requestsOk()).isEqualTo(400);
        assertThat(p.counts().requestsFailed()).isEqualTo(2);
        assertThat(p.counts().failuresByClass()).isEqualTo(Map.of("HTTP_5XX", 2L));
        // Rates weighted by window: (100*10 + 200*30) / 40 = 175 tok/s, not the plain mean 150.
        assertThat(p.rates().outputTokensPerS()).isCloseTo(175.0, within(1e-9));
        // Histograms merge: 100 samples at 50 ms and 300 at 150 ms, so the pooled median is 150 ms.
        assertThat(p.latency().ttft().count()).isEqualTo(400);
        assertThat(p.latency().ttft().p50()).isCloseTo(150.0, within(0.2));
        assertThat(p.latency().ttft().mean()).isCloseTo(125.0, within(0.2));
        // Means of tokens are weighted by OK requests.
        assertThat(p.tokens().meanOutputTokens()).isCloseTo((100 * 64.0 + 300 * 128.0) / 400, within(1e-9));
        assertThat(p.window()).isEqualTo(t2.window());

        List<Trials.Load> loads = Trials.of(run);
        assertThat(loads).hasSize(1);
        Trials.Load l = loads.get(0);
        assertThat(l.load()).isEqualTo("c=2");
        assertThat(l.trials()).containsExactly("c=2 #1", "c=2 #2");
        Trials.Stat out = l.metric("output_tokens_per_s");
        assertThat(out.values()).containsExactly(100.0, 200.0);
        assertThat(out.mean()).isEqualTo(150.0);
        // sd = 70.711, half-width = 12.7062 * 70.711 / sqrt(2) = 635.31.
        assertThat(out.halfWidth()).isCloseTo(635.31, within(0.01));
        assertThat(l.metric("ttft_p50_ms").mean()).isCloseTo(100.0, within(0.2));
        assertThatThrownBy(() -> l.metric("nope")).hasMessageContaining("known: [output_tokens_per_s");
    }

    @Test
    void aRunMeasuredOnceIsItsOwnPooledRun() {
        RunResult run = new RunResult("r", List.of(step("c=1", 1, 0, 10, 10, 5, 10, 0)), true, Instant.EPOCH, "");
        assertThat(Trials.repeated(run)).isFalse();
        assertThat(Trials.pooled(run)).isSameAs(run);
        assertThat(Trials.of(run)).isEmpty();
    }

    @Test
    void theTrialLabelAndTheLoadLabelAreOneAnother() {
        StepInfo info = new StepInfo(3, StepInfo.trialLabel("rate=2", 4), StepInfo.OPEN, -1, 2.0, "poisson", -1, "",
                0, 1, -1, 4);
        assertThat(info.label()).isEqualTo("rate=2 #4");
        assertThat(info.loadLabel()).isEqualTo("rate=2");
        assertThat(info.pooled().label()).isEqualTo("rate=2");
        assertThat(info.pooled().isTrial()).isFalse();
        assertThatThrownBy(() -> new StepInfo(0, "x", StepInfo.CLOSED, 1, Double.NaN, "", -1, "", 0, 1, -1, -1))
                .hasMessageContaining("trial must be >= 0");
    }

    private static StepResult step(String label, int users, int trial, double tokensPerS, double windowS, double ttftMs,
                                   long ok, long failed) {
        Histogram h = Distribution.newHistogram();
        h.recordValueWithCount(Math.round(ttftMs * 1e6), ok);
        long start = Math.round(windowS * 1e9) * (trial + 1) * 10;
        return StepResult.builder()
                .info(new StepInfo(trial, label, StepInfo.CLOSED, users, Double.NaN, "", -1, "", 0, 1, -1, trial))
                .window(new StepWindow(start, start, start + Math.round(windowS * 1e9), true)).windowS(windowS)
                .requestsOk(ok).requestsFailed(failed).failuresByClass(failed > 0 ? Map.of("HTTP_5XX", failed) : Map.of())
                .ttft(Distribution.of(h)).outputTokensPerS(tokensPerS).meanOutputTokens(trial == 1 ? 64 : 128)
                .build();
    }
}
