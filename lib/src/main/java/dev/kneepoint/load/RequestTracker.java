package dev.kneepoint.load;

import dev.kneepoint.metrics.Outcome;
import dev.kneepoint.metrics.RequestRecord;
import dev.kneepoint.request.Cancellation;
import dev.kneepoint.request.RequestContext;
import dev.kneepoint.request.RequestSender;
import dev.kneepoint.request.RequestSpec;
import java.util.Map;
import java.util.Set;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.concurrent.locks.Condition;
import java.util.concurrent.locks.ReentrantLock;

/**
 * The threads and in-flight requests of one step (or of a background stream) and the one place their records
 * pass through: starts virtual worker threads, knows every live one (to wait for them and, as a last resort,
 * interrupt them), cancels every request in flight, and guarantees that every request registered here is
 * handed to the listener exactly once, before {@link #close()} (or {@link #cancelAndAwait}) returns.
 *
 * <p>How (docs/RELIABILITY.md "Every dispatched request has exactly one record"):
 * <ul>
 *   <li>A request is registered as a {@link Flight} ({@link #register}) before it can be sent; registration is
 *       refused once the tracker is cancelled, so nothing is sent after a stop.</li>
 *   <li>A flight's record is claimed by removing the flight from the map ({@link ConcurrentHashMap#remove}):
 *       whoever removes it (the worker when its request ends, {@link #complete}; or the driving thread when it
 *       gives up waiting, {@link #close}) writes the record; the other writes nothing.</li>
 *   <li>Every delivery runs inside a gate counted by {@code delivering}. {@link #close} first claims every flight
 *       still open and records it {@code CANCELLED} itself (keeping what the sender published through
 *       {@link Cancellation#onProgress}), then shuts the gate and waits for the deliveries in
 *       progress. A worker enters the gate before it claims, so it either finishes its delivery before
 *       {@code close} returns or finds the gate shut and writes nothing: no record reaches the listener after
 *       the step (or the run) has ended.</li>
 * </ul>
 */
final class RequestTracker {
    /** The longest {@link #close()} waits for deliveries already in progress (listener calls take microseconds). */
    static final long DELIVERY_WAIT_NANOS = TimeUnit.SECONDS.toNanos(5);

    private final RunContext run;
    private final String tag;
    private final Set<Thread> workers = ConcurrentHashMap.newKeySet();
    private final Map<Long, Flight> flights = new ConcurrentHashMap<>();
    private final AtomicInteger delivering = new AtomicInteger();
    private final ReentrantLock lock = new ReentrantLock();
    private final Condition idle = lock.newCondition();
    private final Condition delivered = lock.newCondition();
    private volatile boolean cancelled;
    private volatile boolean sealed;
    /** Set when the drain gave up: the requests it cuts are {@code UNFINISHED} (failures), not cancelled. */
    private volatile boolean drainExpired;
    /** When {@link #cancelAll} first ran, on the run clock; until then later than any instant. */
    private volatile long cancelledAtNanos = Long.MAX_VALUE;

    /** One request from registration to its one record: what the driving thread needs to record it cancelled. */
    static final class Flight {
        final RequestContext context;
        final Cancellation cancellation = new Cancellation();
        private volatile RequestSpec spec;
        private volatile long handedNanos = RequestRecord.ABSENT;

        private Flight(RequestContext context) {
            this.context = context;
        }

        long id() {
            return context.id();
        }
    }

    /** A tracker delivering through {@code run}; {@code tag} (null: the spec's own) tags the records it writes. */
    RequestTracker(RunContext run, String tag) {
        this.run = run;
        this.tag = tag;
    }

    /** Starts {@code body} on a new virtual thread named {@code name}, tracked until it ends. */
    void startWorker(String name, Runnable body) {
        Thread t = Thread.ofVirtual().name(name).unstarted(() -> {
            try {
                body.run();
            } finally {
                workerEnded(Thread.currentThread());
            }
        });
        workers.add(t);
        t.start();
    }

    private void workerEnded(Thread t) {
        workers.remove(t);
        if (workers.isEmpty()) {
            signal(idle);
        }
    }

    private void signal(Condition condition) {
        lock.lock();
        try {
            condition.signalAll();
        } finally {
            lock.unlock();
        }
    }

    /** Registers a request about to be prepared and sent; null when cancelled: then it must not be sent (no record). */
    Flight register(RequestContext context) {
        if (cancelled) {
            return null;
        }
        Flight f = new Flight(context);
        flights.put(context.id(), f);
        if (cancelled && flights.remove(context.id(), f)) {
            return null; // cancelled meanwhile, and the sweep has not claimed it: as if never registered
        }
        if (cancelled) {
            f.cancellation.cancel(); // claimed by the sweep, which records it; the caller will not send it
        }
        return f;
    }

