package dev.kneepoint.load;

import static dev.kneepoint.load.FakeSender.ms;
import static org.assertj.core.api.Assertions.assertThat;

import dev.kneepoint.metrics.Outcome;
import dev.kneepoint.metrics.RequestRecord;
import dev.kneepoint.metrics.RunClock;
import dev.kneepoint.metrics.StepWindow;
import java.time.Duration;
import java.util.List;
import java.util.concurrent.atomic.AtomicBoolean;
import java.util.concurrent.atomic.AtomicReference;
import java.util.concurrent.locks.LockSupport;
import org.junit.jupiter.api.Test;

/**
 * Stopping a run: by interrupting the thread that runs it, by {@link RunHandle#close()} and
 * {@link RunHandle#stop()}. Every case must end within 1 s of the signal (the steps would run for a
 * minute and the fake server answers after 10 s), cancel what is in flight, close the step with
 * {@code completed = false} and leave no thread behind.
 */
class InterruptTest {
    private static final long ONE_SECOND = ms(1000);

    private static LoadRun run(Step step, FakeSender sender, RecordingListener listener) {
        return LoadRun.builder().sender(sender).workload(ClosedLoopTest.WORKLOAD).listener(listener)
                .clock(RunClock.system()).ladder(Ladder.of(List.of(step, step.withLabel("never")))).build();
    }

    private static OpenLoopStep longOpenStep() {
        return OpenLoopStep.builder().arrival(ArrivalPlan.constant(20)).duration(Duration.ofSeconds(60)).build();
    }

    /** No platform thread of ours survives the run (polls up to 1 s: a joined thread may still be exiting). */
    private static void assertNoKneepointThreads() throws InterruptedException {
        long deadline = System.nanoTime() + ONE_SECOND;
        List<String> left;
        do {
            left = Thread.getAllStackTraces().keySet().stream().map(Thread::getName)
                    .filter(n -> n.startsWith("kneepoint-")).toList();
            if (left.isEmpty()) {
                return;
            }
            Thread.sleep(10);
        } while (System.nanoTime() < deadline);
        assertThat(left).as("threads left behind").isEmpty();
    }

    private static void assertStoppedStep(RecordingListener listener, String label) {
        assertThat(listener.events).containsExactly("start " + label, "finish " + label + " (incomplete)");
        StepWindow window = listener.windows.get(0);
        assertThat(window.completed()).isFalse();
        assertThat(listener.violation).isNull();
    }

    @Test
    void interruptingTheCallingThreadStopsAnOpenLoopRunWithinASecond() throws Exception {
        FakeSender sender = FakeSender.fixedLatency(ms(10_000));
        RecordingListener listener = new RecordingListener();
        LoadRun load = run(longOpenStep(), sender, listener);
        AtomicReference<LoadResult> result = new AtomicReference<>();
        AtomicBoolean interruptKept = new AtomicBoolean();
        Thread caller = Thread.ofPlatform().name("test-caller").start(() -> {
            result.set(load.run());
            interruptKept.set(Thread.currentThread().isInterrupted());
        });

        Thread.sleep(500);
        long t0 = System.nanoTime();
        caller.interrupt();
        caller.join(2000);
        long took = System.nanoTime() - t0;

        assertThat(caller.isAlive()).isFalse();
        assertThat(took).isLessThan(ONE_SECOND);
        assertThat(result.get().ending()).isEqualTo(LoadResult.Ending.INTERRUPTED);
        assertThat(result.get().steps()).hasSize(1);
        assertThat(interruptKept).isTrue();
        assertStoppedStep(listener, "rate=20");
        List<RequestRecord> rs = listener.of("rate=20");
        // 500 ms at 20 rps: ~10 fired (11 planned up to 500 ms inclusive); all still waiting on the
        // 10 s server, so all CANCELLED. The one planned at the very instant of the interrupt may be
        // due but not yet fired: it is recorded CANCELLED without a dispatch.
        assertThat(rs.size()).isBetween(8, 12);
        assertThat(rs).allMatch(r -> r.outcome().equals(Outcome.CANCELLED));
        assertThat(rs.stream().filter(r -> !r.dispatched()).count()).isLessThanOrEqualTo(1);
        assertThat(sender.inFlight.get()).isZero();
        assertThat(sender.allThreadsEnded(1000)).isTrue();
        assertNoKneepointThreads();
    }

