package dev.kneepoint.metrics;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.util.ArrayList;
import java.util.Comparator;
import java.util.List;
import java.util.SplittableRandom;
import org.junit.jupiter.api.Test;

/**
 * The live aggregation with a {@link WindowPlan} (windowed facts counted as they come) gives the same
 * {@link StepResult}, every double bit for bit, as keeping every fact until the window is known, and that in
 * turn gives the same rates as the former keep-everything {@code WindowFacts} ({@link OldWindowFacts}, kept
 * verbatim as the oracle). Steps are simulated on a virtual clock: records are handed over when they end (plus
 * a random delay, so out of order), the load layer signals {@code loadStopping} at a time {@code T} and then reads
 * the window's end, which is at least {@code T} (closed loop, interrupted) or the earlier of a planned end and a
 * later reading (open loop held for a duration).
 */
class LiveWindowEquivalenceTest {
    private static final String S = "s";
    private static final Slo SLO = Slo.builder().ttftMs(0.0004).build(); // 400 ns: about half the records are good

    private enum Kind { CLOSED, OPEN_PLANNED_END, INTERRUPTED, ENDED_IN_WARMUP }

    /** A generated step: records in hand-over order, the index of the first one handed over after the signal. */
    private record Scenario(Kind kind, WindowPlan plan, List<RequestRecord> records, int stopAt, StepWindow window) {}

    @Test
    void liveKeptAndOldAggregationsAgreeBitForBitOnRandomSteps() {
        SplittableRandom rnd = new SplittableRandom(20261129);
        int[] kinds = new int[Kind.values().length];
        int racing = 0;
        for (int run = 0; run < 400; run++) {
            Scenario sc = scenario(rnd, Kind.values()[run % Kind.values().length]);
            kinds[sc.kind.ordinal()]++;
            racing += raceRecords(sc);
            StepInfo info = TestRecords.closedStep(S, 4);
            StepAggregator live = StepAggregator.forPlannedWindow(info, SLO, ClientThresholds.defaults(), sc.plan);
            StepAggregator kept = StepAggregator.forUnknownWindow(info, SLO, ClientThresholds.defaults());
            OldWindowFacts oracle = new OldWindowFacts();
            WindowFacts keptFacts = new WindowFacts();
            long maxQueuedBeforeStop = 0;
            for (int i = 0; i < sc.records.size(); i++) {
                if (i == sc.stopAt) {
                    live.loadStopping();
                }
                RequestRecord r = sc.records.get(i);
                live.accept(r);
                kept.accept(r);
                oracle.add(r, SLO.isGood(r, false));
                keptFacts.add(r, SLO.isGood(r, false));
                if (i < sc.stopAt) {
                    maxQueuedBeforeStop = Math.max(maxQueuedBeforeStop, live.queuedFacts()[0]);
                }
            }
            if (sc.stopAt == sc.records.size()) {
                live.loadStopping();
            }
            StepResult expected = kept.finish(sc.window);
            assertThat(live.finish(sc.window)).as("run %d (%s)", run, sc.kind).isEqualTo(expected);
            StepAggregator known = StepAggregator.forKnownWindow(info, SLO, ClientThresholds.defaults(), sc.window);
            sc.records.forEach(known::accept);
            assertThat(known.finish(sc.window)).as("known window, run %d", run).isEqualTo(expected);
            assertThat(keptFacts.rates(sc.window)).as("kept vs old, run %d", run).isEqualTo(toNew(oracle.rates(sc.window)));
            assertThat(live.lastEventNanos()).isEqualTo(kept.lastEventNanos());
            // Handed over out of order by up to 40 ns, at most ~3 records per ns: what waits for the end before the
            // signal is the records near the newest time seen (< 200), never the step (1,000-3,000 records). Plus,
            // when the open loop's planned end passed before the signal (a late scheduler), every record from the
            // first one carrying a time at or after the planned end on: they wait for the end, as they must.
            assertThat(maxQueuedBeforeStop).as("queued before the signal, run %d", run)
                    .isLessThan(200 + pastPlannedEnd(sc));
        }
        assertThat(kinds).containsOnly(100);
        // Records handed over before the signal that carry a time at or after the window's end: the race.
        assertThat(racing).as("records in the race").isGreaterThan(100);
    }