    /** True while the flight has no record yet (neither its worker nor the sweep claimed it). */
    boolean open(Flight f) {
        return flights.get(f.id()) == f;
    }

    /** Forgets a flight that will not be sent and gets no record (its workload failed; the run fails). */
    void abandon(Flight f) {
        flights.remove(f.id(), f);
    }

    /**
     * Sends {@code spec} for {@code f} through the run's sender, or, if the flight was cancelled before it could be
     * handed over, returns its never-dispatched {@code CANCELLED} record.
     */
    RequestRecord send(Flight f, RequestSpec spec) {
        return send(f, spec, run.prepare(spec, f.context));
    }

    /** As {@link #send(Flight, RequestSpec)}, for a request already {@link RunContext#prepare prepared}. */
    RequestRecord send(Flight f, RequestSpec spec, RequestSender.Prepared prepared) {
        f.spec = spec;
        if (f.cancellation.isCancelled() || cancelled) {
            return run.unsent(spec, f.context, Outcome.CANCELLED);
        }
        f.handedNanos = run.clock.now();
        return prepared.send(f.cancellation);
    }

    /**
     * Hands the flight's record to the listener unless the flight was already recorded (by the sweep of
     * {@link #close}); true if this record was delivered.
     */
    boolean complete(Flight f, RequestRecord record) {
        if (!enterGate()) {
            return false;
        }
        try {
            if (!flights.remove(f.id(), f)) {
                return false;
            }
            run.deliver(cutByDrain(f, record));
            return true;
        } finally {
            exitGate();
        }
    }

    /** Delivers the record of a request that was never registered (dropped, overdue) unless the tracker is closed. */
    boolean deliverUnregistered(RequestRecord record) {
        if (!enterGate()) {
            return false;
        }
        try {
            run.deliver(record);
            return true;
        } finally {
            exitGate();
        }
    }

    private boolean enterGate() {
        delivering.incrementAndGet();
        if (sealed) {
            exitGate();
            return false;
        }
        return true;
    }

    private void exitGate() {
        if (delivering.decrementAndGet() == 0 && sealed) {
            signal(delivered);
        }
    }

    int workerCount() {
        return workers.size();
    }

    /** Requests registered whose record has not been written yet. */
    int openFlights() {
        return flights.size();
    }

    /** True once {@link #cancelAll()} began: no request may be dispatched any more. */
    boolean isCancelled() {
        return cancelled;
    }

    /**
     * True if {@code f}, never handed to the sender, was planned for later than the tracker's cancellation: it was
     * never due (an open-loop request prepared ahead of its instant), and gets no record.
     */
    boolean neverDue(Flight f) {
        return f.handedNanos < 0 && f.context.intendedNanos() > cancelledAtNanos;
    }

    /** Cancels every request in flight now; later registrations are refused. */
    void cancelAll() {
        if (!cancelled) {
            cancelledAtNanos = run.clock.now();
        }
        cancelled = true;
        flights.values().forEach(f -> f.cancellation.cancel());
    }

    void interruptWorkers() {
        workers.forEach(Thread::interrupt);
    }

    /** Waits up to {@code timeoutNanos} for every worker to end; true if they all did. */
    boolean awaitIdle(long timeoutNanos) throws InterruptedException {
        long remaining = timeoutNanos;
        lock.lock();
        try {
            while (!workers.isEmpty()) {
                if (remaining <= 0) {
                    return false;
                }
                remaining = idle.awaitNanos(remaining);
            }
            return true;
        } finally {
            lock.unlock();
        }
    }

    /**
     * Ends a step's load: waits up to {@code drainNanos} for the requests in flight to finish, then
     * {@link #close()}s; when they do not finish in time, {@link #cancelAndAwait cancels} what is left, and every
     * dispatched request that ends cancelled from then on is recorded {@code UNFINISHED} (METRICS.md "Outcomes": a
     * failure; the server did not finish it within the drain), never a silent {@code CANCELLED}. An interrupt during the
     * wait is the user's stop: the caller cancels, and those requests stay {@code CANCELLED}.
     */
    void drainThenClose(long drainNanos) throws InterruptedException {
        if (awaitIdle(drainNanos)) {
            close();
        } else {
            drainExpired = true;
            cancelAndAwait(StepRunners.CANCEL_GRACE_NANOS);
        }
    }

    /** {@code record} as delivered: {@code CANCELLED} because the drain gave up is {@code UNFINISHED}, all kept. */
    private RequestRecord cutByDrain(Flight f, RequestRecord record) {
        if (!drainExpired || f.handedNanos < 0 || !(record.outcome() instanceof Outcome.Cancelled)) {
            return record;
        }
        RequestRecord.Builder b = record.toBuilder();
        b.outcome = Outcome.UNFINISHED;
        return b.build();
    }

