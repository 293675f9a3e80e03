package dev.kneepoint.analysis;

import static dev.kneepoint.analysis.Ladders.run;
import static dev.kneepoint.analysis.Ladders.s;
import static org.assertj.core.api.Assertions.assertThat;

import dev.kneepoint.metrics.RunResult;
import dev.kneepoint.metrics.Slo;
import org.junit.jupiter.api.Test;

/** The plain answer that opens a report, and its adequacy caveats, on ladders with a known answer. */
class AnswerTest {

    @Test
    void aClosedLadderWithoutSloNamesPeakEfficientRangeAndSaysCapacityIsNotJudged() {
        Answer a = Knee.analyze(KneeTest.sharp()).answer();
        assertThat(a.sentences()).hasSize(5);
        // c=16, 32 and 64 all reach 1,600 tok/s: the peak is where it is first reached.
        assertThat(a.sentences().get(0)).isEqualTo("Peak output throughput 1600 tok/s at c=16 (16.7 req/s).");
        assertThat(a.sentences().get(1)).isEqualTo("Efficient up to c=16 (the knee): 1600 tok/s, e2e sched p99 100 ms, "
                + "about 50 tok/s per user (1000 / TPOT p50).");
        assertThat(a.sentences().get(2)).startsWith("Capacity under an SLO: not judged: no latency SLO given");
        assertThat(a.sentences().get(3)).isEqualTo("Operating points: latency-first c=16 (the knee); throughput-first "
                + "not judged without a latency SLO (a closed loop sustains every load, only slower); peak throughput "
                + "at c=16.");
        assertThat(a.sentences().get(4)).startsWith("Limit: ");
        // 1,000 requests a step, 60 s windows: nothing thin; only the doubling ladder is coarse around the knee.
        assertThat(a.caveats()).containsExactly(
                "the knee lies between c=16 and c=32: to place it closer, measure --concurrency 19,23,27.");
        assertThat(a.toString()).startsWith("Answer:\n  Peak output throughput").contains("\nCaveats:\n- the knee");
    }

    @Test
    void underAnSloTheCapacityIsTheHighestStepThatMeetsIt() {
        Slo slo = Slo.builder().e2eMs(150).build();
        Answer a = Knee.analyze(KneeTest.sharp(), slo, LatencyMetric.E2E).answer();
        assertThat(a.sentences().get(2)).isEqualTo("Highest load that meets E2E <= 150 ms: c=16.");
        // 75 % of 16 users: 12, a load the ladder did not measure, said to be derived from the capacity.
        assertThat(a.sentences().get(3)).isEqualTo("Operating points: latency-first c=12 (75.0% of the SLO capacity "
                + "c=16, 25.0% headroom for bursts); throughput-first c=16 (the highest sustainable step, no headroom).");
        Answer none = Knee.analyze(KneeTest.sharp(), Slo.builder().e2eMs(50).build(), LatencyMetric.E2E).answer();
        assertThat(none.sentences().get(1)).isEqualTo("No step at or below the knee meets the SLO set: there is no "
                + "efficient range.");
        assertThat(none.sentences().get(2)).isEqualTo("No step meets E2E <= 50 ms.");
        assertThat(none.sentences().get(3)).isEqualTo("Operating points: latency-first none: no step at or below the "
                + "knee meets the SLO set; throughput-first none: no step meets the SLO set.");
    }

    @Test
    void anOverloadedOpenLoopIsNotItsCapacity() {
        RunResult run = run("overload", s(25, 2500, 50).open().achieved(25), s(50, 5000, 60).open().achieved(50),
                s(100, 7400, 80).open().achieved(74));
        Answer a = Knee.analyze(run).answer();
        assertThat(a.sentences().get(0)).isEqualTo("Peak output throughput 7400 tok/s at rate=100 (74 req/s).");
        assertThat(a.sentences().get(2))
                .isEqualTo("Highest load that kept up with its offered rate (no latency SLO given): rate=50.");
        OperatingPoints p = Knee.analyze(run).operatingPoints();
        assertThat(p.throughputFirst().step()).isEqualTo("rate=50");
        assertThat(p.throughputFirst().load()).isEqualTo(50);
        // No latency SLO: the latency-first point is the top of the efficient range, not a headroom off a capacity.
        assertThat(p.latencyFirst().why()).doesNotContain("headroom");
    }

