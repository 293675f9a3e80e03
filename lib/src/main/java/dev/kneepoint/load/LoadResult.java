package dev.kneepoint.load;

import java.util.List;
import java.util.Objects;

/**
 * How a load run went, as data: the steps that ran (with their windows) and why the run ended. The
 * measurements themselves went to the {@code RunListener}.
 *
 * @param steps  executed steps in order; the last one is incomplete when the run was stopped or interrupted
 * @param ending why the run ended
 * @param reason human-readable detail (the gate's reason when it stopped the ladder)
 */
public record LoadResult(List<ExecutedStep> steps, Ending ending, String reason) {

    /** Why a run ended. */
    public enum Ending {
        /** Every step ran to its bound. */
        COMPLETED,
        /** The {@link StepGate} stopped the ladder after a step. */
        GATE_STOPPED,
        /** {@link RunHandle#stop()} or {@link RunHandle#close()}. */
        STOPPED,
        /** The thread running the run was interrupted. */
        INTERRUPTED
    }

    public LoadResult {
        steps = List.copyOf(steps);
        Objects.requireNonNull(ending, "ending");
        Objects.requireNonNull(reason, "reason");
    }

    /** True when every planned step ran to its bound. */
    public boolean completed() {
        return ending == Ending.COMPLETED;
    }
}
