package dev.kneepoint.load;

import dev.kneepoint.metrics.StepInfo;
import dev.kneepoint.metrics.StepWindow;

/** Runs any {@link Step} and closes it with {@code stepFinished}. */
final class StepRunners {
    /** How long cancelled requests get to end (twice: before and after interrupting their threads). */
    static final long CANCEL_GRACE_NANOS = RequestTracker.millis(400);

    private StepRunners() {}

    /**
     * Runs {@code step} on the calling thread, calling {@code stepStarted} before and {@code stepFinished}
     * after. Returns its window; {@code completed} is false when the thread was interrupted, in which case
     * the interrupt status is set on return.
     */
    static StepWindow run(Step step, StepInfo info, RunContext run) {
        return switch (step) {
            case ClosedLoopStep closed -> new ClosedLoopRunner(closed, info, run).run();
            case OpenLoopStep open -> new OpenLoopRunner(open, info, run).run();
        };
    }

    /** Builds the window (from the end of warm-up to now) and reports it to the listener. */
    static StepWindow finish(RunContext run, StepInfo info, long stepStart, long warmupEnd, boolean completed) {
        long end = Math.max(run.clock.now(), stepStart);
        StepWindow window = new StepWindow(stepStart, Math.min(warmupEnd, end), end, completed);
        run.listener.stepFinished(info, window);
        return window;
    }
}
