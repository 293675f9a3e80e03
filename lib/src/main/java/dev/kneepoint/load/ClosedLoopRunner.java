package dev.kneepoint.load;

import dev.kneepoint.metrics.RequestRecord;
import dev.kneepoint.metrics.StepInfo;
import dev.kneepoint.metrics.WindowPlan;
import dev.kneepoint.request.RequestContext;
import dev.kneepoint.request.RequestSpec;
import dev.kneepoint.request.Workload;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.concurrent.atomic.AtomicLong;

/**
 * Runs one {@link ClosedLoopStep}: one virtual thread per user, each calling the sender in a loop.
 * The driving thread waits for the bound, then for the drain, then reports the window.
 */
final class ClosedLoopRunner extends StepRunner<ClosedLoopStep> {
    private final CountDownLatch issuingStopped = new CountDownLatch(1);
    private final AtomicLong measuredIssued = new AtomicLong();
    private final AtomicInteger liveUsers = new AtomicInteger();
    private long issueEnd;
    /** The step's own requests ({@link ClosedLoopStep#requests()}), or null: the run's workload. */
    private final Workload own;

    ClosedLoopRunner(ClosedLoopStep step, StepInfo info, RunContext run) {
        super(step, info, run, step.requests().isPresent() ? null : Sessions.of(run));
        this.own = step.requests().map(f -> f.apply(run.workload)).orElse(null);
    }

    /** Runs the step on the calling thread; an interrupt ends it early with {@code completed = false}. */
    ExecutedStep run() {
        stepStart = run.clock.now();
        warmupEnd = stepStart + step.bounds().warmupNanos();
        long issueLength = step.bounds().issueEndNanos();
        issueEnd = issueLength == Long.MAX_VALUE ? Long.MAX_VALUE : stepStart + issueLength;
        return drive(WindowPlan.startingAt(warmupEnd));
    }

    /** One virtual thread per user. */
    @Override
    void startLoad() {
        liveUsers.set(step.concurrency());
        for (int u = 0; u < step.concurrency(); u++) {
            int user = u;
            tracker.startWorker("kneepoint-user-" + info.label() + "-" + u, () -> user(user));
        }
    }

    @Override
    void stopLoad(boolean interrupted) {
        stopIssuing();
    }

    /** Waits until the users must stop issuing: the duration has passed or the count bound was reached. */
    @Override
    void awaitLoad() throws InterruptedException {
        if (issueEnd == Long.MAX_VALUE) {
            issuingStopped.await();
            return;
        }
        long remaining = issueEnd - run.clock.now();
        if (!issuingStopped.await(Math.max(0, remaining), TimeUnit.NANOSECONDS)) {
            stopIssuing();
        }
    }

    private void stopIssuing() {
        issuingStopped.countDown();
    }

    private boolean issuing() {
        return issuingStopped.getCount() > 0;
    }

    /** A user thread; the last user to leave (however it leaves) makes sure the driver stops waiting. */
    private void user(int user) {
        try {
            userLoop(user);
        } finally {
            if (liveUsers.decrementAndGet() == 0) {
                stopIssuing();
            }
        }
    }

    /**
     * One user: send, wait for the end, think, repeat until the step stops issuing. With a {@link SessionWorkload}
     * the user runs one chat session after another, each turn carrying the earlier turns' real answers.
     */
    private void userLoop(int user) {
        long intended = stepStart + step.userStartNanos(user);
        Sessions.Session session = sessions == null ? null : sessions.fresh();
        long sessionThink = 0;
        while (waitForSlot(intended)) {
            long now = run.clock.now();
            if (!issuing() || now >= issueEnd) {
                stopIssuing();
                return;
            }
            boolean warmup = now < warmupEnd;
            if (!warmup && !claimMeasured()) {
                return;
            }
            if (tracker.isCancelled()) {
                return;
            }
            long id = run.nextId();
            RequestContext context = new RequestContext(id, info.label(), warmup, intended, run.clock);
            RequestTracker.Flight flight = tracker.register(context);
            if (flight == null) {
                return; // the step was stopped meanwhile: nothing is sent
            }
            RequestSpec spec = session != null ? sessions.spec(session) : own != null ? run.spec(own, id) : run.spec(id);
            if (spec == null) {
                tracker.abandon(flight);
                stopIssuing();
                return;
            }
            RequestRecord record = tracker.send(flight, spec);
            if (session != null) {
                boolean goesOn = sessions.advance(session, record);
                session = goesOn ? session : sessions.fresh();
                sessionThink = goesOn ? sessions.thinkNanos() : 0;
                record = record.withoutKeptAnswer();
            }
            tracker.complete(flight, record);
            intended = run.clock.now() + step.thinkTime().toNanos() + sessionThink;
        }
    }

    /** Think time: waits until {@code intended}; false if the step stopped issuing meanwhile. */
    private boolean waitForSlot(long intended) {
        try {
            long remaining = intended - run.clock.now();
            return remaining <= 0 ? issuing() : !issuingStopped.await(remaining, TimeUnit.NANOSECONDS);
        } catch (InterruptedException e) {
            return false;
        }
    }

    /** Takes one of the {@code maxRequests} measured slots; the last one stops issuing. */
    private boolean claimMeasured() {
        long max = step.bounds().maxRequests();
        if (max < 0) {
            return true;
        }
        long n = measuredIssued.incrementAndGet();
        if (n >= max) {
            stopIssuing();
        }
        return n <= max;
    }
}
