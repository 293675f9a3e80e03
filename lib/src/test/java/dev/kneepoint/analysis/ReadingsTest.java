package dev.kneepoint.analysis;

import static dev.kneepoint.analysis.Ladders.run;
import static dev.kneepoint.analysis.Ladders.s;
import static org.assertj.core.api.Assertions.assertThat;

import dev.kneepoint.analysis.Reading.Kind;
import dev.kneepoint.analysis.Reading.Status;
import java.util.Map;
import java.util.stream.Collectors;
import org.junit.jupiter.api.Test;

class ReadingsTest {

    private static Map<Kind, Reading> readings(KneeReport r) {
        return r.readings().stream().collect(Collectors.toMap(Reading::kind, x -> x));
    }

    @Test
    void decodeBoundWhenTtftIsStableAndTpotGrowsWithinTheEfficientRange() {
        // Elastic to c=16 (e = 1.9, 1.3), then flat: the knee is c=16. Up to it TTFT p99 50 -> 60 ms (x1.2 <= x1.5)
        // while TPOT p50 20 -> 50 ms (x2.5 >= x1.5).
        var run = run("decode", s(1, 100, 500).ttft(50).itl(20), s(4, 350, 700).ttft(55).itl(30),
                s(16, 600, 1000).ttft(60).itl(50), s(32, 600, 2000).ttft(500).itl(50), s(64, 600, 4000).ttft(900));
        KneeReport r = Knee.analyze(run);
        assertThat(r.knee()).contains("c=16");
        Map<Kind, Reading> m = readings(r);
        assertThat(m.get(Kind.DECODE_BOUND).status()).isEqualTo(Status.APPLIES);
        assertThat(m.get(Kind.DECODE_BOUND).evidence()).contains("within the efficient range c=1 -> c=16")
                .contains("ttft p99 50 -> 60 ms (x1.20)").contains("tpot p50 20 -> 50 ms (x2.50)");
        // Past the knee TTFT grows x15 by queueing: that is not a prefill limit.
        assertThat(m.get(Kind.PREFILL_OR_ADMISSION_BOUND).status()).isEqualTo(Status.DOES_NOT_APPLY);
    }

    @Test
    void admissionBoundWhenTtftOutgrowsItlBeforeTheKnee() {
        // Up to the knee c=4: TTFT p99 100 -> 300 ms (x3) while ITL p99 x1.1: TTFT >= x2 and >= 2 x the ITL growth.
        var run = run("prefill", s(1, 100, 500).ttft(100).itl(20), s(4, 390, 600).ttft(300).itl(22),
                s(16, 800, 2000).ttft(1000).itl(25), s(32, 820, 4000).ttft(2000).itl(25));
        KneeReport r = Knee.analyze(run);
        assertThat(r.knee()).contains("c=4");
        Map<Kind, Reading> m = readings(r);
        assertThat(m.get(Kind.PREFILL_OR_ADMISSION_BOUND).status()).isEqualTo(Status.APPLIES);
        assertThat(m.get(Kind.PREFILL_OR_ADMISSION_BOUND).evidence()).contains("c=1 -> c=4").contains("x3.00")
                .contains("itl p99 x1.10");
        assertThat(m.get(Kind.DECODE_BOUND).status()).isEqualTo(Status.DOES_NOT_APPLY);
    }

    @Test
    void queueingPastTheKneeIsNotReadAsPrefillBound() {
        // The old lowest-versus-highest test fired here: TTFT x10 from c=1 to c=16, all of it past the knee c=4.
        var run = run("queue", s(1, 100, 500).ttft(100).itl(20), s(4, 390, 600).ttft(110).itl(21),
                s(16, 800, 2000).ttft(1000).itl(25), s(32, 820, 4000).ttft(2000).itl(25));
        assertThat(readings(Knee.analyze(run)).get(Kind.PREFILL_OR_ADMISSION_BOUND).status())
                .isEqualTo(Status.DOES_NOT_APPLY);
    }

    @Test
    void prefillStallsDecodeWhenTheItlTailOutgrowsItsMedian() {
        // ITL p99/p50: 1.5 at c=1, 10.5 at c=256 (220 vs 21 ms): >= x3 and >= 2 x the lowest step's.
        var run = run("stall", s(1, 100, 500).itlTail(6, 9), s(16, 1500, 700).itlTail(12, 60),
                s(256, 6000, 3000).itlTail(21, 220));
        Reading r = readings(Knee.analyze(run)).get(Kind.PREFILL_STALLS_DECODE);
        assertThat(r.status()).isEqualTo(Status.APPLIES);
        assertThat(r.finding()).startsWith("Prefill stalls decode at c=256: ITL p99 is x10.")
                .contains("(220.1 vs 21 ms)").contains("max_num_batched_tokens"); // HdrHistogram: 220 ms kept as 220.1
        assertThat(r.evidence()).contains("c=1 1.5 (").contains("c=256 10.5 (").contains("a stall means >= x3.00");
        // An even spread at every load is jitter, not stalls.
        var even = run("even", s(1, 100, 500).itlTail(6, 30), s(16, 1500, 700).itlTail(12, 60),
                s(256, 6000, 3000).itlTail(21, 105));
        assertThat(readings(Knee.analyze(even)).get(Kind.PREFILL_STALLS_DECODE).status())
                .isEqualTo(Status.DOES_NOT_APPLY);
    }