    /** Records handed over before the signal from the first one on that carries a time at or after the planned end. */
    private static int pastPlannedEnd(Scenario sc) {
        for (int i = 0; i < sc.stopAt; i++) {
            if (RandomRecords.latest(sc.records.get(i)) >= sc.plan.endCapNanos()) {
                return sc.stopAt - i;
            }
        }
        return 0;
    }

    /** Records handed over before the signal carrying a time at or after the window's end. */
    private static int raceRecords(Scenario sc) {
        int n = 0;
        for (int i = 0; i < sc.stopAt; i++) {
            if (RandomRecords.latest(sc.records.get(i)) >= sc.window.endNanos() && sc.window.lengthNanos() > 0) {
                n++;
            }
        }
        return n;
    }

    private static Scenario scenario(SplittableRandom rnd, Kind kind) {
        long stepStart = rnd.nextLong(0, 200);
        long warmupEnd = stepStart + (rnd.nextInt(4) == 0 ? 0 : rnd.nextLong(0, 500));
        long stop = kind == Kind.ENDED_IN_WARMUP ? stepStart + rnd.nextLong(0, warmupEnd - stepStart + 1)
                : warmupEnd + rnd.nextLong(0, 8000);
        long plannedEnd = Long.MAX_VALUE;
        long end;
        long later = stop + (rnd.nextBoolean() ? 0 : rnd.nextLong(0, 50)); // a clock reading after the signal
        switch (kind) {
            case OPEN_PLANNED_END -> {
                // the planned end: before the signal (a late scheduler) or after it (the drain ends first)
                plannedEnd = warmupEnd + Math.max(0, stop - warmupEnd + rnd.nextLong(-300, 300));
                end = Math.max(Math.min(plannedEnd, later + rnd.nextLong(0, 400)), stepStart);
            }
            default -> end = Math.max(later, stepStart);
        }
        StepWindow window = new StepWindow(stepStart, Math.min(warmupEnd, end), end, kind != Kind.INTERRUPTED);
        int n = rnd.nextInt(1000, 3000);
        List<long[]> handOver = new ArrayList<>(); // {hand-over time, index}
        List<RequestRecord> made = new ArrayList<>();
        for (int i = 0; i < n; i++) {
            RequestRecord r = record(rnd, i, stepStart, stop, warmupEnd);
            long at = RandomRecords.latest(r) + rnd.nextLong(0, 40);
            if (at < stop && rnd.nextInt(50) == 0) {
                at = stop; // ends just before the signal, handed over just after it
            }
            made.add(r);
            handOver.add(new long[] {at, i});
        }
        handOver.sort(Comparator.comparingLong((long[] h) -> h[0]));
        List<RequestRecord> ordered = new ArrayList<>();
        int stopAt = -1;
        for (long[] h : handOver) {
            if (stopAt < 0 && h[0] >= stop) {
                stopAt = ordered.size();
            }
            ordered.add(made.get((int) h[1]));
        }
        return new Scenario(kind, new WindowPlan(warmupEnd, plannedEnd), ordered,
                stopAt < 0 ? ordered.size() : stopAt, window);
    }

    /** A record dispatched up to the stop (some in warm-up, some drained), every outcome, tokens at random times. */
    private static RequestRecord record(SplittableRandom rnd, int id, long stepStart, long stop, long warmupEnd) {
        RequestRecord.Builder b = new RequestRecord.Builder();
        b.id = id;
        b.step = S;
        long dispatch = rnd.nextLong(stepStart, stop + 1);
        b.intendedNanos = dispatch - rnd.nextLong(0, 5);
        b.warmup = b.intendedNanos < warmupEnd;
        b.promptTokens = rnd.nextInt(10) == 0 ? -1 : rnd.nextInt(0, 300);
        return RandomRecords.finish(rnd, b, dispatch, 8, 200);
    }


