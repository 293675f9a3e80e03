package dev.kneepoint.load;

import java.util.List;
import java.util.Objects;

/**
 * What a {@link StepGate} decides after a step: go on to the next step, stop the ladder and say why, or go on
 * and append more steps planned from what was measured so far (an adaptive ladder, e.g. the rate sweep of
 * {@code Sweep.rateSweep}).
 */
public sealed interface GateDecision {

    /** Go on to the next step. */
    record Proceed() implements GateDecision {}

    /** Stop the ladder; {@code reason} is reported in the run's result (e.g. "p99 ttft_sched 2.1 s > 1 s"). */
    record Stop(String reason) implements GateDecision {
        public Stop {
            Objects.requireNonNull(reason, "reason");
        }
    }

    /**
     * Go on, with {@code more} appended after the ladder's remaining steps, in order. Their labels must differ
     * from every step's of the run; a run with per-step background rates ({@link BackgroundStream#perStep()})
     * refuses it, since those rates are one per planned step. {@code note} says why they were added (shown in
     * progress events, may be empty).
     */
    record Extend(List<Step> more, String note) implements GateDecision {
        public Extend {
            Objects.requireNonNull(more, "more");
            Objects.requireNonNull(note, "note");
            if (more.isEmpty() || more.stream().anyMatch(Objects::isNull)) {
                throw new IllegalArgumentException("Extend needs at least one step and no null steps, got " + more);
            }
            more = List.copyOf(more);
        }
    }

    static GateDecision proceed() {
        return new Proceed();
    }

    static GateDecision stop(String reason) {
        return new Stop(reason);
    }

    /** Proceed and append {@code more} to the ladder (see {@link Extend}). */
    static GateDecision extend(List<? extends Step> more, String note) {
        return new Extend(List.copyOf(Objects.requireNonNull(more, "more")), note);
    }
}
