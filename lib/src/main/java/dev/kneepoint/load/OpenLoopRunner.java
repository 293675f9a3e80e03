package dev.kneepoint.load;

import dev.kneepoint.metrics.Outcome;
import dev.kneepoint.metrics.RequestRecord;
import dev.kneepoint.metrics.StepInfo;
import dev.kneepoint.metrics.WindowPlan;
import dev.kneepoint.request.Cancellation;
import dev.kneepoint.request.RequestContext;
import dev.kneepoint.request.RequestSender;
import dev.kneepoint.request.RequestSpec;
import java.util.concurrent.Semaphore;
import java.util.concurrent.TimeUnit;

/**
 * Runs one {@link OpenLoopStep}: one platform scheduler thread owned by the step starts each planned request
 * {@link #PREPARE_LEAD_NANOS} before its absolute time on a new virtual thread, which prepares the request (its spec
 * and bytes) and sends it at that time; the scheduler never waits for requests in flight. The driving thread waits
 * for the scheduler, then for the drain, then reports the window.
 */
final class OpenLoopRunner extends StepRunner<OpenLoopStep> {
    /**
     * The plan's zero lies this far after the step begins, so that the listeners' step start (a sweep's took
     * 10-30 ms in a fresh JVM on a busy machine) and the scheduler thread's start are over before the first request
     * is prepared.
     */
    static final long START_LEAD_NANOS = RequestTracker.millis(50);
    /**
     * A request's thread starts this long before its planned instant: starting a virtual thread, building the
     * request and waking from a park each took up to about a millisecond in a fresh JVM (docs/PERFORMANCE.md,
     * "Dispatch precision"); all of it now happens before the instant instead of after.
     */
    static final long PREPARE_LEAD_NANOS = RequestTracker.millis(5);
    /**
     * A prepared request spins (rather than parks) through the last stretch before its instant, so that a late
     * wake-up from the park does not delay it: at most this long, and at most a tenth of the step's mean gap between
     * arrivals, which bounds the CPU that spinning costs to a tenth of one core.
     */
    static final long DISPATCH_SPIN_NANOS = 300_000;

    private final Semaphore permits;
    private final boolean dropAtCap;
    private long[] offsets;
    private long spinNanos;
    private Thread scheduler;

    OpenLoopRunner(OpenLoopStep step, StepInfo info, RunContext run) {
        super(step, info, run, step.workload().isPresent() ? null : Sessions.of(run));
        this.permits = step.maxInFlight().isPresent() ? new Semaphore(step.maxInFlight().getAsInt(), true) : null;
        this.dropAtCap = step.capPolicy().orElse(null) == CapPolicy.DROP;
    }

    /** Runs the step on the calling thread; an interrupt ends it early with {@code completed = false}. */
    ExecutedStep run() {
        offsets = step.plannedOffsets();
        spinNanos = spinNanos(offsets);
        stepStart = run.clock.now() + START_LEAD_NANOS;
        warmupEnd = stepStart + step.bounds().warmupNanos();
        // The load level is held until the planned end of the step (the last arrival may come up to one
        // inter-arrival gap before it), or, when a request count may end it, until the last firing.
        boolean heldToPlannedEnd = step.duration().isPresent() && step.maxRequests().isEmpty();
        long plannedEnd = heldToPlannedEnd ? warmupEnd + step.duration().get().toNanos() : Long.MAX_VALUE;
        return drive(new WindowPlan(warmupEnd, plannedEnd));
    }

    /** The step's scheduler thread. */
    @Override
    void startLoad() {
        scheduler = Thread.ofPlatform().name("kneepoint-sched-" + info.label()).daemon(true)
                .unstarted(() -> schedule(offsets));
        scheduler.start();
    }

    /** Waits for the scheduler to have fired the whole plan. */
    @Override
    void awaitLoad() throws InterruptedException {
        scheduler.join();
    }

    @Override
    void stopLoad(boolean interrupted) {
        if (scheduler == null) {
            return; // it never started
        }
        scheduler.interrupt();
        if (interrupted) {
            joinQuietly(scheduler);
        }
    }

    /** The spin for this plan: {@link #DISPATCH_SPIN_NANOS}, at most a tenth of the mean gap between arrivals. */
    static long spinNanos(long[] offsets) {
        if (offsets.length < 2) {
            return DISPATCH_SPIN_NANOS;
        }
        long meanGap = (offsets[offsets.length - 1] - offsets[0]) / (offsets.length - 1);
        return Math.min(DISPATCH_SPIN_NANOS, meanGap / 10);
    }

    /**
     * The scheduler: start request i's thread {@link #PREPARE_LEAD_NANOS} before stepStart + offset(i); on interrupt,
     * account for overdue ones.
     */
    private void schedule(long[] offsets) {
        int i = 0;
        while (i < offsets.length && Pacer.awaitUntil(run.clock, stepStart + offsets[i] - PREPARE_LEAD_NANOS)) {
            fire(i, stepStart + offsets[i]);
            i++;
        }
        cancelOverdue(offsets, i);
    }

