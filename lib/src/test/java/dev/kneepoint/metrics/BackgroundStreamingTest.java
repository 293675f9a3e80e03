package dev.kneepoint.metrics;

import static org.assertj.core.api.Assertions.assertThat;

import java.time.Instant;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.List;
import java.util.SplittableRandom;
import org.junit.jupiter.api.Test;

/**
 * Background records aggregated as they stream in ({@link BackgroundAggregator}, through {@link RunAggregator}) give
 * the same {@link BackgroundResult}, every double bit for bit (record equality compares doubles with
 * {@link Double#compare}), as measuring all of them at once over the finished steps' windows
 * ({@link BackgroundResult#measure}, the whole-records path, kept for runs read back and as the oracle here).
 *
 * <p>Runs are simulated on a virtual clock (1 unit = 1 ns): a ladder of steps of every kind the load layer runs
 * (closed loop, open loop held to a planned end, interrupted, ended in warm-up, and a step without a plan), with
 * pauses between them; a background stream over the whole run, before the first step and after the last, whose
 * records straddle windows (token arrivals spread over up to 5,000 ns against windows of 0 to 3,500), fail, are
 * dropped or cancelled, and are handed over when they end plus a delay, some long after their step ended.
 */
class BackgroundStreamingTest {
    private static final String BG = "bg";
    private static final Slo SLO = Slo.builder().ttftMs(0.0004).build(); // 400 ns: about half the records are good

    enum Kind { CLOSED, OPEN_PLANNED_END, INTERRUPTED, ENDED_IN_WARMUP, NO_PLAN }

    /** A planned foreground step: when the load layer signals, and the window it reports. */
    record Step(StepInfo info, Kind kind, long calledAt, long stepStart, WindowPlan plan, long stopAt,
                        long finishAt, StepWindow window) {}

    /** Something the run hands to the listener at {@code at}; ties in random order ({@code tie}). */
    private record Event(long at, long tie, Step step, int signal, RequestRecord record) {}

    private static final int STARTED = 0;
    private static final int STOPPING = 1;
    private static final int FINISHED = 2;
    private static final int RESULT = 3;

    @Test
    void streamedAndWholeRecordBackgroundAgreeBitForBitOnRandomRuns() {
        SplittableRandom rnd = new SplittableRandom(20261129);
        long late = 0;
        long straddling = 0;
        long midRunChecks = 0;
        long compactions = 0;
        for (int run = 0; run < 150; run++) {
            List<Step> steps = ladder(rnd);
            long runEnd = steps.getLast().finishAt + 300;
            List<Event> events = new ArrayList<>();
            for (Step s : steps) {
                // a step's signals in order when they fall on the same time; records anywhere among them
                events.add(new Event(s.calledAt, rnd.nextLong(Long.MIN_VALUE / 2, 0), s, STARTED, null));
                events.add(new Event(s.stopAt, rnd.nextLong(0, Long.MAX_VALUE / 2), s, STOPPING, null));
                events.add(new Event(s.finishAt, Long.MAX_VALUE, s, FINISHED, null));
            }
            for (int i = 0; i < 4; i++) {
                events.add(new Event(rnd.nextLong(0, runEnd), rnd.nextLong(), null, RESULT, null));
            }
            int n = rnd.nextInt(200, 1200);
            for (int i = 0; i < n; i++) {
                RequestRecord r = record(rnd, i, runEnd);
                long at = read(r) + (rnd.nextInt(10) == 0 ? rnd.nextLong(0, 3_000) : rnd.nextLong(0, 40));
                events.add(new Event(at, rnd.nextLong(), null, -1, r));
                for (Step s : steps) {
                    StepWindow w = s.window;
                    late += w.contains(r.timing().intendedNanos()) && at > s.finishAt ? 1 : 0;
                    straddling += touchesBothSides(r, w.startNanos()) || touchesBothSides(r, w.endNanos()) ? 1 : 0;
                }
            }
            events.sort(Comparator.comparingLong(Event::at).thenComparingLong(Event::tie));

            List<Double> rates = switch (run % 3) {
                case 0 -> List.of();
                case 1 -> steps.stream().map(s -> (double) s.info.index()).toList();
                default -> List.of(1.5); // shorter than the ladder: NaN for the other steps
            };
            RunAggregator agg = new RunAggregator(SLO).trackBackground(BG, run % 3 == 0 ? 10 : Double.NaN, "poisson",
                    rates);
            background(agg).keepHot(run % 4); // 0: every finished step compacted at once, late records expand it
            List<RequestRecord> handed = new ArrayList<>();
            long firstStart = -1; // the run's start as the aggregator knows it: none before the first step
            for (Event e : events) {
                if (e.record != null) {
                    agg.requestFinished(e.record);
                    handed.add(e.record);
                } else if (e.signal == STARTED) {
                    firstStart = firstStart < 0 ? e.step.stepStart : firstStart;
                    if (e.step.plan == null) {
                        agg.stepStarted(e.step.info, e.step.stepStart, null);
                    } else {
                        agg.stepStarted(e.step.info, e.step.stepStart, e.step.plan);
                    }
                } else if (e.signal == STOPPING) {
                    agg.stepLoadStopping(e.step.info);
                } else if (e.signal == FINISHED) {
                    agg.stepFinished(e.step.info, e.step.window, ClientHealth.NOT_MEASURED);
                    // every finished step but the last (run % 4) started is compacted; late records expand it again
                    assertThat(background(agg).compactedSteps()).as("compacted, run %d", run)
                            .isEqualTo(Math.max(0, e.step.info.index() + 1 - run % 4));
                    compactions += Math.max(0, e.step.info.index() + 1 - run % 4);
                } else { // the run's result asked for while it runs: the finished steps so far
                    RunResult mid = agg.result("r", false, Instant.EPOCH, "t");
                    assertThat(mid.background().orElseThrow()).as("mid-run, run %d", run)
                            .isEqualTo(oracle(rates, run, handed, mid.steps(), firstStart, false));
                    midRunChecks++;
                }
            }
            RunResult result = agg.result("r", true, Instant.EPOCH, "t");
            BackgroundResult expected = oracle(rates, run, handed, result.steps(), steps.getFirst().stepStart, true);
            assertThat(result.background().orElseThrow()).as("run %d", run).isEqualTo(expected);

            assertThat(expected.requests()).isEqualTo(n);
        }
        // the hard cases happened: records handed over after the step they belong to ended, token arrivals on
        // both sides of a window's edge, results read while the run goes on
        assertThat(late).isGreaterThan(1_000);
        assertThat(straddling).isGreaterThan(5_000);
        assertThat(midRunChecks).isEqualTo(600);
        assertThat(compactions).isGreaterThan(200);
    }

