package dev.kneepoint.analysis;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.within;

import dev.kneepoint.metrics.Distribution;
import dev.kneepoint.metrics.RunResult;
import dev.kneepoint.metrics.StepInfo;
import dev.kneepoint.metrics.StepResult;
import dev.kneepoint.metrics.StepWindow;
import java.time.Instant;
import java.util.ArrayList;
import java.util.List;
import org.HdrHistogram.Histogram;
import org.junit.jupiter.api.Test;
import tech.tablesaw.api.Table;

/** Compare with repeat trials: Welch's interval of the difference of the trials' means, rate rows included. */
class CompareTrialsTest {
    @Test
    void bothRunsRepeatedTheLoadSoEveryRowHasWelchsInterval() {
        // tok/s A: 100, 110, 120 (mean 110, sd 10); B: 200, 210, 220 (mean 210, sd 10). Welch: se = sqrt(2 * 100 / 3)
        // = 8.165, df = 4, t(0.975, 4) = 2.776445, half-width 22.670: [77.33, 122.67].
        RunResult a = run("a", new double[] {100, 110, 120}, new double[] {50, 50, 50});
        RunResult b = run("b", new double[] {200, 210, 220}, new double[] {40, 41, 42});
        Table t = Compare.runs(a, b).deltas();
        assertThat(t.stringColumn("step").asList()).containsOnly("c=4");
        int out = row(t, "output_tokens_per_s");
        assertThat(t.doubleColumn("baseline").get(out)).isCloseTo(110, within(1e-9)); // pooled: equal windows
        assertThat(t.doubleColumn("ci_low").get(out)).isCloseTo(100 - 22.670, within(1e-3));
        assertThat(t.doubleColumn("ci_high").get(out)).isCloseTo(100 + 22.670, within(1e-3));
        assertThat(t.stringColumn("ci_basis").get(out)).isEqualTo("trials");
        assertThat(t.stringColumn("verdict").get(out)).isEqualTo("better");
        // TTFT p99 per trial: A 50, 50, 50 (sd 0), B 40, 41, 42 (sd 1): df = 2, t = 4.302653, half = 2.484.
        int ttft = row(t, "ttft_p99_ms");
        assertThat(t.stringColumn("ci_basis").get(ttft)).isEqualTo("trials");
        assertThat(t.doubleColumn("ci_high").get(ttft)).isCloseTo(-9 + 4.302653 / Math.sqrt(3), within(0.1));
        assertThat(t.stringColumn("verdict").get(ttft)).isEqualTo("better");
    }

    @Test
    void withoutTrialsLatencyRowsKeepTheBootstrapAndRateRowsHaveNoInterval() {
        RunResult a = new RunResult("a", List.of(step("c=4", 0, 100, 50)), true, Instant.EPOCH, "");
        RunResult b = new RunResult("b", List.of(step("c=4", 0, 200, 40)), true, Instant.EPOCH, "");
        Table t = Compare.runs(a, b).deltas();
        assertThat(t.stringColumn("ci_basis").get(row(t, "output_tokens_per_s"))).isEmpty();
        assertThat(t.stringColumn("verdict").get(row(t, "output_tokens_per_s"))).isEqualTo("no CI");
        assertThat(t.stringColumn("ci_basis").get(row(t, "ttft_p99_ms"))).isEqualTo("bootstrap");
    }

    private static int row(Table t, String metric) {
        return t.stringColumn("metric").indexOf(metric);
    }

    private static RunResult run(String id, double[] tokensPerS, double[] ttftMs) {
        List<StepResult> steps = new ArrayList<>();
        for (int i = 0; i < tokensPerS.length; i++) {
            steps.add(step(StepInfo.trialLabel("c=4", i + 1), i + 1, tokensPerS[i], ttftMs[i]));
        }
        return new RunResult(id, steps, true, Instant.EPOCH, "");
    }

    private static StepResult step(String label, int trial, double tokensPerS, double ttftMs) {
        Histogram h = Distribution.newHistogram();
        h.recordValueWithCount(Math.round(ttftMs * 1e6), 500);
        long start = trial * 20_000_000_000L;
        return StepResult.builder()
                .info(new StepInfo(trial, label, StepInfo.CLOSED, 4, Double.NaN, "", -1, "", 0, 10_000_000_000L, -1,
                        trial))
                .window(new StepWindow(start, start, start + 10_000_000_000L, true)).requestsOk(500)
                .ttft(Distribution.of(h)).itl(Distribution.of(h)).e2e(Distribution.of(h))
                .outputTokensPerS(tokensPerS).requestsPerS(tokensPerS / 10).build();
    }
}
