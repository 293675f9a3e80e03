package dev.kneepoint.analysis;

import static dev.kneepoint.analysis.Ladders.run;
import static dev.kneepoint.analysis.Ladders.s;
import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;
import static org.assertj.core.api.Assertions.within;
import static org.assertj.core.api.Assertions.withinPercentage;

import dev.kneepoint.metrics.LatencyTrend;
import dev.kneepoint.metrics.RunResult;
import dev.kneepoint.metrics.Slo;
import org.junit.jupiter.api.Test;

class KneeTest {

    /** Closed loop: throughput scales linearly to c=16 at flat latency, then saturates while latency grows as c/16. */
    static RunResult sharp() {
        return run("sharp", s(1, 100, 100), s(2, 200, 100), s(4, 400, 100), s(8, 800, 100), s(16, 1600, 100),
                s(32, 1600, 200), s(64, 1600, 400));
    }

    @Test
    void findsTheKneeOfASaturatingLadder() {
        KneeReport r = Knee.analyze(sharp());
        assertThat(r.knee()).contains("c=16");
        assertThat(r.kneeLoad()).isEqualTo(16);
        assertThat(r.efficientZone()).containsExactly("c=1", "c=2", "c=4", "c=8", "c=16");
        assertThat(r.recommended()).contains("c=16");
        // No latency SLO: a closed loop throttles itself, so no step can be called sustainable.
        assertThat(r.maxSustainableStep()).isNull();
        assertThat(r.maxSustainableLoad()).isNaN();
        assertThat(r.method()).contains("Max sustainable load: not judged: no latency SLO given");
        assertThat(r.latencyColumn()).isEqualTo("e2e_sched_p99_ms");
        // Segment c=16 -> c=32: T flat, L doubled: e = 0 / ln 2 = 0 exactly (HdrHistogram keeps 100 ms and 200 ms within 0.1%).
        assertThat(r.elasticity().doubleColumn("elasticity").get(4)).isCloseTo(0, within(1e-9));
        assertThat(r.elasticity().doubleColumn("elasticity").get(0)).isInfinite();
        assertThat(r.elasticity().stringColumn("verdict").get(5)).isEqualTo("inelastic (e < 1)");
        assertThat(r.steps().stringColumn("role").get(4)).isEqualTo("knee (efficient)");
        assertThat(r.method()).contains("Knee: c=16").contains("e = 0, 0");
    }

    @Test
    void smoothCurveKneeIsWhereElasticityFirstStaysBelowOne() {
        // T doubles, then grows x1.5, x1.2, x1.05 while L grows x1.1, x1.3, x1.4, x2: e = ln2/ln1.1 = 7.3,
        // ln1.5/ln1.3 = 1.55, ln1.2/ln1.4 = 0.54, ln1.05/ln2 = 0.07. Knee: the step after which e < 1 stays: c=4.
        RunResult run = run("smooth", s(1, 1000, 100), s(2, 2000, 110), s(4, 3000, 143), s(8, 3600, 200.2),
                s(16, 3780, 400.4));
        KneeReport r = Knee.analyze(run);
        assertThat(r.knee()).contains("c=4");
        // HdrHistogram keeps L within 0.1%, which moves dln L by up to 0.002: up to 2% of ln 1.1.
        double[] expected = {7.27, 1.545, 0.542, 0.0704};
        double[] e = r.elasticity().doubleColumn("elasticity").asDoubleArray();
        for (int i = 0; i < expected.length; i++) {
            assertThat(e[i]).isCloseTo(expected[i], withinPercentage(2));
        }
    }

    @Test
    void noKneeWhenLatencyNeverOutgrowsThroughput() {
        RunResult run = run("linear", s(1, 100, 100), s(2, 200, 101), s(4, 400, 103), s(8, 800, 110));
        KneeReport r = Knee.analyze(run);
        assertThat(r.knee()).isEmpty();
        assertThat(r.kneeLoad()).isNaN();
        assertThat(r.efficientZone()).hasSize(4);
        assertThat(r.recommended()).contains("c=8");
        assertThat(r.method()).contains("none in the tested range");
    }

    @Test
    void aSingleNoisySegmentIsNotAKnee() {
        // c=4 -> c=8 is inelastic once (latency spike), then scaling resumes: persistence 2 ignores it.
        RunResult run = run("noisy", s(1, 100, 100), s(2, 200, 100), s(4, 400, 100), s(8, 420, 150),
                s(16, 1000, 150), s(32, 2000, 155));
        assertThat(Knee.analyze(run).knee()).isEmpty();
        // With persistence 1 the first inelastic segment is the knee.
        assertThat(Knee.analyze(run, KneeOptions.builder().persistence(1).build()).knee()).contains("c=4");
    }

    @Test
    void inelasticAtTheTopOfTheLadderIsAWeakKnee() {
        RunResult run = run("top", s(1, 100, 100), s(2, 200, 100), s(4, 400, 100), s(8, 420, 300));
        KneeReport r = Knee.analyze(run);
        assertThat(r.knee()).contains("c=4");
        assertThat(r.method()).contains("weak evidence");
    }

