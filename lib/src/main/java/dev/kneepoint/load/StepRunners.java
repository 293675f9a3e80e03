package dev.kneepoint.load;

import dev.kneepoint.metrics.ClientHealth;
import dev.kneepoint.metrics.StepInfo;
import dev.kneepoint.metrics.StepWindow;

/** Runs any {@link Step} and closes it with {@code stepFinished}. */
final class StepRunners {
    /** How long cancelled requests get to end (twice: before and after interrupting their threads). */
    static final long CANCEL_GRACE_NANOS = RequestTracker.millis(400);

    private StepRunners() {}

    /**
     * Runs {@code step} on the calling thread, calling {@code stepStarted} before and {@code stepFinished}
     * after. Returns its window and client health; {@code completed} is false when the thread was interrupted, in which case
     * the interrupt status is set on return.
     */
    static ExecutedStep run(Step step, StepInfo info, RunContext run) {
        return switch (step) {
            case ClosedLoopStep closed -> new ClosedLoopRunner(closed, info, run).run();
            case OpenLoopStep open -> new OpenLoopRunner(open, info, run).run();
        };
    }

    /**
     * Builds the window and reports it to the listener. The window runs from the end of warm-up to the
     * moment the step stopped issuing load ({@code issueStop}; {@code -1} when it never did, i.e. it was
     * interrupted first: then up to now). The drain after that (in-flight requests finishing) is outside the
     * window: windowed rates and {@code concurrency_mean} describe the load level as it was held, while the
     * drained requests still count in the latency distributions of the step they were sent in. The client
     * monitor's window ends with it, and its health goes to the listener with the window.
     */
    static ExecutedStep finish(RunContext run, StepInfo info, long stepStart, long warmupEnd, long issueStop,
                             boolean completed, ClientMonitor monitor) {
        run.listener.stepLoadStopping(info); // again (an interrupted step has not yet): before the clock read
        long now = run.clock.now();
        long end = Math.max(issueStop >= 0 ? Math.min(issueStop, now) : now, stepStart);
        StepWindow window = new StepWindow(stepStart, Math.min(warmupEnd, end), end, completed);
        monitor.endWindow(end);
        ClientHealth health = monitor.stop();
        run.listener.stepFinished(info, window, health);
        return new ExecutedStep(info, window, health);
    }
}