    private static WindowFacts.Rates toNew(OldWindowFacts.Rates r) {
        return new WindowFacts.Rates(r.outputTokensPerS(), r.inputTokensPerS(), r.requestsPerS(), r.goodputRps(),
                r.goodFraction(), r.concurrencyMean(), Double.isNaN(r.requestsPerS()) ? Double.NaN : 0); // no items here
    }

    @Test
    void aRecordEndingAfterTheWindowHandedOverBeforeTheSignalIsCountedOnlyUpToTheEnd() {
        // Open loop held for a duration, planned end 1,000; the scheduler was late, so before the signal a record
        // is handed over whose tokens straddle 1,000, followed by a later one that would let it settle if the
        // planned end did not cap the bound.
        StepInfo info = TestRecords.openStep(S, 10);
        StepAggregator live = StepAggregator.forPlannedWindow(info, Slo.none(),
                ClientThresholds.defaults(), new WindowPlan(100, 1_000));
        StepAggregator kept = StepAggregator.forUnknownWindow(info, Slo.none(), ClientThresholds.defaults());
        RequestRecord straddles = tokens(1, 500, new long[] {900, 999, 1_000, 1_050}, 1_060);
        RequestRecord later = tokens(2, 700, new long[] {1_100}, 1_120);
        RequestRecord inside = tokens(3, 200, new long[] {300}, 310);
        for (RequestRecord r : List.of(inside, straddles, later)) {
            live.accept(r);
            kept.accept(r);
        }
        // only the record wholly before min(planned end, latest time seen) is settled; the other two wait
        assertThat(live.queuedFacts()[0]).isEqualTo(2);
        live.loadStopping();
        StepWindow w = new StepWindow(0, 100, 1_000, true);
        StepResult r = live.finish(w);
        assertThat(r).isEqualTo(kept.finish(w));
        // tokens at 300, 900, 999 (1 each) in [100, 1000): 3 tokens / 900 ns
        assertThat(r.rates().outputTokensPerS()).isEqualTo(3 / 900e-9);
    }

    @Test
    void aRecordEndingExactlyAtTheReadingAfterTheSignalWaitsForTheEnd() {
        // Closed loop on a coarse clock: a record ends at 2,000, is handed over, then the signal, then the end is
        // read: 2,000 too. The record's token at 2,000 is outside [W, 2000) and must not be counted.
        StepInfo info = TestRecords.closedStep(S, 2);
        StepAggregator live = StepAggregator.forPlannedWindow(info, Slo.none(),
                ClientThresholds.defaults(), WindowPlan.startingAt(0));
        live.accept(tokens(1, 10, new long[] {1_000}, 1_500));
        live.accept(tokens(2, 20, new long[] {1_900, 2_000}, 2_000));
        assertThat(live.queuedFacts()[0]).as("the first is below the latest time seen, 2,000").isEqualTo(1);
        live.loadStopping();
        StepResult r = live.finish(new StepWindow(0, 0, 2_000, true));
        assertThat(r.rates().outputTokensPerS()).isEqualTo(2 / 2_000e-9);
        assertThat(r.rates().requestsPerS()).isEqualTo(1 / 2_000e-9); // the second ends at the end: outside
    }

    @Test
    void aLongStepHoldsOnlyAFewRecordsWhileItIssuesLoad() {
        StepInfo info = TestRecords.closedStep(S, 16);
        StepAggregator live = StepAggregator.forPlannedWindow(info, Slo.none(),
                ClientThresholds.defaults(), WindowPlan.startingAt(1_000));
        StepAggregator kept = StepAggregator.forUnknownWindow(info, Slo.none(), ClientThresholds.defaults());
        SplittableRandom rnd = new SplittableRandom(3);
        long maxQueued = 0;
        long maxArrivals = 0;
        long now = 0;
        for (int i = 0; i < 50_000; i++) { // 50,000 requests, 1.6 M token events
            long d = now;
            long[] t = new long[32];
            for (int c = 0; c < t.length; c++) {
                t[c] = d + 100 + 10L * c;
            }
            now += 1 + rnd.nextInt(20);
            RequestRecord r = tokens(i, d, t, t[31] + 1);
            live.accept(r);
            kept.accept(r);
            maxQueued = Math.max(maxQueued, live.queuedFacts()[0]);
            maxArrivals = Math.max(maxArrivals, live.queuedFacts()[1]);
        }
        live.loadStopping();
        StepWindow w = new StepWindow(0, 1_000, now + 500, true); // after every time carried (dispatch + 412)
        assertThat(live.finish(w)).isEqualTo(kept.finish(w));
        // handed over in order of dispatch, each 411 ns after it: the ones not yet passed by a later time wait, 1
        assertThat(maxQueued).isEqualTo(1);
        assertThat(maxArrivals).isEqualTo(32);
        assertThat(kept.queuedFacts()[0]).isEqualTo(50_000);
    }

