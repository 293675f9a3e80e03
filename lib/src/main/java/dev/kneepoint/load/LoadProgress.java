package dev.kneepoint.load;

import dev.kneepoint.metrics.StepInfo;
import java.time.Duration;

/**
 * Live progress of a run, for displays (separate from the results: the raw facts go to the
 * {@code RunListener}, the outcome is the returned {@link LoadResult}). All methods are called on the
 * thread driving the run, in order: for each step {@code stepStarting} then {@code stepEnded}, a
 * {@code pausing} between steps, and {@code runEnded} last. Implementations must be quick.
 */
public interface LoadProgress {
    /**
     * Step {@code step.index()} of {@code stepCount} is about to start. {@code stepCount} is the run's total as known
     * now: it grows when a gate appends steps ({@link GateDecision.Extend}).
     */
    default void stepStarting(StepInfo step, int stepCount) {}

    /** A step ended; {@code decision} is the gate's verdict (a {@code Stop} for an interrupted step). */
    default void stepEnded(ExecutedStep step, GateDecision decision) {}

    /** The run pauses between two steps. */
    default void pausing(Duration pause) {}

    default void runEnded(LoadResult result) {}

    /** Progress that ignores everything. */
    LoadProgress NONE = new LoadProgress() {};
}
