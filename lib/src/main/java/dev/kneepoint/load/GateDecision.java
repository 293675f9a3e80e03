package dev.kneepoint.load;

import java.util.Objects;

/** What a {@link StepGate} decides after a step: go on to the next step, or stop the ladder and say why. */
public sealed interface GateDecision {

    /** Go on to the next step. */
    record Proceed() implements GateDecision {}

    /** Stop the ladder; {@code reason} is reported in the run's result (e.g. "p99 ttft_sched 2.1 s > 1 s"). */
    record Stop(String reason) implements GateDecision {
        public Stop {
            Objects.requireNonNull(reason, "reason");
        }
    }

    static GateDecision proceed() {
        return new Proceed();
    }

    static GateDecision stop(String reason) {
        return new Stop(reason);
    }
}