    private void fire(long planIndex, long intended) {
        long id = run.nextId();
        RequestContext context = new RequestContext(id, info.label(), intended < warmupEnd, intended, run.clock);
        RequestTracker.Flight flight = tracker.register(context);
        if (flight == null) { // the step was stopped as it fired: never sent, and recorded if it was due
            if (intended <= run.clock.now()) {
                deliverUnsent(context, planIndex, Outcome.CANCELLED);
            }
            return;
        }
        tracker.startWorker("kneepoint-req-" + id, () -> send(flight, planIndex));
    }

    /** The record of a request never registered: due but not fired before the stop. */
    private void deliverUnsent(RequestContext context, long planIndex, Outcome outcome) {
        RequestSpec spec = spec(planIndex, context.id());
        if (spec != null) {
            tracker.deliverUnregistered(run.unsent(spec, context, outcome));
        }
    }

    /**
     * On a request's own virtual thread: prepare the request, wait for its planned instant, take an in-flight slot
     * (or be dropped, or wait for one), send, hand the record over. With a {@link SessionWorkload} the request
     * carries the next turn of a session that is ready by its planned time (see {@link Sessions#take}), so it is
     * built at that time, and a session that goes on waits for a later planned arrival. A request the step's stop
     * already recorded (its thread started too late) is not prepared at all; one whose instant had not come when the
     * step stopped was never due and is not recorded.
     */
    private void send(RequestTracker.Flight flight, long planIndex) {
        boolean permit = false;
        try {
            if (!tracker.open(flight)) {
                return;
            }
            RequestContext context = flight.context;
            RequestSpec spec = sessions == null ? spec(planIndex, context.id()) : null;
            RequestSender.Prepared prepared = spec == null ? null : run.prepare(spec, context);
            awaitInstant(flight); // cut short by a stop: then it was never due, or the send below records it CANCELLED
            if (tracker.neverDue(flight)) {
                tracker.abandon(flight);
                return;
            }
            Sessions.Session session = sessions == null ? null : sessions.take(context.intendedNanos());
            if (session != null) {
                spec = sessions.spec(session);
            }
            if (spec == null) {
                tracker.abandon(flight);
                return;
            }
            if (permits != null) {
                permit = dropAtCap ? permits.tryAcquire() : awaitPermit(flight.cancellation);
                if (!permit) {
                    Outcome unsent = dropAtCap ? Outcome.DROPPED : Outcome.CANCELLED;
                    tracker.complete(flight, run.unsent(spec, context, unsent));
                    return;
                }
            }
            RequestRecord record = tracker.send(flight, spec, prepared != null ? prepared : run.prepare(spec, context));
            permits(permit);
            permit = false;
            if (session != null) {
                if (sessions.advance(session, record)) {
                    sessions.park(session, record.timing().endNanos());
                }
                record = record.withoutKeptAnswer();
            }
            tracker.complete(flight, record);
        } finally {
            permits(permit);
        }
    }

    /**
     * Waits until the request's planned instant, parking, then spinning the last {@link #spinNanos}; a cancellation
     * (the step's stop) ends the wait early and leaves the thread's interrupt status set.
     */
    private void awaitInstant(RequestTracker.Flight flight) {
        flight.cancellation.onCancel(Thread.currentThread()::interrupt);
        try {
            Pacer.awaitUntil(run.clock, flight.context.intendedNanos(), spinNanos);
        } finally {
            flight.cancellation.onCancel(null);
        }
    }

    /** The step's own workload at the plan position, else the run's at the request id; null if it threw. */
    private RequestSpec spec(long planIndex, long id) {
        // not Optional.map: a null (the step's workload threw) must stay null, not fall back to the run's workload
        return step.workload().isPresent() ? run.spec(step.workload().get(), planIndex) : run.spec(id);
    }

    private void permits(boolean release) {
        if (release) {
            permits.release();
        }
    }

    /**
     * QUEUE policy: waits (first come, first served) for an in-flight slot; false if the request was
     * cancelled meanwhile. The cancellation interrupts the wait.
     */
    private boolean awaitPermit(Cancellation cancellation) {
        cancellation.onCancel(Thread.currentThread()::interrupt);
        try {
            permits.acquire();
        } catch (InterruptedException e) {
            return false;
        } finally {
            cancellation.onCancel(null);
        }
        // The step-wide flag is set before any request is cancelled: a slot freed by cancelling the request
        // that held it must not let a queued request be dispatched after the stop.
        if (cancellation.isCancelled() || tracker.isCancelled()) {
            Thread.interrupted();
            permits.release();
            return false;
        }
        return true;
    }

    /**
     * After a stop: planned requests whose time had come but which were not fired end as CANCELLED
     * (never dispatched); later ones were never scheduled and are not recorded.
     */
    private void cancelOverdue(long[] offsets, int from) {
        long now = run.clock.now();
        for (int j = from; j < offsets.length && stepStart + offsets[j] <= now; j++) {
            long id = run.nextId();
            long intended = stepStart + offsets[j];
            deliverUnsent(new RequestContext(id, info.label(), intended < warmupEnd, intended, run.clock), j,
                    Outcome.CANCELLED);
        }
    }

    private static void joinQuietly(Thread thread) {
        try {
            thread.join(TimeUnit.NANOSECONDS.toMillis(StepRunners.CANCEL_GRACE_NANOS));
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
        }
    }
}