    @Test
    void anOpenLoopUnderAnSloRunsLatencyFirstAtThreeQuartersOfItsCapacity() {
        Slo slo = Slo.builder().ttftMs(100).build();
        RunResult run = run("slo", s(20, 2000, 40).open().achieved(20).slo(slo), s(40, 4000, 50).open().achieved(40)
                .slo(slo), s(79, 7900, 90).open().achieved(79).slo(slo), s(100, 8000, 400).open().achieved(80).slo(slo));
        OperatingPoints p = Knee.analyze(run).operatingPoints();
        assertThat(p.latencyFirst().load()).isCloseTo(59.25, org.assertj.core.api.Assertions.within(1e-9));
        assertThat(p.latencyFirst().step()).isEqualTo("rate=79");
        assertThat(p.throughputFirst().step()).isEqualTo("rate=79");
        assertThat(Knee.analyze(run).answer().sentences().get(3)).isEqualTo("Operating points: latency-first "
                + "rate=59.3 (75.0% of the SLO capacity rate=79, 25.0% headroom for bursts); throughput-first rate=79 "
                + "(the highest sustainable step, no headroom).");
    }

    @Test
    void theLoadGeneratorIsNamedAsTheLimitBeforeAnyServerReading() {
        RunResult run = run("client", s(1, 100, 100), s(2, 200, 100), s(4, 400, 100).client(Ladders.cpu(0.99)));
        KneeReport r = Knee.analyze(run);
        Reading client = r.readings().stream().filter(x -> x.kind() == Reading.Kind.CLIENT_BOUND).findFirst()
                .orElseThrow();
        assertThat(client.status()).isEqualTo(Reading.Status.APPLIES);
        assertThat(r.answer().sentences().get(4)).isEqualTo("Limit: " + client.finding());
    }

    @Test
    void thinPercentilesAndShortWindowsAreCaveatsNamingEveryStep() {
        // Ladders' windows are 60 s: a 30 s E2E p99 needs 90 s. c=1 and c=2 have 13 and 52 OK requests. HdrHistogram
        // keeps 40 s as 40.02 s (3 significant digits, highest equivalent value), so 3 x p99 rounds up to 121 s.
        RunResult run = run("thin", s(1, 100, 100).ok(13), s(2, 200, 100).ok(52), s(4, 400, 100),
                s(8, 800, 30_000), s(16, 800, 40_000));
        Answer a = Knee.analyze(run).answer();
        assertThat(a.caveats()).containsExactly(
                "p99 rests on fewer than 100 OK requests in c=1 (13 requests), c=2 (52 requests): there it is about "
                        + "the step's maximum; lengthen those steps (or read their p90).",
                "window shorter than 3 x E2E p99 in c=8 (60 s window, E2E p99 30 s), c=16 (60 s window, E2E p99 40 s): "
                        + "few slow requests both start and end in it, so its tail is under-sampled; measure for at "
                        + "least 121 s per step.",
                "the knee lies between c=4 and c=8: to place it closer, measure --concurrency 5,6,7.");
        assertThat(a.toString()).contains("\nCaveats:\n- p99 rests on");
    }

    @Test
    void aRunWithoutOkRequestsSaysThereIsNothingToAnswerFrom() {
        Answer a = Knee.analyze(run("none", s(1, 0, 100).ok(0).failed(10, "HTTP_ERROR(503)"))).answer();
        assertThat(a.sentences()).containsExactly("No step completed a request: there is nothing to answer from.");
    }
}
