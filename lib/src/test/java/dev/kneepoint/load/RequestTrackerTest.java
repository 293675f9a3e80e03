package dev.kneepoint.load;

import static org.assertj.core.api.Assertions.assertThat;

import dev.kneepoint.metrics.Outcome;
import dev.kneepoint.metrics.RequestRecord;
import dev.kneepoint.metrics.RunClock;
import dev.kneepoint.request.RequestContext;
import dev.kneepoint.request.RequestSpec;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.concurrent.atomic.AtomicLong;
import java.util.concurrent.locks.LockSupport;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;

/** The exactly-once guard of {@link RequestTracker}: a worker's record and the stop's CANCELLED record race. */
class RequestTrackerTest {
    private static final RequestSpec SPEC = RequestSpec.of("p", 4);

    /** Counts deliveries per id and those arriving after {@code closed} was set (after close() returned). */
    private static final class Counting implements dev.kneepoint.metrics.RunListener {
        final ConcurrentHashMap<Long, AtomicInteger> perId = new ConcurrentHashMap<>();
        final AtomicLong cancelled = new AtomicLong();
        final AtomicLong late = new AtomicLong();
        final java.util.Queue<RequestRecord> all = new java.util.concurrent.ConcurrentLinkedQueue<>();
        volatile boolean closed;

        @Override
        public void requestFinished(RequestRecord r) {
            if (r.isOk()) {
                LockSupport.parkNanos(20_000); // a worker's delivery takes a while: close() must wait for it
            }
            if (closed) {
                late.incrementAndGet();
            }
            all.add(r);
            perId.computeIfAbsent(r.id(), k -> new AtomicInteger()).incrementAndGet();
            if (r.outcome().equals(Outcome.CANCELLED)) {
                cancelled.incrementAndGet();
            }
        }
    }

    @Test
    @Timeout(60)
    void everyRegisteredRequestIsDeliveredExactlyOnceWhileWorkersRaceTheClose() throws Exception {
        RunClock clock = RunClock.system();
        int n = 2000;
        long racedByStop = 0;
        long workersWon = 0;
        for (int round = 0; round < 10; round++) {
            Counting listener = new Counting();
            RunContext run = new RunContext((s, c, x) -> null, i -> SPEC, listener, clock);
            RequestTracker tracker = new RequestTracker(run, null);
            List<RequestTracker.Flight> flights = new ArrayList<>();
            for (int i = 0; i < n; i++) {
                flights.add(tracker.register(new RequestContext(round * (long) n + i, "s", false, clock.now(), clock)));
            }
            CountDownLatch go = new CountDownLatch(1);
            // Every third worker completes only after close() returned, so the stop wins some races on any
            // machine (on 2 busy cores the closing thread was once not scheduled before all 2,000 had completed).
            CountDownLatch closed = new CountDownLatch(1);
            AtomicInteger done = new AtomicInteger();
            List<Thread> threads = new ArrayList<>();
            for (RequestTracker.Flight f : flights) {
                // Spread the workers' completions over the close: some before, some during, some after.
                long spin = (f.id() * 7919) % 2_000_000; // 0-2 ms
                threads.add(Thread.ofVirtual().start(() -> {
                    try {
                        go.await();
                    } catch (InterruptedException e) {
                        return;
                    }
                    if (f.id() % 3 == 2) {
                        try {
                            closed.await();
                        } catch (InterruptedException e) {
                            return;
                        }
                    }
                    LockSupport.parkNanos(spin);
                    RequestRecord.Builder b = f.context.recordBuilder(SPEC);
                    b.dispatchNanos = clock.now();
                    b.endNanos = clock.now();
                    tracker.complete(f, b.build());
                    done.incrementAndGet();
                }));
            }
            go.countDown();
            while (done.get() < n / 3) { // close while half of the unheld workers are still completing (a state, not a time)
                Thread.onSpinWait();
            }
            tracker.close();
            listener.closed = true;
            closed.countDown();
            for (Thread t : threads) {
                t.join();
            }
            assertThat(listener.perId).hasSize(n);
            assertThat(listener.perId.values()).allMatch(c -> c.get() == 1);
            assertThat(listener.late.get()).as("records delivered after close() returned").isZero();
            assertThat(tracker.openFlights()).isZero();
            // Nothing registers after the close.
            assertThat(tracker.register(new RequestContext(-1, "s", false, 0, clock))).isNull();
            racedByStop += listener.cancelled.get();
            workersWon += n - listener.cancelled.get();
        }
        // Both sides won some races, or the test did not test the race (the close comes once a third of the
        // workers completed; a third is held until it returned; the others race it).
        assertThat(racedByStop).isPositive();
        assertThat(workersWon).isPositive();
    }

    @Test
    void aFlightIsDeliveredOnceHoweverOftenItIsCompleted() {
        RunClock clock = RunClock.system();
        Counting listener = new Counting();
        RequestTracker tracker = new RequestTracker(new RunContext((s, c, x) -> null, i -> SPEC, listener, clock), null);
        RequestTracker.Flight f = tracker.register(new RequestContext(3, "s", false, clock.now(), clock));
        RequestRecord.Builder b = f.context.recordBuilder(SPEC);
        b.dispatchNanos = clock.now();
        b.endNanos = clock.now();

        assertThat(tracker.complete(f, b.build())).isTrue();
        assertThat(tracker.complete(f, b.build())).as("the claim is taken").isFalse();
        tracker.close(); // nothing left open: the stop writes nothing for it

        assertThat(listener.perId.get(3L).get()).isEqualTo(1);
        assertThat(listener.cancelled.get()).isZero();
    }

    @Test
    void aRequestRecordedByTheStopIsNeitherSentNorPreparedLater() {
        RunClock clock = RunClock.system();
        Counting listener = new Counting();
        AtomicInteger sent = new AtomicInteger();
        RunContext run = new RunContext((s, c, x) -> {
            sent.incrementAndGet();
            return null;
        }, i -> SPEC, listener, clock);
        RequestTracker tracker = new RequestTracker(run, "bg");
        RequestTracker.Flight f = tracker.register(new RequestContext(7, "bg", false, clock.now(), clock));
        tracker.close();

        assertThat(tracker.open(f)).isFalse();
        RequestRecord late = tracker.send(f, SPEC);
        assertThat(late.outcome()).isEqualTo(Outcome.CANCELLED);
        assertThat(sent.get()).isZero();
        assertThat(tracker.complete(f, late)).isFalse();
        // Recorded once, by the stop, never dispatched, with the tracker's tag (the spec was not known yet).
        assertThat(listener.perId.get(7L).get()).isEqualTo(1);
        assertThat(listener.cancelled.get()).isEqualTo(1);
        RequestRecord r = listener.all.peek();
        assertThat(r.dispatched()).isFalse();
        assertThat(r.tag()).isEqualTo("bg");
        assertThat(r.step()).isEqualTo("bg");
    }
}
