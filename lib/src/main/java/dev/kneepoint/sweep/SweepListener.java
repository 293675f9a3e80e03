package dev.kneepoint.sweep;

import dev.kneepoint.load.LoadProgress;
import dev.kneepoint.metrics.StepResult;

/**
 * A sweep's live progress ({@link Sweep#progress}) that also hears each step's measured result, for displays that
 * print the step's outcome counts as it ends (the command line's console). The bare load layer does not aggregate,
 * so only a {@link Sweep} calls {@link #stepMeasured}.
 */
public interface SweepListener extends LoadProgress {
    /**
     * Step {@code result.info()} was measured: its counts of every outcome (OK, failed by class, cancelled). Called on
     * the thread running the sweep, right after {@link #stepEnded} of the same step; must be quick.
     */
    default void stepMeasured(StepResult result) {}

    /**
     * The sweep plans its steps as it goes (an SLO search, a rate sweep) and runs at most {@code steps} of them: the
     * step count {@link #stepStarting} sees is the steps planned so far, not the run's. Called once, before the first
     * step; not called for a ladder given in advance.
     */
    default void plansAtMost(int steps) {}
}
