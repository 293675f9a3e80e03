package dev.kneepoint.metrics;

import static dev.kneepoint.metrics.TestRecords.closedStep;
import static dev.kneepoint.metrics.TestRecords.failed;
import static dev.kneepoint.metrics.TestRecords.ok;
import static dev.kneepoint.metrics.TestRecords.openStep;
import static dev.kneepoint.metrics.TestRecords.window;
import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.within;
import static org.assertj.core.api.Assertions.withinPercentage;

import java.util.Map;
import java.util.stream.IntStream;
import org.junit.jupiter.api.Test;

class StepAggregatorTest {

    private static final String S = "c=1";

    @Test
    void itlSplitsAMultiTokenChunkIntoPerTokenSamples() {
        StepAggregator a = StepAggregator.forUnknownWindow(closedStep(S, 1), Slo.none(), ClientThresholds.defaults());
        // First token at 100 ms, then a chunk of 3 tokens after a 30 ms gap.
        a.accept(ok(1, S, 0, 0, new double[] {100, 130}, new int[] {1, 3}).build());
        StepResult r = a.finish(window(0, 1000));
        // Three samples of 10 ms: not one 30 ms sample, not 30 ms + two zeros. 0.1% = HdrHistogram precision.
        assertThat(r.latency().itl().count()).isEqualTo(3);
        assertThat(r.latency().itl().min()).isCloseTo(10, withinPercentage(0.1));
        assertThat(r.latency().itl().max()).isCloseTo(10, withinPercentage(0.1));
        assertThat(r.latency().chunkGap().count()).isEqualTo(1);
        assertThat(r.latency().chunkGap().max()).isCloseTo(30, withinPercentage(0.1));
        // tpot = (130 - 100) / (4 - 1) = 10 ms; ttft = 100 ms; e2e = 130 ms.
        assertThat(r.latency().tpot().p50()).isCloseTo(10, withinPercentage(0.1));
        assertThat(r.latency().ttft().p50()).isCloseTo(100, withinPercentage(0.1));
        assertThat(r.latency().e2e().p50()).isCloseTo(130, withinPercentage(0.1));
    }

    @Test
    void windowedTokensCountArrivalsInsideTheWindowExactly() {
        StepAggregator a = StepAggregator.forUnknownWindow(closedStep(S, 3), Slo.none(), ClientThresholds.defaults());
        // Window [1000, 3000) ms. A straddles the start: only its 7 tokens at 1500 count.
        a.accept(ok(1, S, 400, 400, new double[] {500, 1500}, new int[] {5, 7}).build());
        // B straddles the end: 4 tokens at 2500 count; 6 at exactly 3000 (end is exclusive) and 9 at 3500 do not.
        a.accept(ok(2, S, 2000, 2000, new double[] {2500, 3000, 3500}, new int[] {4, 6, 9}).build());
        // C lies inside: 10 tokens.
        a.accept(ok(3, S, 1800, 1800, new double[] {2000}, new int[] {10}).build());
        StepResult r = a.finish(window(1000, 3000));
        // (7 + 4 + 10) tokens / 2 s; exact arithmetic, tolerance only for floating point.
        assertThat(r.rates().outputTokensPerS()).isCloseTo(10.5, within(1e-9));
        // Prompt tokens of B and C (dispatched in window), 100 each, / 2 s.
        assertThat(r.rates().inputTokensPerS()).isCloseTo(100.0, within(1e-9));
        // A ends at 1501 and C at 2001: 2 OK completions in window / 2 s. B ends at 3501.
        assertThat(r.rates().requestsPerS()).isCloseTo(1.0, within(1e-9));
        assertThat(r.windowS()).isCloseTo(2.0, within(1e-12));
    }

    @Test
    void concurrencyMeanIsTheExactTimeAverageOfInFlightRequests() {
        StepAggregator a = StepAggregator.forUnknownWindow(closedStep(S, 4), Slo.none(), ClientThresholds.defaults());
        a.accept(failed(1, S, 0, 1500, new Outcome.HttpError(500, "")));     // 0.5 s inside [1, 3)
        a.accept(failed(2, S, 1200, 2200, new Outcome.HttpError(500, "")));  // 1.0 s
        a.accept(failed(3, S, 2500, 4000, new Outcome.HttpError(500, "")));  // 0.5 s
        a.accept(failed(4, S, 1000, 3000, new Outcome.HttpError(500, "")));  // 2.0 s
        a.accept(failed(5, S, 3000, 3500, new Outcome.HttpError(500, "")));  // 0 s: starts at the end
        a.accept(failed(6, S, 100, 900, new Outcome.HttpError(500, "")));    // 0 s: before the window
        a.accept(failed(7, S, 0, 0, Outcome.DROPPED));                       // never dispatched: 0 s
        StepResult r = a.finish(window(1000, 3000));
        // (0.5 + 1.0 + 0.5 + 2.0) s / 2 s = 2.0 exactly.
        assertThat(r.rates().concurrencyMean()).isCloseTo(2.0, within(1e-9));
    }

