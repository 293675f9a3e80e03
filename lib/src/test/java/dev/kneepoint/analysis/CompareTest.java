package dev.kneepoint.analysis;

import static dev.kneepoint.analysis.Ladders.run;
import static dev.kneepoint.analysis.Ladders.s;
import static org.assertj.core.api.Assertions.assertThat;

import java.util.SplittableRandom;
import org.HdrHistogram.Histogram;
import org.junit.jupiter.api.Test;

class CompareTest {

    /** n lognormal samples (median {@code medianMs}, sigma 0.5) in nanoseconds. */
    private static Histogram sample(SplittableRandom rnd, int n, double medianMs) {
        Histogram h = new Histogram(3);
        for (int i = 0; i < n; i++) {
            double z = Math.sqrt(-2 * Math.log(1 - rnd.nextDouble())) * Math.cos(2 * Math.PI * rnd.nextDouble());
            h.recordValue(Math.round(medianMs * Math.exp(0.5 * z) * 1e6));
        }
        return h;
    }

    @Test
    void bootstrapIntervalsCoverTheTrueDifferenceAtTheStatedRate() {
        // True p90 of lognormal(median m, sigma 0.5) is m * exp(0.5 * 1.28155); A has m = 100 ms, B 110 ms.
        double trueDiffNs = (110 - 100) * Math.exp(0.5 * 1.2815516) * 1e6;
        SplittableRandom rnd = new SplittableRandom(42);
        int trials = 200;
        int covered = 0;
        for (int t = 0; t < trials; t++) {
            double[] ci = Bootstrap.differenceCi(sample(rnd, 2000, 100), sample(rnd, 2000, 110), 90, 0.95, 400, t);
            covered += ci[0] <= trueDiffNs && trueDiffNs <= ci[1] ? 1 : 0;
        }
        // Stated rate 95%; with 200 trials the binomial sd is 1.5 points, so [89%, 99%] is about -4 to +2.7 sd.
        assertThat(covered / (double) trials).isBetween(0.89, 0.99);
    }

    @Test
    void noiseIsNotSoldAsAWin() {
        // Same distribution twice: the interval for the difference must contain 0 in about 95% of trials.
        SplittableRandom rnd = new SplittableRandom(7);
        int trials = 200;
        int containsZero = 0;
        for (int t = 0; t < trials; t++) {
            double[] ci = Bootstrap.differenceCi(sample(rnd, 1000, 100), sample(rnd, 1000, 100), 50, 0.95, 400, t);
            containsZero += ci[0] <= 0 && 0 <= ci[1] ? 1 : 0;
        }
        assertThat(containsZero / (double) trials).isBetween(0.89, 1.0);
    }

    @Test
    void betaSamplerHasTheRightMean() {
        // Beta(3, 7) has mean 0.3; sd of the mean of 20000 draws is 0.145 / sqrt(20000) = 0.001: 0.005 is 5 sd.
        SplittableRandom rnd = new SplittableRandom(3);
        double sum = 0;
        for (int i = 0; i < 20000; i++) {
            sum += Bootstrap.beta(3, 7, rnd);
        }
        assertThat(sum / 20000).isBetween(0.295, 0.305);
    }

    @Test
    void comparesStepsWithVerdictsAndWarnsAboutTokenBudgets() {
        var a = run("a", s(1, 100, 100), s(2, 200, 100));
        var b = run("b", s(1, 100, 80), s(2, 300, 100));
        Comparison c = Compare.runs(a, b);
        var t = c.deltas();
        var p99 = t.where(t.stringColumn("metric").isEqualTo("e2e_p99_ms").and(t.stringColumn("step").isEqualTo("c=1")));
        // Constant distributions: 100 vs 80 ms exactly, so the bootstrap interval is the point -20 ms.
        assertThat(p99.doubleColumn("delta").get(0)).isCloseTo(-20, org.assertj.core.api.Assertions.within(0.2));
        assertThat(p99.stringColumn("verdict").get(0)).isEqualTo("better");
        var same = t.where(t.stringColumn("metric").isEqualTo("e2e_p99_ms").and(t.stringColumn("step").isEqualTo("c=2")));
        // Identical constant distributions: the interval is [0, 0], inside ±2% of 100 ms.
        assertThat(same.stringColumn("verdict").get(0)).isEqualTo("same (within 2%)");
        var tps = t.where(t.stringColumn("metric").isEqualTo("output_tokens_per_s").and(t.stringColumn("step").isEqualTo("c=2")));
        assertThat(tps.doubleColumn("delta_pct").get(0)).isCloseTo(50, org.assertj.core.api.Assertions.within(1e-9));
        assertThat(tps.stringColumn("verdict").get(0)).isEqualTo("no CI");
        // Same requests/s but 1.5x the output tokens per request at c=2: a token-budget warning.
        assertThat(c.warnings()).anySatisfy(w -> assertThat(w).contains("c=2").contains("output tokens per request differ"));
        assertThat(c.warnings()).noneSatisfy(w -> assertThat(w).contains("step c=1,"));
    }

    @Test
    void moreThanTwoRunsAreEachComparedWithTheBaseline() {
        var a = run("a", s(1, 100, 100));
        Comparison c = Compare.runs(a, run("b", s(1, 100, 100)), run("c", s(1, 100, 150)));
        assertThat(c.runIds()).containsExactly("a", "b", "c");
        assertThat(c.deltas().stringColumn("run").unique().asList()).containsExactlyInAnyOrder("b", "c");
        assertThat(c.significant().stringColumn("run").unique().asList()).containsExactly("c");
    }

    @Test
    void warnsAboutUnmatchedSteps() {
        var a = run("a", s(1, 100, 100), s(2, 200, 100));
        var b = run("b", s(1, 100, 100));
        assertThat(Compare.runs(a, b).warnings()).anySatisfy(w -> assertThat(w).contains("no step matching c=2"));
    }

