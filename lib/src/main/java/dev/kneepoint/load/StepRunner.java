package dev.kneepoint.load;

import dev.kneepoint.metrics.StepInfo;
import dev.kneepoint.metrics.WindowPlan;

/**
 * What {@link ClosedLoopRunner} and {@link OpenLoopRunner} share: the step, its planned facts, the run, the step's
 * {@link RequestTracker} and (for a run of a {@link dev.kneepoint.request.SessionWorkload}) its {@link Sessions},
 * the step's start and end of warm-up, and {@link #drive}, the life of a step around its load: started, awaited,
 * drained and reported, or stopped with every request cancelled when the thread is interrupted or something throws.
 *
 * @param <S> the kind of step run
 */
abstract class StepRunner<S extends Step> {
    final S step;
    final StepInfo info;
    final RunContext run;
    final RequestTracker tracker;
    /** The step's chat sessions, or null when its requests are independent. */
    final Sessions sessions;
    /** Run-clock nanos of the step's start; set by the runner before {@link #drive}. */
    long stepStart;
    /** Run-clock nanos of the end of the step's warm-up; set by the runner before {@link #drive}. */
    long warmupEnd;

    StepRunner(S step, StepInfo info, RunContext run, Sessions sessions) {
        this.step = step;
        this.info = info;
        this.run = run;
        this.sessions = sessions;
        this.tracker = new RequestTracker(run, null);
    }

    /** Starts issuing the step's load (threads of its own); called once by {@link #drive}. */
    abstract void startLoad();

    /** Waits until the load has stopped issuing by itself (its bound reached). */
    abstract void awaitLoad() throws InterruptedException;

    /**
     * Stops issuing early; {@code interrupted}: the driving thread was interrupted (and waits for the issuing to
     * end), else something threw.
     */
    abstract void stopLoad(boolean interrupted);

    /**
     * Runs the step on the calling thread, its window planned as {@code plan} (from {@link #warmupEnd}; its end cap,
     * if any, is where the window ends), and reports it; an interrupt ends it early with {@code completed = false}.
     */
    final ExecutedStep drive(WindowPlan plan) {
        run.listener.stepStarted(info, stepStart, plan);
        ClientMonitor monitor = ClientMonitor.start(run.clock, info.label(), warmupEnd);
        boolean completed = true;
        long issueStop = -1;
        try {
            startLoad();
            awaitLoad();
            run.listener.stepLoadStopping(info); // before the clock read that ends the window: see WindowPlan
            issueStop = plan.endCapNanos() != Long.MAX_VALUE ? plan.endCapNanos() : run.clock.now();
            monitor.endWindow(issueStop);
            tracker.drainThenClose(step.drainTimeout().toNanos());
        } catch (InterruptedException e) {
            completed = false;
            stopLoad(true);
            tracker.cancelAndAwait(StepRunners.CANCEL_GRACE_NANOS);
            Thread.currentThread().interrupt();
        } catch (RuntimeException | Error e) {
            stopLoad(false);
            tracker.cancelAndAwait(StepRunners.CANCEL_GRACE_NANOS); // no request outlives its step either
            monitor.stop(); // no probe outlives its step
            throw e;
        }
        return StepRunners.finish(run, info, stepStart, warmupEnd, issueStop, completed, monitor);
    }
}
