package dev.kneepoint.load;

import dev.kneepoint.metrics.RequestRecord;
import dev.kneepoint.metrics.StepInfo;
import dev.kneepoint.metrics.WindowPlan;
import dev.kneepoint.request.RequestContext;
import dev.kneepoint.request.RequestSpec;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.concurrent.atomic.AtomicLong;

/**
 * Runs one {@link ClosedLoopStep}: one virtual thread per user, each calling the sender in a loop.
 * The driving thread waits for the bound, then for the drain, then reports the window.
 */
final class ClosedLoopRunner {
    private final ClosedLoopStep step;
    private final StepInfo info;
    private final RunContext run;
    private final RequestTracker tracker;
    private final CountDownLatch issuingStopped = new CountDownLatch(1);
    private final AtomicLong measuredIssued = new AtomicLong();
    private final AtomicInteger liveUsers = new AtomicInteger();
    private final Sessions sessions;
    private long stepStart;
    private long warmupEnd;
    private long issueEnd;

    ClosedLoopRunner(ClosedLoopStep step, StepInfo info, RunContext run) {
        this.step = step;
        this.info = info;
        this.run = run;
        this.sessions = Sessions.of(run);
        this.tracker = new RequestTracker(run, null);
    }

    /** Runs the step on the calling thread; an interrupt ends it early with {@code completed = false}. */
    ExecutedStep run() {
        stepStart = run.clock.now();
        warmupEnd = stepStart + step.bounds().warmupNanos();
        long issueLength = step.bounds().issueEndNanos();
        issueEnd = issueLength == Long.MAX_VALUE ? Long.MAX_VALUE : stepStart + issueLength;
        run.listener.stepStarted(info, stepStart, WindowPlan.startingAt(warmupEnd));
        ClientMonitor monitor = ClientMonitor.start(run.clock, info.label(), warmupEnd);
        boolean completed = true;
        long issueStop = -1;
        liveUsers.set(step.concurrency());
        try {
            for (int u = 0; u < step.concurrency(); u++) {
                int user = u;
                tracker.startWorker("kneepoint-user-" + info.label() + "-" + u, () -> user(user));
            }
            awaitBound();
            run.listener.stepLoadStopping(info); // before the clock read that ends the window: see WindowPlan
            issueStop = run.clock.now();
            monitor.endWindow(issueStop);
            tracker.drainThenClose(step.drainTimeout().toNanos());
        } catch (InterruptedException e) {
            completed = false;
            stopIssuing();
            tracker.cancelAndAwait(StepRunners.CANCEL_GRACE_NANOS);
            Thread.currentThread().interrupt();
        } catch (RuntimeException | Error e) {
            stopIssuing();
            tracker.cancelAndAwait(StepRunners.CANCEL_GRACE_NANOS); // no request outlives its step either
            monitor.stop(); // no probe outlives its step
            throw e;
        }
        return StepRunners.finish(run, info, stepStart, warmupEnd, issueStop, completed, monitor);
    }

    /** Waits until the users must stop issuing: the duration has passed or the count bound was reached. */
    private void awaitBound() throws InterruptedException {
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
            userLoop();
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
    private void userLoop() {
        long intended = stepStart;
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
            RequestSpec spec = session == null ? run.spec(id) : sessions.spec(session);
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
                record = record.withResponseText(null);
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