    @Test
    void goodputJudgesOpenLoopOnTheSchedBasisAndFailuresAreNeverGood() {
        Slo slo = Slo.builder().ttftMs(100).build();
        RequestRecord lateSched = ok(1, S, 0, 100, new double[] {150}, new int[] {1}).build(); // ttft 50, sched 150
        RequestRecord fast = ok(2, S, 200, 200, new double[] {280}, new int[] {1}).build();    // ttft 80, sched 80
        RequestRecord err = failed(3, S, 300, 310, new Outcome.HttpError(429, "slow down"));
        RequestRecord slow = ok(4, S, 400, 400, new double[] {600}, new int[] {1}).build();    // ttft 200
        for (boolean open : new boolean[] {true, false}) {
            StepAggregator a = StepAggregator.forUnknownWindow(open ? openStep(S, 4) : closedStep(S, 4), slo,
                    ClientThresholds.defaults());
            for (RequestRecord r : new RequestRecord[] {lateSched, fast, err, slow}) {
                a.accept(r);
            }
            StepResult r = a.finish(window(0, 2000));
            long good = open ? 1 : 2; // open loop: only 'fast'; closed loop: 'lateSched' too
            assertThat(r.rates().goodputRps()).as("open=%s", open).isCloseTo(good / 2.0, within(1e-9));
            assertThat(r.rates().goodFraction()).as("open=%s", open).isCloseTo(good / 4.0, within(1e-9));
            assertThat(r.rates().requestsPerS()).isCloseTo(3 / 2.0, within(1e-9));
        }
    }

    @Test
    void failuresAreCountedByClassWithCancelledApartAndDroppedCounted() {
        StepAggregator a = StepAggregator.forUnknownWindow(openStep(S, 10), Slo.none(), ClientThresholds.defaults());
        a.accept(ok(1, S, 0, 0, new double[] {10}, new int[] {1}).build());
        a.accept(failed(2, S, 0, 5, new Outcome.HttpError(429, "")));
        a.accept(failed(3, S, 0, 5, new Outcome.HttpError(429, "")));
        a.accept(failed(4, S, 0, 5, new Outcome.HttpError(503, "")));
        a.accept(failed(5, S, 0, 5, new Outcome.Timeout(Outcome.TimeoutKind.IDLE)));
        a.accept(failed(6, S, 0, 5, Outcome.DROPPED));
        a.accept(failed(7, S, 0, 5, Outcome.CANCELLED));
        StepResult r = a.finish(window(0, 1000));
        // Sorted by label, cancelled not among them.
        assertThat(r.counts().failuresByClass()).containsExactlyEntriesOf(new java.util.TreeMap<>(Map.of(
                "DROPPED", 1L, "HTTP_ERROR(429)", 2L, "HTTP_ERROR(503)", 1L, "TIMEOUT(idle)", 1L)));
        assertThat(r.counts().requestsOk()).isEqualTo(1);
        assertThat(r.counts().requestsFailed()).isEqualTo(5);
        assertThat(r.counts().cancelled()).isEqualTo(1);
        assertThat(r.counts().dropped()).isEqualTo(1);
        // 5 failed / 6 non-cancelled outcomes.
        assertThat(r.rates().failureRate()).isCloseTo(5 / 6.0, within(1e-12));
        // Failures do not enter latency distributions.
        assertThat(r.latency().ttft().count()).isEqualTo(1);
    }

    @Test
    void warmupIsExcludedFromStatisticsButItsTokensInTheWindowCount() {
        StepAggregator a = StepAggregator.forUnknownWindow(closedStep(S, 2), Slo.none(), ClientThresholds.defaults());
        RequestRecord.Builder w = ok(1, S, 0, 0, new double[] {900, 1100}, new int[] {1, 5});
        w.warmup = true;
        a.accept(w.build());
        a.accept(ok(2, S, 1000, 1000, new double[] {1050}, new int[] {2}).build());
        StepResult r = a.finish(window(1000, 2000));
        assertThat(r.counts().warmupRequests()).isEqualTo(1);
        assertThat(r.counts().requestsOk()).isEqualTo(1);
        assertThat(r.latency().ttft().count()).isEqualTo(1);
        assertThat(r.latency().ttft().max()).isCloseTo(50, withinPercentage(0.1)); // the warm-up's 900 ms is absent
        assertThat(r.latency().itl().count()).isZero();
        // 5 warm-up tokens + 2 tokens arrive in the 1 s window.
        assertThat(r.rates().outputTokensPerS()).isCloseTo(7.0, within(1e-9));
    }