    @Test
    void aSignificantDifferenceJustBelowTheRelativeThresholdIsTheSame() {
        // Constant distributions, so every interval is the point delta; HdrHistogram (3 digits) quantises
        // 100 ms to within 0.1 ms, far from the 0.5-point margins around the 2% threshold used here.
        var a = run("a", s(1, 100, 100), s(2, 100, 100));
        var b = run("b", s(1, 100, 101.5), s(2, 100, 102.5));
        var t = Compare.runs(a, b).deltas();
        var e2e = t.where(t.stringColumn("metric").isEqualTo("e2e_p50_ms"));
        // 2% of a baseline HdrHistogram reports as 100.008 ms (3 significant digits): 0.01 covers the bucket.
        assertThat(e2e.doubleColumn("min_effect").get(0)).isCloseTo(2.0, org.assertj.core.api.Assertions.within(0.01));
        assertThat(e2e.stringColumn("verdict").asList()).containsExactly("same (within 2%)", "worse");
        // Raising the threshold to 3% makes the 2.5% difference the same too; 0 restores a verdict to both.
        var wider = Compare.runs(java.util.List.of(a, b), CompareOptions.builder().minRelativeEffect(0.03).build()).deltas();
        assertThat(wider.where(wider.stringColumn("metric").isEqualTo("e2e_p50_ms")).stringColumn("verdict").asList())
                .containsExactly("same (within 3%)", "same (within 3%)");
        var none = Compare.runs(java.util.List.of(a, b), CompareOptions.builder().minRelativeEffect(0).build()).deltas();
        assertThat(none.where(none.stringColumn("metric").isEqualTo("e2e_p50_ms")).stringColumn("verdict").asList())
                .containsExactly("worse", "worse");
    }

    @Test
    void anAbsoluteFloorPerMetricRaisesTheThresholdOfSmallLatencies() {
        // ITL 20 ms: 2% is 0.4 ms; the ITL floor of 0.5 ms decides. 20.45 ms (+0.45) is below it, 20.6 above.
        var a = run("a", s(1, 100, 100).itl(20), s(2, 100, 100).itl(20));
        var b = run("b", s(1, 100, 100).itl(20.45), s(2, 100, 100).itl(20.6));
        var o = CompareOptions.builder().minAbsoluteEffect(LatencyMetric.ITL, 0.5).build();
        var t = Compare.runs(java.util.List.of(a, b), o).deltas();
        var itl = t.where(t.stringColumn("metric").isEqualTo("itl_p50_ms"));
        assertThat(itl.doubleColumn("min_effect").asList()).containsExactly(0.5, 0.5);
        assertThat(itl.stringColumn("verdict").asList()).containsExactly("same (within 0.5 ms)", "worse");
        // The floor is per metric: E2E keeps the relative 2% (100 vs 100 ms: same).
        var e2e = t.where(t.stringColumn("metric").isEqualTo("e2e_p50_ms"));
        // 2% of a baseline HdrHistogram reports as 100.008 ms (3 significant digits): 0.01 covers the bucket.
        assertThat(e2e.doubleColumn("min_effect").get(0)).isCloseTo(2.0, org.assertj.core.api.Assertions.within(0.01));
    }

    @Test
    void verdictNeedsSignificanceAndSizeAndCallsANarrowIntervalTheSame() {
        // Rows: baseline, value, ci low, ci high, -1 (lower is better); threshold 2 ms.
        assertThat(Compare.verdict(new double[] {100, 103, 1, 5, -1}, 2, "2%")).isEqualTo("worse");
        assertThat(Compare.verdict(new double[] {100, 97, -5, -1, -1}, 2, "2%")).isEqualTo("better");
        // Significant (interval excludes 0) but 1.9 ms <= 2 ms: the same.
        assertThat(Compare.verdict(new double[] {100, 101.9, 0.5, 3.5, -1}, 2, "2%")).isEqualTo("same (within 2%)");
        // Not significant, but the whole interval lies inside ±2 ms: the data rule out a practical difference.
        assertThat(Compare.verdict(new double[] {100, 100.5, -1.5, 1.9, -1}, 2, "2%")).isEqualTo("same (within 2%)");
        // Not significant and the interval reaches past the threshold: nothing can be said.
        assertThat(Compare.verdict(new double[] {100, 100.5, -1.5, 2.5, -1}, 2, "2%")).isEqualTo("no significant difference");
        // Larger than the threshold but not significant: still no verdict.
        assertThat(Compare.verdict(new double[] {100, 105, -1, 11, -1}, 2, "2%")).isEqualTo("no significant difference");
    }

    @Test
    void invalidThresholdsAreAllReported() {
        org.assertj.core.api.Assertions.assertThatThrownBy(() -> CompareOptions.builder().minRelativeEffect(-0.1)
                        .minAbsoluteEffect(LatencyMetric.ITL, -1).build())
                .hasMessageContaining("minRelativeEffect must be a fraction in [0, 1)")
                .hasMessageContaining("minAbsoluteEffect of itl must be finite and >= 0 ms");
    }

    @Test
    void theOldConstructorKeepsTheDefaultThreshold() {
        var o = new CompareOptions(java.util.List.of(LatencyMetric.E2E), new double[] {50}, 0.95, 200, 1, 0.1);
        assertThat(o.minRelativeEffect()).isEqualTo(CompareOptions.DEFAULT_MIN_RELATIVE_EFFECT);
        assertThat(o.minEffect(LatencyMetric.E2E, 50)).isCloseTo(1.0, org.assertj.core.api.Assertions.within(1e-12));
    }
}
