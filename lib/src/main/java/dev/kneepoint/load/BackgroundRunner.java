package dev.kneepoint.load;

import dev.kneepoint.request.RequestContext;
import dev.kneepoint.request.RequestSpec;
import java.util.concurrent.TimeUnit;

/**
 * Runs a {@link BackgroundStream} for the life of a {@link LoadRun}: one platform scheduler thread fires
 * request {@code i} at {@code start + offset(i)} on its own virtual thread and never waits for requests in
 * flight. A steady stream has one scheduler for the whole run; a per-step stream one per ladder step with a rate
 * above 0, started just before the step and stopped when it ends. The plan's horizon is not known in advance (the ladder may stop early, drains vary), so the
 * offsets are computed for a horizon that doubles whenever it is used up; the plan is a seeded pure
 * function, so a longer horizon always extends the shorter one's offsets.
 */
final class BackgroundRunner {
    private static final long FIRST_HORIZON_NANOS = TimeUnit.SECONDS.toNanos(60);

    private final BackgroundStream stream;
    private final RunContext run;
    private final RequestTracker tracker;
    private Thread scheduler;

    BackgroundRunner(BackgroundStream stream, RunContext run) {
        this.stream = stream;
        this.run = run;
        this.tracker = new RequestTracker(run, stream.tag());
    }

    /**
     * Starts the steady stream's scheduler (a per-step stream starts with each step instead); the schedule's zero
     * is a little after now, so the thread is up in time.
     */
    void start() {
        if (!stream.perStep()) {
            startScheduler(stream.arrival(), stream.tag());
        }
    }

    /** StepSequence step {@code k} is about to start: a per-step stream starts its schedule at the step's rate. */
    void stepStarting(int k) {
        if (stream.perStep() && stream.rateRps(k) > 0) {
            startScheduler(stream.arrival().withRate(stream.rateRps(k)), stream.tag() + "-" + k);
        }
    }

    /** StepSequence step {@code k} has ended: a per-step stream stops issuing; its requests in flight go on. */
    void stepEnded(int k) {
        if (stream.perStep()) {
            stopScheduler();
        }
    }

    private void startScheduler(ArrivalPlan plan, String name) {
        long start = run.clock.now() + OpenLoopRunner.START_LEAD_NANOS;
        scheduler = Thread.ofPlatform().name("kneepoint-sched-" + name).daemon(true).unstarted(() -> schedule(plan, start));
        scheduler.start();
    }

    /** Interrupts the scheduler and waits for it (not for its requests); keeps the caller's interrupt status. */
    private void stopScheduler() {
        Thread t = scheduler;
        scheduler = null;
        if (t == null) {
            return;
        }
        t.interrupt();
        boolean interrupted = Thread.interrupted();
        try {
            t.join(TimeUnit.NANOSECONDS.toMillis(StepRunners.CANCEL_GRACE_NANOS) + 1000);
        } catch (InterruptedException e) {
            interrupted = true;
        } finally {
            if (interrupted) {
                Thread.currentThread().interrupt();
            }
        }
    }

    private void schedule(ArrivalPlan plan, long start) {
        long horizon = FIRST_HORIZON_NANOS;
        long[] offsets = plan.offsets(horizon, Long.MAX_VALUE);
        int i = 0;
        while (true) {
            if (i == offsets.length) {
                if (horizon > Long.MAX_VALUE / 4) {
                    return;
                }
                horizon *= 2;
                offsets = plan.offsets(horizon, Long.MAX_VALUE);
                continue;
            }
            long intended = start + offsets[i];
            if (!Pacer.awaitUntil(run.clock, intended)) {
                return;
            }
            fire(intended);
            i++;
        }
    }

    private void fire(long intended) {
        long id = run.nextId();
        RequestTracker.Flight flight = tracker.register(new RequestContext(id, stream.tag(), false, intended, run.clock));
        if (flight != null) { // else the run is being stopped: nothing more is sent
            tracker.startWorker("kneepoint-bg-" + id, () -> send(flight));
        }
    }

    private void send(RequestTracker.Flight flight) {
        if (!tracker.open(flight)) {
            return; // recorded by the stop already
        }
        RequestSpec spec = run.spec(flight.id());
        if (spec == null) {
            tracker.abandon(flight);
            return;
        }
        tracker.complete(flight, tracker.send(flight, spec.withTag(stream.tag())));
    }

    /**
     * Stops issuing and ends the stream: when {@code drain}, in-flight requests get the stream's drain timeout,
     * and those still unfinished then end {@code UNFINISHED}; otherwise (the run was stopped or interrupted) they are cancelled at once. Keeps
     * the caller's interrupt status.
     */
    void finish(boolean drain) {
        stopScheduler();
        boolean interrupted = Thread.interrupted();
        try {
            if (drain) { // what the drain cuts is UNFINISHED; a scheduler that outlived its join sends nothing more
                tracker.drainThenClose(stream.drainTimeout().toNanos());
            } else {
                tracker.cancelAndAwait(StepRunners.CANCEL_GRACE_NANOS);
            }
        } catch (InterruptedException e) {
            interrupted = true;
            tracker.cancelAndAwait(StepRunners.CANCEL_GRACE_NANOS);
        } finally {
            if (interrupted) {
                Thread.currentThread().interrupt();
            }
        }
    }
}