    @Test
    void tokenSourcesMismatchesAndDiscrepanciesAreCounted() {
        StepAggregator a = StepAggregator.forUnknownWindow(closedStep(S, 1), Slo.none(), ClientThresholds.defaults());
        RequestRecord.Builder b = ok(1, S, 0, 0, new double[] {10, 20}, new int[] {1, 1});
        b.requestedOutputTokens = 3;
        b.clientCountedTokens = 3;
        a.accept(b.build());
        RequestRecord.Builder e = ok(2, S, 0, 0, new double[] {10}, new int[] {1});
        e.tokenSource = TokenSource.EVENTS;
        a.accept(e.build());
        StepResult r = a.finish(window(0, 100));
        assertThat(r.counts().outputLenMismatch()).isEqualTo(1);
        assertThat(r.counts().countDiscrepancy()).isEqualTo(1);
        assertThat(r.counts().tokenSources()).containsEntry("events", 1L).containsEntry("server_usage", 1L);
    }

    @Test
    void concurrentAcceptsLoseNothing() throws Exception {
        StepAggregator a = StepAggregator.forUnknownWindow(closedStep(S, 8), Slo.none(), ClientThresholds.defaults());
        IntStream.range(0, 8_000).parallel().forEach(i ->
                a.accept(ok(i, S, 0, 0, new double[] {10, 20, 30}, new int[] {1, 2, 3}).build()));
        StepResult r = a.finish(window(0, 1000));
        assertThat(r.counts().requestsOk()).isEqualTo(8_000);
        assertThat(r.latency().itl().count()).isEqualTo(8_000 * 5);
        assertThat(r.rates().outputTokensPerS()).isCloseTo(8_000 * 6, within(1e-6));
    }

    @Test
    void progressReportsRecentTokenRateAndTtft() {
        StepAggregator a = StepAggregator.forUnknownWindow(closedStep(S, 1), Slo.none(), ClientThresholds.defaults());
        // 10 tokens per 100 ms from 0 to 10 s: 100 tokens/s.
        for (int i = 0; i < 100; i++) {
            a.accept(ok(i, S, i * 100, i * 100, new double[] {i * 100 + 20}, new int[] {10}).build());
        }
        StepProgress p = a.progress(TestRecords.nanos(10_000));
        assertThat(p.requestsDone()).isEqualTo(100);
        // Tokens in [5 s, 10 s): 50 requests x 10 tokens / 5 s = 100/s exactly (bins are 250 ms wide).
        assertThat(p.outputTokensPerS()).isCloseTo(100.0, within(1e-9));
        assertThat(p.ttftP99Ms()).isCloseTo(20, withinPercentage(0.1));
        assertThat(p.inFlight()).isEqualTo(-1);
    }

    @Test
    void zeroLengthWindowGivesNaNRates() {
        StepAggregator a = StepAggregator.forUnknownWindow(closedStep(S, 1), Slo.none(), ClientThresholds.defaults());
        StepResult r = a.finish(window(5, 5));
        assertThat(r.rates().outputTokensPerS()).isNaN();
        assertThat(r.rates().failureRate()).isNaN();
        assertThat(r.latency().ttft().count()).isZero();
    }

    @Test
    void aWindowGivenInAdvanceGivesExactlyTheSameResult() {
        StepWindow w = window(100, 900);
        StepAggregator kept = StepAggregator.forUnknownWindow(closedStep(S, 8), Slo.builder().ttftMs(50).build(),
                ClientThresholds.defaults());
        StepAggregator counted = StepAggregator.forKnownWindow(closedStep(S, 8), Slo.builder().ttftMs(50).build(),
                ClientThresholds.defaults(), w);
        java.util.SplittableRandom rnd = new java.util.SplittableRandom(7);
        for (int i = 0; i < 2_000; i++) {
            double start = rnd.nextDouble(-50, 1000); // requests straddle both window edges
            double[] t = {start + 20 + rnd.nextDouble(60), 0, 0};
            t[1] = t[0] + rnd.nextDouble(15);
            t[2] = t[1] + rnd.nextDouble(15);
            int[] k = {1 + rnd.nextInt(3), rnd.nextInt(3), 1}; // zero-token events too
            RequestRecord r = i % 17 == 0 ? failed(i, S, Math.max(0, start), start + 5, new Outcome.HttpError(503, ""))
                    : i % 29 == 0 ? failed(i, S, Math.max(0, start), start + 5, Outcome.CANCELLED)
                    : ok(i, S, Math.max(0, start), Math.max(0, start), t, k).build();
            kept.accept(r);
            counted.accept(r);
        }
        StepResult a = kept.finish(w);
        StepResult b = counted.finish(w);
        assertThat(a.rates().outputTokensPerS()).isPositive();
        assertThat(b).isEqualTo(a); // every field, doubles bit for bit
        assertThat(kept.progress(TestRecords.nanos(900)).outputTokensPerS()).isPositive();
        assertThat(counted.progress(TestRecords.nanos(900)).outputTokensPerS()).isNaN(); // not a live step
        org.assertj.core.api.Assertions.assertThatThrownBy(() -> counted.finish(window(100, 901)))
                .isInstanceOf(IllegalArgumentException.class).hasMessageContaining("given in advance");
    }
}
