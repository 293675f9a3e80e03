package dev.kneepoint.load;

import dev.kneepoint.metrics.Outcome;
import dev.kneepoint.metrics.RequestRecord;
import dev.kneepoint.metrics.StepInfo;
import dev.kneepoint.metrics.WindowPlan;
import dev.kneepoint.request.Cancellation;
import dev.kneepoint.request.RequestContext;
import dev.kneepoint.request.RequestSpec;
import java.util.concurrent.Semaphore;
import java.util.concurrent.TimeUnit;

/**
 * Runs one {@link OpenLoopStep}: one platform scheduler thread owned by the step fires each planned
 * request at its absolute time on a new virtual thread, and never waits for requests in flight. The
 * driving thread waits for the scheduler, then for the drain, then reports the window.
 */
final class OpenLoopRunner extends StepRunner<OpenLoopStep> {
    /** The plan's zero lies this far after the step begins, so the scheduler thread is up in time. */
    static final long START_LEAD_NANOS = RequestTracker.millis(5);

    private final Semaphore permits;
    private final boolean dropAtCap;
    private long[] offsets;
    private Thread scheduler;

    OpenLoopRunner(OpenLoopStep step, StepInfo info, RunContext run) {
        super(step, info, run, step.workload().isPresent() ? null : Sessions.of(run));
        this.permits = step.maxInFlight().isPresent() ? new Semaphore(step.maxInFlight().getAsInt(), true) : null;
        this.dropAtCap = step.capPolicy().orElse(null) == CapPolicy.DROP;
    }

    /** Runs the step on the calling thread; an interrupt ends it early with {@code completed = false}. */
    ExecutedStep run() {
        offsets = step.plannedOffsets();
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

    /** The scheduler: fire request i at stepStart + offset(i); on interrupt, account for overdue ones. */
    private void schedule(long[] offsets) {
        int i = 0;
        while (i < offsets.length && Pacer.awaitUntil(run.clock, stepStart + offsets[i])) {
            fire(i, stepStart + offsets[i]);
            i++;
        }
        cancelOverdue(offsets, i);
    }

    private void fire(long planIndex, long intended) {
        long id = run.nextId();
        RequestContext context = new RequestContext(id, info.label(), intended < warmupEnd, intended, run.clock);
        boolean holdsPermit = false;
        if (dropAtCap) {
            holdsPermit = permits.tryAcquire();
            if (!holdsPermit) {
                deliverUnsent(context, planIndex, Outcome.DROPPED);
                return;
            }
        }
        RequestTracker.Flight flight = tracker.register(context);
        if (flight == null) { // the step was stopped as it fired: due but never sent
            permits(holdsPermit);
            deliverUnsent(context, planIndex, Outcome.CANCELLED);
            return;
        }
        boolean permitTaken = holdsPermit;
        tracker.startWorker("kneepoint-req-" + id, () -> send(flight, planIndex, permitTaken));
    }

    /** The record of a request never registered (dropped, or due but not fired before the stop). */
    private void deliverUnsent(RequestContext context, long planIndex, Outcome outcome) {
        RequestSpec spec = spec(planIndex, context.id());
        if (spec != null) {
            tracker.deliverUnregistered(run.unsent(spec, context, outcome));
        }
    }

    /**
     * On a request's own virtual thread: wait for a slot if queueing, send, hand the record over. With a
     * {@link SessionWorkload} the request carries the next turn of a session that is ready by its planned time
     * (see {@link Sessions#take}), and a session that goes on waits for a later planned arrival. A request the
     * step's stop already recorded (its thread started too late) is not prepared at all.
     */
    private void send(RequestTracker.Flight flight, long planIndex, boolean holdsPermit) {
        boolean permit = holdsPermit;
        try {
            if (!tracker.open(flight)) {
                return;
            }
            RequestContext context = flight.context;
            Sessions.Session session = sessions == null ? null : sessions.take(context.intendedNanos());
            RequestSpec spec = session == null ? spec(planIndex, context.id()) : sessions.spec(session);
            if (spec == null) {
                tracker.abandon(flight);
                return;
            }
            if (permits != null && !permit) {
                permit = awaitPermit(flight.cancellation);
                if (!permit) {
                    tracker.complete(flight, run.unsent(spec, context, Outcome.CANCELLED));
                    return;
                }
            }
            RequestRecord record = tracker.send(flight, spec);
            permits(permit);
            permit = false;
            if (session != null) {
                if (sessions.advance(session, record)) {
                    sessions.park(session, record.timing().endNanos());
                }
                record = record.withResponseText(null);
            }
            tracker.complete(flight, record);
        } finally {
            permits(permit);
        }
    }

    /** The step's own workload at the plan position, else the run's at the request id; null if it threw. */
    private RequestSpec spec(long planIndex, long id) {
        return step.workload().map(w -> run.spec(w, planIndex)).orElseGet(() -> run.spec(id));
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