    @Test
    void aWindowThePlanDidNotAllowIsRefusedNotMiscounted() {
        StepAggregator live = StepAggregator.forPlannedWindow(TestRecords.closedStep(S, 1), Slo.none(),
                ClientThresholds.defaults(), WindowPlan.startingAt(100));
        live.accept(tokens(1, 150, new long[] {300}, 400));
        live.accept(tokens(2, 150, new long[] {500}, 600)); // settles the first: its times are below 600
        live.loadStopping();
        assertThatThrownBy(() -> live.finish(new StepWindow(0, 50, 1_000, true)))
                .isInstanceOf(IllegalArgumentException.class).hasMessageContaining("starting at 100");
        assertThatThrownBy(() -> live.finish(new StepWindow(0, 100, 400, true)))
                .isInstanceOf(IllegalArgumentException.class).hasMessageContaining("ending after 400");
        // an empty window (the step ended in its warm-up) reads as NaN, like the window itself
        assertThat(live.finish(new StepWindow(0, 80, 80, false)).rates().outputTokensPerS()).isNaN();
        assertThat(live.finish(new StepWindow(0, 100, 401, true)).rates().outputTokensPerS()).isEqualTo(1 / 301e-9);
        assertThatThrownBy(() -> new WindowPlan(10, 9)).hasMessageContaining("Long.MAX_VALUE for no cap");
    }

    @Test
    void theRunAggregatorCountsAPlannedStepLiveWithTheSameResult() {
        RunAggregator live = new RunAggregator(SLO);
        RunAggregator kept = new RunAggregator(SLO);
        StepInfo info = TestRecords.closedStep(S, 4);
        live.stepStarted(info, 0, WindowPlan.startingAt(50));
        kept.stepStarted(info, 0, null);
        for (int i = 0; i < 100; i++) {
            RequestRecord r = tokens(i, 10L * i, new long[] {10L * i + 5, 10L * i + 9}, 10L * i + 12);
            live.requestFinished(r);
            kept.requestFinished(r);
        }
        live.stepLoadStopping(info);
        StepWindow w = new StepWindow(0, 50, 1_000, true);
        live.stepFinished(info, w, ClientHealth.NOT_MEASURED);
        kept.stepFinished(info, w, ClientHealth.NOT_MEASURED);
        assertThat(live.results()).hasSize(1).isEqualTo(kept.results());
        assertThat(live.results().get(0).rates().outputTokensPerS()).isEqualTo(190 / 950e-9); // 2 tokens x 95 requests
    }

    /** An OK record dispatched at {@code dispatch} with one token at each of {@code t}, ending at {@code end}. */
    private static RequestRecord tokens(long id, long dispatch, long[] t, long end) {
        RequestRecord.Builder b = new RequestRecord.Builder();
        b.id = id;
        b.step = S;
        b.intendedNanos = dispatch;
        b.dispatchNanos = dispatch;
        b.firstByteNanos = t[0];
        b.firstTokenNanos = t[0];
        b.lastTokenNanos = t[t.length - 1];
        b.chunkNanos = t.clone();
        b.chunkTokens = new int[t.length];
        java.util.Arrays.fill(b.chunkTokens, 1);
        b.outputTokens = t.length;
        b.promptTokens = 10;
        b.endNanos = end;
        b.finishReason = "stop";
        b.tokenSource = TokenSource.SERVER_USAGE;
        return b.build();
    }
}