    @Test
    void fewerThanThreeStepsHaveNoKneeVerdict() {
        KneeReport two = Knee.analyze(run("two", s(1, 100, 100), s(2, 100, 400)));
        assertThat(two.knee()).isEmpty();
        assertThat(two.elasticity().rowCount()).isEqualTo(1);
        assertThat(two.method()).contains("fewer than 3 steps");
        KneeReport none = Knee.analyze(run("empty"));
        assertThat(none.elasticity().rowCount()).isZero();
        assertThat(none.recommended()).isEmpty();
        assertThat(none.maxSustainableStep()).isNull();
    }

    @Test
    void stepsWithoutDataAreInelasticAndFlatOrFallingLatencyIsElastic() {
        RunResult run = run("gaps", s(1, 100, 100), s(2, 200, 80), s(4, 400, 80), s(8, 0, 100).ok(0),
                s(16, 0, 100).ok(0));
        KneeReport r = Knee.analyze(run, Slo.builder().e2eMs(1000).build(), LatencyMetric.E2E_SCHED);
        assertThat(r.elasticity().stringColumn("verdict").asList())
                .containsExactly("latency flat or falling", "latency flat or falling", "no data", "no data");
        assertThat(r.knee()).contains("c=4");
        // Steps without OK requests never meet an SLO.
        assertThat(r.maxSustainableStep()).isEqualTo("c=4");
    }

    @Test
    void theSloShrinksTheEfficientZoneAndSetsTheMaxSustainableLoad() {
        // e2e p99 bound 150 ms (closed loop: service basis); sharp ladder is 100 ms up to c=16, then 200, 400.
        Slo slo = Slo.builder().e2eMs(150).build();
        KneeReport r = Knee.analyze(sharp(), slo, LatencyMetric.E2E);
        assertThat(r.efficientZone()).containsExactly("c=1", "c=2", "c=4", "c=8", "c=16");
        assertThat(r.maxSustainableStep()).isEqualTo("c=16");
        assertThat(r.steps().stringColumn("slo_violations").get(5)).isEqualTo("e2e p99 200 ms > 150 ms");
        // A tighter bound than the knee's latency: nothing qualifies.
        KneeReport tight = Knee.analyze(sharp(), Slo.builder().e2eMs(50).build(), LatencyMetric.E2E);
        assertThat(tight.efficientZone()).isEmpty();
        assertThat(tight.recommended()).isEmpty();
        assertThat(tight.method()).contains("Recommended operating point: none");
    }

    @Test
    void failuresAboveTheLimitKeepAStepOutOfTheZone() {
        RunResult run = run("fail", s(1, 100, 100), s(2, 200, 100).failed(50, "TIMEOUT(idle)"), s(4, 400, 100),
                s(8, 400, 300), s(16, 400, 900));
        KneeReport r = Knee.analyze(run, Slo.builder().e2eMs(1000).build(), LatencyMetric.E2E_SCHED);
        assertThat(r.knee()).contains("c=4");
        assertThat(r.efficientZone()).containsExactly("c=1", "c=4");
        assertThat(r.maxSustainableStep()).isEqualTo("c=1");
    }

    @Test
    void latencyNoiseUnderTheFloorMakesNoKnee() {
        // Throughput saturates at c=4 while p99 creeps 2.2 -> 2.6 -> 2.9 ms: without the 1 ms floor, e = 0 twice.
        RunResult fast = run("fast", s(1, 100, 2.0), s(2, 200, 2.1), s(4, 400, 2.2), s(8, 400, 2.6), s(16, 400, 2.9));
        KneeReport r = Knee.analyze(fast);
        assertThat(r.knee()).isEmpty();
        assertThat(r.elasticity().stringColumn("verdict").get(2)).isEqualTo("latency rise under the 1 ms floor");
        // The same shape in hundreds of ms is a knee.
        RunResult slow = run("slow", s(1, 100, 200), s(2, 200, 210), s(4, 400, 220), s(8, 400, 260), s(16, 400, 290));
        assertThat(Knee.analyze(slow).knee()).contains("c=4");
    }

    @Test
    void anOpenLoopStepThatFellBehindItsOfferedRateIsNotSustainable() {
        // rate=100 offers 6,000 arrivals in the 60 s window; 4,440 completed (74 %): the queue grew all step long.
        RunResult run = run("overload", s(25, 2500, 50).open().achieved(25), s(50, 5000, 60).open().achieved(50),
                s(100, 7400, 80).open().achieved(74));
        KneeReport r = Knee.analyze(run);
        assertThat(r.maxSustainableStep()).isEqualTo("rate=50");
        assertThat(r.steps().stringColumn("slo_violations").get(2))
                .isEqualTo("achieved 74 req/s of the 100 req/s offered (74.0% < 95.0%): the server fell behind and "
                        + "its queue grew through the step");
        assertThat(r.method()).contains("Max sustainable load under the SLO set: rate=50 (load 50; it and every "
                + "lower step meet the SLO set and kept up with their offered rates)");
    }

