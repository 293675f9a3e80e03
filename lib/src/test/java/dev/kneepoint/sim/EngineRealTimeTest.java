package dev.kneepoint.sim;

import static org.assertj.core.api.Assertions.assertThat;

import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.Test;

/** The real-time engine: absolute deadlines (no drift) and the per-sequence emission spread. */
class EngineRealTimeTest {

    /** Records scheduled times; counts down when finished. */
    static final class Recorder implements TokenSink {
        final List<Long> scheduled = new ArrayList<>();
        final List<Long> calledAt = new ArrayList<>();
        final CountDownLatch done = new CountDownLatch(1);

        synchronized int count() {
            return calledAt.size();
        }

        synchronized long lastCalledAt() {
            return calledAt.get(calledAt.size() - 1);
        }

        @Override
        public synchronized void onTokens(int tokens, int generated, boolean finished, long scheduledNanos) {
            calledAt.add(System.nanoTime());
            scheduled.add(scheduledNanos);
            if (finished) {
                done.countDown();
            }
        }
    }

    @Test
    void scheduledTimesAreExactSumsOfModelledStepDurations() throws Exception {
        SimConfig c = SimConfig.preset("fast");
        StepCost cost = StepCost.of(c);
        try (Engine engine = new Engine(c, new SimMetrics("m"), System.nanoTime())) {
            Recorder r = new Recorder();
            engine.submit(EngineModelTest.seq(1, 100, 20, 16, r));
            assertThat(r.done.await(5, TimeUnit.SECONDS)).isTrue();
            // whatever the real wake-up delays were, each gap is exactly the modelled decode step
            for (int i = 1; i < 20; i++) {
                assertThat(r.scheduled.get(i) - r.scheduled.get(i - 1)).isEqualTo(cost.loneDecodeNanos(100 + i));
            }
        }
    }

    @Test
    void emissionSpreadSchedulesTheKthSequenceKTimesLater() throws Exception {
        SimConfig c = SimConfig.presetBuilder("fast").stepOverheadNanos(30_000_000).emitNanosPerSeq(300_000).build();
        try (Engine engine = new Engine(c, new SimMetrics("m"), System.nanoTime())) {
            // a running request keeps the engine in 30 ms steps; the three below, submitted within microseconds
            // in the middle of a step, are admitted together at the next step start
            Recorder blocker = new Recorder();
            engine.submit(EngineModelTest.seq(9, 10, 50, 16, blocker));
            long end = System.nanoTime() + 5_000_000_000L;
            while (engine.gauges().running() != 1 && System.nanoTime() < end) {
                Thread.sleep(1);
            }
            // "In the middle": right after one of the blocker's tokens (a step boundary) plus half a step. Submitted at
            // whatever point of the step the wait above ended, the three straddled a boundary (and were admitted a
            // step apart) whenever one fell inside the microseconds of the loop below: ~0.1-0.3 % of runs.
            int tokensSeen = blocker.count();
            while (blocker.count() == tokensSeen && System.nanoTime() < end) {
                Thread.sleep(1);
            }
            long midStep = blocker.lastCalledAt() + 15_000_000L;
            while (System.nanoTime() < midStep) {
                Thread.sleep(1);
            }
            List<Recorder> rs = new ArrayList<>();
            for (int i = 0; i < 3; i++) {
                Recorder r = new Recorder();
                rs.add(r);
                engine.submit(EngineModelTest.seq(i, 10, 3, 16, r));
            }
            for (Recorder r : rs) {
                assertThat(r.done.await(5, TimeUnit.SECONDS)).isTrue();
            }
            // streaming sinks write inside onTokens: no output may be handed out before its due time
            for (Recorder r : rs) {
                for (int i = 0; i < r.scheduled.size(); i++) {
                    assertThat(r.calledAt.get(i)).isGreaterThanOrEqualTo(r.scheduled.get(i));
                }
            }
            List<Long> firsts = rs.stream().map(r -> r.scheduled.get(0)).sorted().toList();
            assertThat(firsts.get(1) - firsts.get(0)).isEqualTo(300_000);
            assertThat(firsts.get(2) - firsts.get(1)).isEqualTo(300_000);
        }
    }

    @Test
    void workArrivingAfterAnIdleBoundaryStartsItsStepOnArrivalEvenWhenTheEngineThreadRanLate() throws Exception {
        SimConfig c = SimConfig.preset("fast");
        StepCost cost = StepCost.of(c);
        try (Engine engine = new Engine(c, new SimMetrics("m"), System.nanoTime())) {
            Recorder second = new Recorder();
            long[] submittedAt = new long[1];
            // The first sequence's last token is handed out on the engine thread; its sink makes that thread
            // 20 ms late (as a preempted engine thread would be) and submits the next request meanwhile, after
            // the last step's deadline. The engine was left with no work at that deadline, so the next step
            // must start on arrival: chaining on the stale deadline emitted the first token up to 20 ms early.
            TokenSink first = (tokens, generated, finished, scheduledNanos) -> {
                if (finished) {
                    java.util.concurrent.locks.LockSupport.parkNanos(20_000_000L);
                    submittedAt[0] = System.nanoTime();
                    engine.submit(EngineModelTest.seq(2, 100, 2, 16, second));
                }
            };
            engine.submit(EngineModelTest.seq(1, 10, 2, 16, first));
            assertThat(second.done.await(5, TimeUnit.SECONDS)).isTrue();
            // the engine never emits early: the first token is due a lone prefill step after the arrival at least
            assertThat(second.scheduled.get(0) - submittedAt[0]).isGreaterThanOrEqualTo(cost.lonePrefillNanos(100));
        }
    }
}
