package dev.kneepoint.load;

import dev.kneepoint.client.Cancellation;
import dev.kneepoint.client.RequestContext;
import dev.kneepoint.metrics.RequestRecord;
import dev.kneepoint.workload.RequestSpec;
import java.util.concurrent.TimeUnit;

/**
 * Runs a {@link BackgroundStream} for the life of a {@link LoadRun}: one platform scheduler thread fires
 * request {@code i} at {@code start + offset(i)} on its own virtual thread and never waits for requests in
 * flight. The plan's horizon is not known in advance (the ladder may stop early, drains vary), so the
 * offsets are computed for a horizon that doubles whenever it is used up; the plan is a seeded pure
 * function, so a longer horizon always extends the shorter one's offsets.
 */
final class BackgroundRunner {
    private static final long FIRST_HORIZON_NANOS = TimeUnit.SECONDS.toNanos(60);

    private final BackgroundStream stream;
    private final RunContext run;
    private final RequestTracker tracker = new RequestTracker();
    private Thread scheduler;
    private long start;

    BackgroundRunner(BackgroundStream stream, RunContext run) {
        this.stream = stream;
        this.run = run;
    }

    /** Starts the scheduler; the schedule's zero is a little after now, so the thread is up in time. */
    void start() {
        start = run.clock.now() + OpenLoopRunner.START_LEAD_NANOS;
        scheduler = Thread.ofPlatform().name("kneepoint-sched-" + stream.tag()).daemon(true).unstarted(this::schedule);
        scheduler.start();
    }

    private void schedule() {
        long horizon = FIRST_HORIZON_NANOS;
        long[] offsets = stream.arrival().offsets(horizon, Long.MAX_VALUE);
        int i = 0;
        while (true) {
            if (i == offsets.length) {
                if (horizon > Long.MAX_VALUE / 4) {
                    return;
                }
                horizon *= 2;
                offsets = stream.arrival().offsets(horizon, Long.MAX_VALUE);
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
        RequestContext context = new RequestContext(id, stream.tag(), false, intended, run.clock);
        tracker.startWorker("kneepoint-bg-" + id, () -> send(context));
    }

    private void send(RequestContext context) {
        RequestSpec spec = run.spec(context.id());
        if (spec == null) {
            return;
        }
        spec = spec.withTag(stream.tag());
        Cancellation cancellation = tracker.begin(context.id());
        try {
            RequestRecord record = run.execute(spec, context, cancellation);
            run.deliver(record);
        } finally {
            tracker.end(context.id());
        }
    }

    /**
     * Stops issuing and ends the stream: when {@code drain}, in-flight requests get the stream's drain timeout
     * before being cancelled; otherwise (the run was stopped or interrupted) they are cancelled at once. Keeps
     * the caller's interrupt status.
     */
    void finish(boolean drain) {
        boolean interrupted = Thread.interrupted();
        scheduler.interrupt();
        try {
            scheduler.join(TimeUnit.NANOSECONDS.toMillis(StepRunners.CANCEL_GRACE_NANOS) + 1000);
            if (!drain || !tracker.awaitIdle(stream.drainTimeout().toNanos())) {
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