    /** True once the drain gave up on the requests still in flight ({@link #drainThenClose}). */
    boolean drainExpired() {
        return drainExpired;
    }

    /**
     * Stops what is left: cancels all requests, waits {@code graceNanos} for the workers, interrupts the
     * stragglers and waits as long again, then {@link #close()}s: the requests still open are recorded
     * {@code CANCELLED} on this thread. Not interruptible itself beyond cutting the waits short (it is the
     * clean-up after an interrupt); keeps the interrupt status. True if every worker ended in time.
     */
    boolean cancelAndAwait(long graceNanos) {
        cancelAll();
        boolean interrupted = Thread.interrupted();
        boolean ended;
        try {
            ended = awaitIdle(graceNanos);
            if (!ended) {
                interruptWorkers();
                ended = awaitIdle(graceNanos);
            }
        } catch (InterruptedException e) {
            interrupted = true;
            ended = workers.isEmpty();
        }
        close();
        if (interrupted) {
            Thread.currentThread().interrupt();
        }
        return ended;
    }

    /**
     * Ends the tracker: refuses new requests, records every request still open as {@code CANCELLED} (see
     * {@link #cancelledRecord}) except those {@link #neverDue never due}, then shuts the delivery gate and waits (up to
     * {@link #DELIVERY_WAIT_NANOS}, not interruptibly) for the deliveries in progress. After it returns no record of
     * this tracker reaches the listener; a worker still running finds its request recorded and writes nothing.
     * Idempotent.
     */
    void close() {
        cancelAll();
        for (Flight f : flights.values()) {
            if (flights.remove(f.id(), f) && !neverDue(f)) {
                run.deliver(cutByDrain(f, cancelledRecord(f)));
            }
        }
        sealed = true;
        boolean interrupted = false;
        long remaining = DELIVERY_WAIT_NANOS;
        lock.lock();
        try {
            while (delivering.get() > 0 && remaining > 0) {
                try {
                    remaining = delivered.awaitNanos(remaining);
                } catch (InterruptedException e) {
                    interrupted = true;
                }
            }
        } finally {
            lock.unlock();
        }
        if (interrupted) {
            Thread.currentThread().interrupt();
        }
    }

    /**
     * The record the driving thread writes for a request whose worker did not end in time (METRICS.md
     * "Outcomes": {@code CANCELLED}, reported apart from failures; {@code UNFINISHED} when the drain gave up on it,
     * see {@link #cutByDrain}), {@code t_end} = now. When the sender published
     * its measurements ({@link Cancellation#onProgress}: Kneepoint's client does) the record keeps them: dispatch,
     * first byte, every token event so far with the client's counts. Otherwise: identity and spec, {@code t_dispatch}
     * = the instant the request was handed to the sender (absent if it never was: then it was never dispatched), no
     * tokens.
     */
    private RequestRecord cancelledRecord(Flight f) {
        RequestRecord p = f.handedNanos >= 0 ? f.cancellation.progress() : null;
        if (p != null && p.id() == f.id() && p.step().equals(f.context.step())) {
            long dispatch = p.timing().dispatchNanos() >= 0 ? p.timing().dispatchNanos() : f.handedNanos;
            long end = Math.max(run.clock.now(), Math.max(dispatch, p.timing().lastTokenNanos()));
            RequestRecord.Builder b = p.toBuilder(); // all it measured: tokens, first answer, a resend
            b.dispatchNanos = dispatch;
            b.endNanos = end;
            b.outcome = Outcome.CANCELLED;
            return b.build();
        }
        return bareCancelledRecord(f);
    }

    private RequestRecord bareCancelledRecord(Flight f) {
        RequestSpec spec = f.spec;
        if (spec == null) {
            spec = run.spec(f.id());
            if (spec != null && tag != null) {
                spec = spec.withTag(tag);
            }
        }
        RequestRecord.Builder b;
        if (spec != null) {
            b = f.context.recordBuilder(spec);
        } else { // the workload failed (the run fails with it): identity and timing only
            b = new RequestRecord.Builder();
            b.id = f.id();
            b.step = f.context.step();
            b.tag = tag != null ? tag : b.tag;
            b.warmup = f.context.warmup();
            b.intendedNanos = f.context.intendedNanos();
        }
        b.dispatchNanos = f.handedNanos;
        b.endNanos = Math.max(run.clock.now(), f.handedNanos);
        b.outcome = Outcome.CANCELLED;
        return b.build();
    }

    static long millis(long ms) {
        return TimeUnit.MILLISECONDS.toNanos(ms);
    }
}