    @Test
    void pastTheUsableZoneWhenThroughputRisesButTheTailExplodes() {
        var run = run("past", s(1, 100, 100), s(2, 200, 100), s(4, 400, 100), s(8, 440, 200), s(16, 460, 450));
        Map<Kind, Reading> m = readings(Knee.analyze(run));
        Reading r = m.get(Kind.PAST_USABLE_ZONE);
        assertThat(r.status()).isEqualTo(Status.APPLIES);
        assertThat(r.evidence()).contains("from c=4 to c=16").contains("(x1.15)").contains("(x4.50");
    }

    @Test
    void clientPathWhenScheduleLagIsLarge() {
        // 30 requests in 60 s: a 2 s gap, so the self-check's lag limit is max(5 ms, 5% of 2 s) = 100 ms and 40 ms
        // does not flag the step; the reading's limit is max(10 ms, 10% of TTFT p50 50 ms) = 10 ms.
        var run = run("client", s(1, 100, 100).ttft(50), s(2, 200, 100).ttft(50).lag(40).ok(30),
                s(4, 400, 100).ttft(50));
        Map<Kind, Reading> m = readings(Knee.analyze(run));
        Reading r = m.get(Kind.CLIENT_OR_SCHEDULER_PATH);
        assertThat(r.status()).isEqualTo(Status.APPLIES);
        assertThat(r.evidence()).contains("No GPU telemetry").contains("schedule_lag p99 40 ms at c=2")
                .doesNotContain("Not judged again");
        assertThat(r.finding()).contains("at c=2").contains("40 ms > 10 ms").contains("self-check did not flag");
        assertThat(m.get(Kind.CLIENT_BOUND).status()).isEqualTo(Status.DOES_NOT_APPLY);
        var calm = run("calm", s(1, 100, 100), s(2, 200, 100), s(4, 400, 100));
        assertThat(readings(Knee.analyze(calm)).get(Kind.CLIENT_OR_SCHEDULER_PATH).status())
                .isEqualTo(Status.DOES_NOT_APPLY);
    }

    @Test
    void aStepTheClientSelfCheckFlaggedIsReportedOnceAsClientBound() {
        // 1000 requests in 60 s: a 60 ms gap, self-check lag limit max(5, 3) = 5 ms, so 40 ms flags c=2; the
        // reading's own limit (10 ms) would also be crossed: before, both readings said "the client dispatched late".
        var run = run("both", s(1, 100, 100).ttft(50), s(2, 200, 100).ttft(50).lag(40), s(4, 400, 100).ttft(50));
        Map<Kind, Reading> m = readings(Knee.analyze(run));
        assertThat(m.get(Kind.CLIENT_BOUND).status()).isEqualTo(Status.APPLIES);
        assertThat(m.get(Kind.CLIENT_BOUND).evidence()).contains("c=2 (schedule_lag_p99_ms 40");
        Reading path = m.get(Kind.CLIENT_OR_SCHEDULER_PATH);
        // The other steps lag 0.5 ms (Ladders' default): below 10 ms, so nothing else applies.
        assertThat(path.status()).isEqualTo(Status.DOES_NOT_APPLY);
        assertThat(path.finding()).doesNotContain("dispatched late");
        assertThat(path.evidence()).contains("Not judged again here: c=2").contains("CLIENT_BOUND")
                .contains("schedule_lag p99 0.5 ms at c=1 among the steps the client self-check did not flag");

        // A flagged step (c=4, 40 ms) and an unflagged late one (c=2, 30 ms, 2 s gap): each reading names its own.
        var mixed = run("mixed", s(1, 100, 100).ttft(50), s(2, 200, 100).ttft(50).lag(30).ok(30),
                s(4, 400, 100).ttft(50).lag(40));
        Map<Kind, Reading> mm = readings(Knee.analyze(mixed));
        assertThat(mm.get(Kind.CLIENT_BOUND).finding()).contains("step c=4").doesNotContain("c=2");
        assertThat(mm.get(Kind.CLIENT_OR_SCHEDULER_PATH).status()).isEqualTo(Status.APPLIES);
        assertThat(mm.get(Kind.CLIENT_OR_SCHEDULER_PATH).finding()).contains("at c=2").doesNotContain("c=4");
        assertThat(mm.get(Kind.CLIENT_OR_SCHEDULER_PATH).evidence()).contains("schedule_lag p99 30 ms at c=2")
                .contains("Not judged again here: c=4");

        // Every lagging step flagged: the reading says so instead of repeating it.
        var all = run("all", s(1, 100, 100).lag(40), s(2, 200, 100).lag(40));
        Reading allPath = readings(Knee.analyze(all)).get(Kind.CLIENT_OR_SCHEDULER_PATH);
        assertThat(allPath.status()).isEqualTo(Status.DOES_NOT_APPLY);
        assertThat(allPath.finding()).contains("already reported as client-bound");
        assertThat(allPath.evidence()).contains("Not judged again here: c=1, c=2");
    }