    @Test
    void anOpenLoopStepWhoseLatencyRoseThroughItsWindowIsNotSustainable() {
        // rate=60 kept up in count (60 req/s) but ttft sched rose 1500 ms across 60 s of starts (mean 900 ms): a queue
        // growing slowly. rate=40's rise of 17.5 ms on a mean of 50 ms (+35 %, t=6) is the size of Poisson bursts in a
        // 5 s window, under half the mean; rate=20's fall of 30 ms (a warm-up too short) is a caveat, never a verdict.
        RunResult run = run("creep", s(20, 2000, 50).open().achieved(20).trend(new LatencyTrend(1200, 60, -0.5, 60, -8)),
                s(40, 4000, 50).open().achieved(40).trend(new LatencyTrend(2400, 60, 17.5 / 60, 50, 6)),
                s(60, 6000, 900).open().achieved(60).trend(new LatencyTrend(3600, 60, 25, 900, 40)));
        KneeReport r = Knee.analyze(run);
        assertThat(r.maxSustainableStep()).isEqualTo("rate=40");
        assertThat(r.steps().stringColumn("slo_violations").get(2)).isEqualTo("no steady state: ttft sched rose 1500 ms "
                + "across 60 s of starts, +166.7% of its mean, t=40: the queue grew through the step");
        assertThat(r.steps().stringColumn("slo_violations").get(0)).isEmpty();
        assertThat(r.answer().caveats()).containsExactly("no steady state in rate=20 (ttft sched fell 30 ms across 60 s "
                + "of starts, -50.0% of its mean, t=8), rate=60 (ttft sched rose 1500 ms across 60 s of starts, +166.7% "
                + "of its mean, t=40): its percentiles depend on how long the step ran; a rising line is a queue that "
                + "grows (the server fell behind) or a server that degrades, a falling one a warm-up too short "
                + "(lengthen --warmup).");
    }

    @Test
    void aClosedLoopTrendIsACaveatNotAVerdict() {
        RunResult run = run("closed", s(1, 100, 50).slo(Slo.builder().e2eMs(2000).build()),
                s(2, 200, 60).slo(Slo.builder().e2eMs(2000).build()).trend(new LatencyTrend(1200, 60, 1, 60, 9)));
        KneeReport r = Knee.analyze(run);
        assertThat(r.maxSustainableStep()).isEqualTo("c=2");
        assertThat(r.answer().caveats()).singleElement().asString().startsWith("no steady state in c=2 (ttft sched rose");
    }

    @Test
    void arrivalNoiseAloneDoesNotFailAnOpenLoopStep() {
        // rate=2 offers 120 arrivals in 60 s: 0.95 x 120 - 2 x sqrt(120) = 92.1 are needed; 95 (79 %) pass, 90 fail.
        RunResult ok = run("noise", s(2, 200, 50).open().achieved(95 / 60.0));
        assertThat(Knee.analyze(ok).maxSustainableStep()).isEqualTo("rate=2");
        RunResult behind = run("behind", s(2, 200, 50).open().achieved(90 / 60.0));
        assertThat(Knee.analyze(behind).maxSustainableStep()).isNull();
        assertThat(Knee.analyze(behind).method()).contains("none (the lowest step already misses it or fell behind "
                + "its offered rate)");
    }

    @Test
    void requestsCutByTheDrainCountAsFailedInTheSloCheck() {
        // 1,000 OK and 20 cancelled at the drain: 2.0 % > 1 %, although no request failed outright.
        Slo slo = Slo.builder().e2eMs(1000).build();
        RunResult run = run("drain", s(1, 100, 100), s(2, 200, 100).cancelled(20), s(4, 400, 100));
        KneeReport r = Knee.analyze(run, slo, LatencyMetric.E2E_SCHED);
        assertThat(r.maxSustainableStep()).isEqualTo("c=1");
        assertThat(r.steps().stringColumn("slo_violations").get(1))
                .isEqualTo("failure rate 2.0% > 1.0% (20 request(s) cut by the drain counted as failed)");
    }

    @Test
    void openAndClosedLoopsShareOneLatencyMeasure() {
        RunResult open = run("open", s(1, 100, 100).open(), s(2, 200, 100).open(), s(4, 300, 500).open());
        RunResult closed = run("closed", s(1, 100, 100), s(2, 200, 100), s(4, 300, 500));
        assertThat(Knee.analyze(open).latencyColumn()).isEqualTo("e2e_sched_p99_ms");
        assertThat(Knee.analyze(closed).latencyColumn()).isEqualTo("e2e_sched_p99_ms");
    }

    @Test
    void optionsReportEveryProblemAtOnce() {
        assertThatThrownBy(() -> KneeOptions.builder().percentile(0).persistence(0).maxFailureRate(2).build())
                .hasMessageContaining("percentile").hasMessageContaining("persistence")
                .hasMessageContaining("maxFailureRate");
    }
}
