package dev.kneepoint.analysis;

import static dev.kneepoint.analysis.Ladders.run;
import static dev.kneepoint.analysis.Ladders.s;
import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.within;

import dev.kneepoint.metrics.Distribution;
import dev.kneepoint.metrics.RunResult;
import org.HdrHistogram.Histogram;
import org.junit.jupiter.api.Test;

/** How sure the knee is: percentile intervals from order statistics, the uncertain knee, the refining loads. */
class KneeEvidenceTest {

    private static Distribution uniformMs(int n) {
        Histogram h = Distribution.newHistogram();
        for (int i = 1; i <= n; i++) {
            h.recordValue(i * 1_000_000L);
        }
        return Distribution.of(h);
    }

    @Test
    void aP99IntervalComesFromTheRanksAroundNq() {
        // n = 1000, q = 0.99: nq = 990, 1.96 * sqrt(990 * 0.01) = 6.17, so ranks 983 and 997: 983 ms and 997 ms.
        double[] ci = KneeEvidence.interval(uniformMs(1000), 99);
        assertThat(ci[0]).isCloseTo(983, within(1.0));
        assertThat(ci[1]).isCloseTo(997, within(1.0));
    }

    @Test
    void aP99OverFewRequestsIsOpenUpwards() {
        // n = 50: nq + 1.96 sqrt(nq(1-q)) = 49.5 + 1.38 > 50: no sample that high.
        double[] ci = KneeEvidence.interval(uniformMs(50), 99);
        assertThat(ci[1]).isInfinite();
        assertThat(ci[0]).isCloseTo(48, within(1.0));
        assertThat(KneeEvidence.interval(Distribution.empty(), 99)[0]).isNaN();
        // n = 320: rank 320.3 > n, but 0.99^320 = 4 % <= 5 %: the slowest request bounds the p99.
        assertThat(KneeEvidence.interval(uniformMs(320), 99)[1]).isCloseTo(320, within(1.0));
    }

    @Test
    void refiningLoadsSplitTheGapGeometrically() {
        assertThat(KneeEvidence.between(64, 256, true)).containsExactly(91.0, 128.0, 181.0);
        assertThat(KneeEvidence.between(40, 100, false)).containsExactly(50.3, 63.2, 79.5);
        assertThat(KneeEvidence.between(4, 6, true)).containsExactly(5.0); // whole users: one lies between
    }

    @Test
    void aKneeBeforeACoarseGapSuggestsTheLoadsBetween() {
        RunResult run = run("coarse", s(1, 100, 50), s(2, 200, 50), s(4, 400, 52), s(8, 420, 200), s(16, 420, 800));
        KneeReport r = Knee.analyze(run);
        assertThat(r.knee()).contains("c=4");
        assertThat(r.refineLoads()).containsExactly(5.0, 6.0, 7.0);
        assertThat(r.answer().caveats()).contains("the knee lies between c=4 and c=8: to place it closer, measure "
                + "--concurrency 5,6,7.");
        assertThat(r.steps().doubleColumn("e2e_sched_p99_ci_low_ms").get(3)).isCloseTo(200, within(0.5));
        assertThat(r.method()).contains("Knee evidence: the knee lies between c=4 and c=8");
    }

    @Test
    void aFineLadderNeedsNoRefining() {
        RunResult run = run("fine", s(10, 1000, 50), s(12, 1200, 50), s(14, 1400, 52), s(16, 1420, 200),
                s(18, 1420, 800));
        KneeReport r = Knee.analyze(run);
        assertThat(r.knee()).contains("c=14");
        assertThat(r.refineLoads()).isEmpty();
        assertThat(r.answer().caveats()).noneMatch(c -> c.contains("knee"));
    }

    @Test
    void aRiseOutOfTheKneeWithinSamplingErrorMakesItUncertain() {
        // c=4 -> c=8: throughput fell and latency stayed (both constant at 60 ms): inelastic, but no rise resolved.
        RunResult run = run("flat", s(1, 100, 50), s(2, 200, 55), s(4, 400, 60), s(8, 390, 60), s(16, 380, 61));
        KneeReport r = Knee.analyze(run);
        assertThat(r.knee()).contains("c=4");
        assertThat(r.answer().caveats()).anyMatch(c -> c.startsWith("the knee at c=4 is uncertain: e2e sched p99 "
                + "there (95% CI 60-60 ms) and at c=8 (60-60 ms) overlap"));
    }
}