    @Test
    void aTargetThatNeverAnsweredIsNotCalledUnstable() {
        var dead = run("dead", s(1, 0, 100).ok(0).failed(40, "CONNECTION_ERROR"),
                s(2, 0, 100).ok(0).failed(80, "CONNECTION_ERROR"), s(4, 0, 100).ok(0).failed(160, "CONNECTION_ERROR"));
        Reading r = readings(Knee.analyze(dead)).get(Kind.STABILITY);
        assertThat(r.status()).isEqualTo(Status.INSUFFICIENT_DATA);
        assertThat(r.finding()).startsWith("The target never answered a request").doesNotContain("memory");
        assertThat(r.evidence()).contains("c=1 100.0% {CONNECTION_ERROR=40}");
    }

    @Test
    void stabilityWhenFailuresAppearWhileThroughputStillScales() {
        var run = run("stab", s(1, 100, 100), s(2, 200, 100).failed(30, "TIMEOUT(idle)"), s(4, 400, 100),
                s(8, 420, 300), s(16, 420, 900));
        Reading r = readings(Knee.analyze(run)).get(Kind.STABILITY);
        assertThat(r.status()).isEqualTo(Status.APPLIES);
        assertThat(r.evidence()).contains("c=2 2.9%").contains("at or below the knee c=4");
        var overload = run("over", s(1, 100, 100), s(2, 200, 100), s(4, 400, 100), s(8, 420, 300),
                s(16, 420, 900).failed(100, "HTTP_ERROR(503)"));
        assertThat(readings(Knee.analyze(overload)).get(Kind.STABILITY).status()).isEqualTo(Status.DOES_NOT_APPLY);
    }

    @Test
    void longPromptsBlowingUpTtftIsReadFromTheRequestTable() {
        java.util.List<dev.kneepoint.metrics.RequestRecord> recs = new java.util.ArrayList<>();
        for (int i = 0; i < 100; i++) {
            boolean longPrompt = i % 2 == 1;
            // 128-token prompts: TTFT 50 ms; 4096-token prompts: TTFT 300 ms (x6).
            var b = dev.kneepoint.metrics.TestRecords.ok(i, "c=1", i * 10, i * 10,
                    new double[] {i * 10 + (longPrompt ? 300 : 50)}, new int[] {1});
            b.promptTokens = longPrompt ? 4096 : 128;
            recs.add(b.build());
        }
        var run = run("prompt", s(1, 100, 100).itl(20), s(2, 200, 100).itl(20), s(4, 400, 110).itl(21));
        KneeReport r = Knee.analyze(run, KneeOptions.builder().requests(Tables.requests(recs)).build());
        Reading p = readings(r).get(Kind.PREFILL_OR_ADMISSION_BOUND);
        assertThat(p.status()).isEqualTo(Status.APPLIES);
        assertThat(p.evidence()).contains("ttft p50 50 ms for prompts <= 128 tokens")
                .contains("300 ms for prompts >= 4096 tokens").contains("x6.00: blow-up");
    }

    @Test
    void failuresConcentratedLateInTheirStepReadAsStability() {
        // Failing step c=16 is past the knee c=4, so only the timing can make it a stability reading.
        var run = run("late", s(1, 100, 100), s(2, 200, 100), s(4, 400, 100), s(8, 420, 300),
                s(16, 420, 900).failed(100, "TIMEOUT(idle)"));
        var w = run.steps().get(4).window();
        double startMs = w.startNanos() / 1e6;
        double lengthMs = (w.endNanos() - w.startNanos()) / 1e6;
        java.util.List<dev.kneepoint.metrics.RequestRecord> recs = new java.util.ArrayList<>();
        for (int i = 0; i < 10; i++) {
            // 8 of 10 failures end in the later half of the window: 80% >= 75%.
            double end = startMs + lengthMs * (i < 8 ? 0.6 + 0.04 * i : 0.1 + 0.1 * (i - 8));
            recs.add(dev.kneepoint.metrics.TestRecords.failed(i, "c=16", end - 5, end,
                    new dev.kneepoint.metrics.Outcome.Timeout(dev.kneepoint.metrics.Outcome.TimeoutKind.IDLE)));
        }
        Reading r = readings(Knee.analyze(run, KneeOptions.builder().requests(Tables.requests(recs)).build()))
                .get(Kind.STABILITY);
        assertThat(r.status()).isEqualTo(Status.APPLIES);
        assertThat(r.evidence()).contains("above the knee c=4").contains("80.0% of 10 failures ended in the later half");
    }

    @Test
    void everyReadingIsReportedEvenWithTooLittleData() {
        KneeReport r = Knee.analyze(run("one", s(1, 100, 100)));
        assertThat(r.readings()).extracting(Reading::kind).containsExactly(Kind.values());
        assertThat(r.readings().get(0).status()).isEqualTo(Status.INSUFFICIENT_DATA);
        assertThat(r.summary()).contains("Readings:");
    }
}