    private static BackgroundResult oracle(List<Double> rates, int run, List<RequestRecord> records,
                                           List<StepResult> fg, long runStart, boolean complete) {
        return BackgroundResult.measure(BG, run % 3 == 0 ? 10 : Double.NaN, "poisson", rates, SLO, records, fg,
                runStart, complete);
    }

    static BackgroundAggregator background(RunAggregator agg) {
        try {
            var f = RunAggregator.class.getDeclaredField("background");
            f.setAccessible(true);
            return (BackgroundAggregator) f.get(agg);
        } catch (ReflectiveOperationException e) {
            throw new AssertionError(e);
        }
    }

    /** 1 to 6 steps, one after another with pauses, the first starting after the stream. */
    static List<Step> ladder(SplittableRandom rnd) {
        List<Step> steps = new ArrayList<>();
        long prev = rnd.nextLong(0, 400);
        int count = rnd.nextInt(1, 7);
        for (int k = 0; k < count; k++) {
            Kind kind = Kind.values()[rnd.nextInt(Kind.values().length)];
            long calledAt = prev + rnd.nextLong(1, 300);
            long stepStart = calledAt + (rnd.nextBoolean() ? 0 : rnd.nextLong(0, 6)); // the 5 ms lead, or none
            long warmupEnd = stepStart + (rnd.nextInt(4) == 0 ? 0 : rnd.nextLong(0, 500));
            long stop = kind == Kind.ENDED_IN_WARMUP ? stepStart + rnd.nextLong(0, warmupEnd - stepStart + 1)
                    : warmupEnd + rnd.nextLong(0, 3_000);
            long later = stop + (rnd.nextBoolean() ? 0 : rnd.nextLong(0, 50)); // the clock read after the signal
            long plannedEnd = Long.MAX_VALUE;
            long end;
            if (kind == Kind.OPEN_PLANNED_END) { // planned end before the signal (late scheduler) or after it
                plannedEnd = warmupEnd + Math.max(0, stop - warmupEnd + rnd.nextLong(-300, 300));
                end = Math.max(Math.min(plannedEnd, later + rnd.nextLong(0, 400)), stepStart);
            } else {
                end = Math.max(later, stepStart);
            }
            StepWindow window = new StepWindow(stepStart, Math.min(warmupEnd, end), end, kind != Kind.INTERRUPTED);
            long finishAt = Math.max(later, end) + rnd.nextLong(0, 400); // the drain
            StepInfo info = new StepInfo(k, "s" + k, k % 2 == 0 ? StepInfo.OPEN : StepInfo.CLOSED, 4, 10, "poisson",
                    -1, "", 0, -1, -1);
            WindowPlan plan = kind == Kind.NO_PLAN ? null : new WindowPlan(warmupEnd, plannedEnd);
            steps.add(new Step(info, kind, calledAt, stepStart, plan, stop, finishAt, window));
            prev = finishAt;
        }
        return steps;
    }

    /** A background record intended anywhere in the run, every outcome, tokens spread over up to 5,000 ns. */
    static RequestRecord record(SplittableRandom rnd, int id, long runEnd) {
        RequestRecord.Builder b = new RequestRecord.Builder();
        b.id = id;
        b.step = BG;
        b.tag = BG;
        b.intendedNanos = rnd.nextInt(200) == 0 ? RequestRecord.ABSENT : rnd.nextLong(0, runEnd);
        long dispatch = Math.max(0, b.intendedNanos) + (rnd.nextInt(50) == 0 ? -rnd.nextLong(0, 5) : rnd.nextLong(0, 5));
        dispatch = Math.max(0, dispatch);
        b.warmup = rnd.nextInt(10) == 0; // ignored: background membership is the window's
        b.promptTokens = rnd.nextInt(10) == 0 ? -1 : rnd.nextInt(0, 300);
        return RandomRecords.finish(rnd, b, dispatch, 9, 600);
    }

    /** The latest clock reading a record carries (when it can be handed over at the earliest). */
    static long read(RequestRecord r) {
        return RandomRecords.latest(r);
    }

    private static boolean touchesBothSides(RequestRecord r, long edge) {
        boolean before = false;
        boolean after = false;
        for (long t : r.timing().chunkNanos()) {
            before |= t < edge;
            after |= t >= edge;
        }
        return before && after;
    }
}
