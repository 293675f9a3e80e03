package dev.kneepoint.metrics;

import static org.assertj.core.api.Assertions.assertThat;

import java.lang.ref.WeakReference;
import java.time.Instant;
import java.util.ArrayList;
import java.util.List;
import java.util.PriorityQueue;
import java.util.SplittableRandom;
import org.junit.jupiter.api.Test;

/**
 * A long run's background traffic is not kept: 200,000 background records (32 token events each) under a ladder of
 * 20 open-loop steps, handed over as they end. While a step issues load the aggregation holds only the record at
 * the frontier of time; in a drain and the pause after it, the records of those 2 s; and once a record can no longer
 * touch a step to come, nothing refers to it (weak references to every 100th record are cleared by a full GC).
 */
class BackgroundMemoryTest {
    private static final long MS = 1_000_000L;
    private static final int STEPS = 20;
    private static final int RECORDS = 200_000;
    /** One background request every 1.1 ms: 20 steps of 11 s hold 200,000. */
    private static final long GAP = 1_100_000L;

    private record Signal(long at, int kind, StepInfo info, long stepStart, WindowPlan plan, StepWindow window) {}

    @Test
    void recordsAreNotKeptAsTheRunGoesOn() throws InterruptedException {
        List<Signal> signals = new ArrayList<>();
        long t = 50 * MS; // the stream starts 50 ms before the first step
        for (int k = 0; k < STEPS; k++) {
            StepInfo info = new StepInfo(k, "s" + k, StepInfo.OPEN, -1, 100, "poisson", -1, "", 0, -1, -1);
            long stepStart = t + 5 * MS;
            long warmupEnd = stepStart + 1_000 * MS;
            long plannedEnd = warmupEnd + 8_000 * MS;
            StepWindow window = new StepWindow(stepStart, warmupEnd, plannedEnd, true);
            signals.add(new Signal(t, 0, info, stepStart, new WindowPlan(warmupEnd, plannedEnd), window));
            signals.add(new Signal(plannedEnd + MS, 1, info, 0, null, null)); // the scheduler's last firing
            long finish = plannedEnd + 1_500 * MS; // the drain
            signals.add(new Signal(finish, 2, info, 0, null, window));
            t = finish + 500 * MS; // the pause
        }
        long baseline = dev.kneepoint.Heap.usedAfterGc();
        RunAggregator agg = new RunAggregator(Slo.none()).trackBackground("bg", 900, "poisson");
        BackgroundAggregator bg = BackgroundStreamingTest.background(agg);
        PriorityQueue<RequestRecord> inFlight = new PriorityQueue<>(
                (a, b) -> Long.compare(a.timing().endNanos(), b.timing().endNanos()));
        List<WeakReference<RequestRecord>> watched = new ArrayList<>();
        SplittableRandom rnd = new SplittableRandom(7);
        int next = 0;
        int maxHeldLoading = 0;
        int maxHeld = 0;
        long maxQueued = 0;
        boolean loading = false;
        long lastStepCalled = signals.get(signals.size() - 3).at;
        int handed = 0;
        while (next < signals.size() || handed < RECORDS) {
            long arrival = handed + inFlight.size() < RECORDS ? (long) (handed + inFlight.size()) * GAP : Long.MAX_VALUE;
            long end = inFlight.isEmpty() ? Long.MAX_VALUE : inFlight.peek().timing().endNanos();
            long signal = next < signals.size() ? signals.get(next).at : Long.MAX_VALUE;
            if (arrival <= end && arrival <= signal) {
                RequestRecord r = record(rnd, handed + inFlight.size(), arrival);
                if (r.id() % 100 == 0 && arrival < lastStepCalled - 3_000 * MS) {
                    watched.add(new WeakReference<>(r)); // ends long before the last step starts
                }
                inFlight.add(r);
            } else if (end <= signal) {
                agg.requestFinished(inFlight.poll());
                handed++;
                if (handed % 50 == 0) {
                    int held = bg.heldRecords();
                    maxHeld = Math.max(maxHeld, held);
                    maxHeldLoading = loading ? Math.max(maxHeldLoading, held) : maxHeldLoading;
                    maxQueued = Math.max(maxQueued, bg.queuedFacts());
                }
            } else {
                Signal s = signals.get(next++);
                switch (s.kind) {
                    case 0 -> agg.stepStarted(s.info, s.stepStart, s.plan);
                    case 1 -> agg.stepLoadStopping(s.info);
                    default -> agg.stepFinished(s.info, s.window, ClientHealth.NOT_MEASURED);
                }
                loading = s.kind == 0;
            }
        }
        long retained = dev.kneepoint.Heap.usedAfterGc() - baseline;
        BackgroundResult result = agg.result("r", true, Instant.EPOCH, "t").background().orElseThrow();
        assertThat(result.requests()).isEqualTo(RECORDS);
        assertThat(result.steps()).hasSize(STEPS);
        // each step's window (8 s of 11.5 s between starts) holds ~7,270 of the records intended in it
        assertThat(result.steps().get(5).counts().requestsOk()).isBetween(7_200L, 7_300L);

        // While a step issues load: the record at the frontier (records end in order of their end), no other.
        assertThat(maxHeldLoading).isLessThanOrEqualTo(2);
        // At worst: the records of a drain and the pause after it (2 s at ~900/s: 1,820), held whole because a
        // step to come may still start inside them, plus those of the drain waiting for the window's end; they
        // are let go when the next step starts. The bound does not grow with the run: 200,000 records.
        assertThat(maxHeld).isLessThan(4_000);
        // The windowed facts waiting in the step aggregators and the total: the drained records of one step.
        assertThat(maxQueued).isLessThan(4_000);
        System.gc();
        for (int i = 0; i < 20 && watched.stream().anyMatch(w -> w.get() != null); i++) {
            System.gc();
            Thread.sleep(10);
        }
        assertThat(watched).hasSizeGreaterThan(1_500);
        assertThat(watched.stream().filter(w -> w.get() != null).count()).as("records still referenced").isZero();
        assertThat(bg).isNotNull(); // the aggregator stayed reachable throughout
        // Heap after a full GC once every step ended, above the one before the run: the aggregators of the last two
        // steps and the total as they are (up to ~1.4 MB each), 18 compacted ones (~25 kB each), the records of the
        // last drain (~1,400 of ~1 kB). The 200,000 records, kept whole, would be ~250 MB.
        assertThat(bg.compactedSteps()).isEqualTo(STEPS - 2);
        assertThat(retained).as("bytes retained").isLessThan(24_000_000L);
    }

    /** A request intended at {@code intended}: 32 token events 40 ms apart (plus jitter), about 1.3 s in flight. */
    private static RequestRecord record(SplittableRandom rnd, long id, long intended) {
        RequestRecord.Builder b = new RequestRecord.Builder();
        b.id = id;
        b.step = "bg";
        b.tag = "bg";
        b.intendedNanos = intended;
        b.dispatchNanos = intended + 50_000;
        b.firstByteNanos = b.dispatchNanos + 20 * MS;
        long[] t = new long[32];
        int[] k = new int[32];
        long at = b.firstByteNanos;
        for (int i = 0; i < t.length; i++) {
            at += 40 * MS + rnd.nextLong(0, 2 * MS);
            t[i] = at;
            k[i] = 4;
        }
        b.chunkNanos = t;
        b.chunkTokens = k;
        b.firstTokenNanos = t[0];
        b.lastTokenNanos = t[31];
        b.endNanos = t[31] + MS;
        b.outputTokens = 128;
        b.promptTokens = 200;
        b.tokenSource = TokenSource.SERVER_USAGE;
        b.finishReason = "stop";
        return b.build();
    }
}
