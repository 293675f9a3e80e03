package dev.kneepoint.load;

import dev.kneepoint.metrics.StepInfo;
import dev.kneepoint.metrics.StepWindow;

/**
 * The stop condition of a ladder, evaluated after each completed step on the thread driving the run
 * (after {@code RunListener.stepFinished} of that step, so results aggregated from the listener are
 * complete). Typically implemented from aggregated results: failure rate or p99 over a bound; an adaptive ladder
 * answers {@link GateDecision.Extend} to append steps planned from them (see {@link LoadRun}).
 * Not called for a step that was interrupted.
 */
@FunctionalInterface
public interface StepGate {
    GateDecision evaluate(StepInfo step, StepWindow window);

    /** A gate that never stops the ladder. */
    static StepGate always() {
        return (step, window) -> GateDecision.proceed();
    }
}