    @Test
    void closingTheHandleStopsAClosedLoopRunWithinASecond() throws Exception {
        FakeSender sender = FakeSender.fixedLatency(ms(10_000));
        RecordingListener listener = new RecordingListener();
        ClosedLoopStep step = ClosedLoopStep.builder().concurrency(4).duration(Duration.ofSeconds(60)).build();
        RunHandle handle = run(step, sender, listener).start();

        Thread.sleep(300);
        assertThat(handle.isDone()).isFalse();
        long t0 = System.nanoTime();
        handle.close();
        long took = System.nanoTime() - t0;

        assertThat(took).isLessThan(ONE_SECOND);
        assertThat(handle.isDone()).isTrue();
        LoadResult result = handle.await();
        assertThat(result.ending()).isEqualTo(LoadResult.Ending.STOPPED);
        assertThat(result.reason()).contains("stopped by RunHandle");
        assertStoppedStep(listener, "c=4");
        assertThat(listener.of("c=4")).hasSize(4).allMatch(r -> r.outcome().equals(Outcome.CANCELLED));
        assertThat(sender.allThreadsEnded(1000)).isTrue();
        assertNoKneepointThreads();
    }

    @Test
    void queuedRequestsEndCancelledWithoutDispatchWhenStopped() throws Exception {
        FakeSender sender = FakeSender.fixedLatency(ms(10_000));
        RecordingListener listener = new RecordingListener();
        OpenLoopStep step = OpenLoopStep.builder().arrival(ArrivalPlan.constant(20)).duration(Duration.ofSeconds(60))
                .maxInFlight(1, CapPolicy.QUEUE).build();
        RunHandle handle = run(step, sender, listener).start();

        Thread.sleep(300);
        handle.stop();
        assertThat(handle.await(Duration.ofSeconds(1))).isPresent();

        List<RequestRecord> rs = listener.of("rate=20");
        // ~6 planned by 300 ms: one holds the single slot (dispatched, then cancelled), the rest queued.
        assertThat(rs.size()).isBetween(4, 8);
        assertThat(rs).allMatch(r -> r.outcome().equals(Outcome.CANCELLED));
        assertThat(rs.stream().filter(RequestRecord::dispatched).count()).isEqualTo(1);
        assertStoppedStep(listener, "rate=20");
        assertNoKneepointThreads();
    }

    @Test
    void plannedRequestsTheSchedulerHadNotFiredYetEndCancelledLaterOnesAreNotRecorded() throws Exception {
        FakeSender sender = FakeSender.fixedLatency(ms(10_000));
        // A listener that holds the scheduler thread for 300 ms when it reports a dropped request, so
        // the scheduler falls behind its plan (it ignores interrupts while doing so).
        RecordingListener listener = new RecordingListener() {
            @Override public void requestFinished(RequestRecord record) {
                super.requestFinished(record);
                if (record.outcome().equals(Outcome.DROPPED)) {
                    long until = System.nanoTime() + ms(300);
                    while (System.nanoTime() < until) {
                        LockSupport.parkNanos(until - System.nanoTime());
                    }
                }
            }
        };
        OpenLoopStep step = OpenLoopStep.builder().arrival(ArrivalPlan.constant(100)).duration(Duration.ofSeconds(60))
                .maxInFlight(1, CapPolicy.DROP).build();
        RunHandle handle = run(step, sender, listener).start();

        Thread.sleep(150);
        handle.stop();
        assertThat(handle.await(Duration.ofSeconds(1))).isPresent();

        List<RequestRecord> rs = OpenLoopTest.byId(listener.of("rate=100"));
        long stepStart = listener.stepStarts.get(0);
        StepWindow window = listener.windows.get(0);
        // Request 0 was sent (and cancelled), request 1 dropped (holding the scheduler until ~310 ms);
        // the ~29 planned at 20..310 ms were overdue when the scheduler saw the stop: CANCELLED, never sent.
        assertThat(rs.get(0).outcome()).isEqualTo(Outcome.CANCELLED);
        assertThat(rs.get(0).dispatched()).isTrue();
        assertThat(rs.get(1).outcome()).isEqualTo(Outcome.DROPPED);
        List<RequestRecord> unfired = rs.subList(2, rs.size());
        assertThat(unfired.size()).isBetween(25, 40);
        assertThat(unfired).allMatch(r -> r.outcome().equals(Outcome.CANCELLED) && !r.dispatched());
        // Exactly the plan's prefix, each planned request once, none planned after the stop.
        for (int i = 0; i < rs.size(); i++) {
            assertThat(rs.get(i).intendedNanos()).isEqualTo(stepStart + i * ms(10));
        }
        assertThat(rs.get(rs.size() - 1).intendedNanos()).isLessThanOrEqualTo(window.endNanos());
        assertStoppedStep(listener, "rate=100");
        assertNoKneepointThreads();
    }
}
