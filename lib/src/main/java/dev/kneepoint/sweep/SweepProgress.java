package dev.kneepoint.sweep;

import dev.kneepoint.metrics.StepProgress;
import java.util.Optional;

/**
 * Where a running sweep is, for progress displays: which step of how many, that step's live snapshot, and the time
 * left by the plan.
 *
 * @param stepNumber  the step now running, from 1 (0 before the first starts)
 * @param stepCount   the steps planned as known now (a gate that extends the ladder raises it)
 * @param stepsAtMost the most steps a sweep that plans as it goes may run (an SLO search's probes, a rate sweep's
 *                    probes and steps), so "step 3 of at most 12"; 0 for a ladder known in advance
 * @param stepLabel   the running step's label, empty before the first starts
 * @param step        the running step's live snapshot (requests done and failed, tok/s, TTFT p99 so far)
 * @param elapsedS    seconds since the sweep started
 * @param remainingS  seconds left by the plan (the running step's rest, then warm-up, window and pause of every
 *                    step after it, up to {@code stepsAtMost} when that is set: then a bound); NaN when a step is
 *                    bounded by a request count or a whole trace
 */
public record SweepProgress(int stepNumber, int stepCount, int stepsAtMost, String stepLabel,
                            Optional<StepProgress> step, double elapsedS, double remainingS) {
    /** A snapshot of a ladder known in advance ({@code stepsAtMost} 0). */
    public SweepProgress(int stepNumber, int stepCount, String stepLabel, Optional<StepProgress> step, double elapsedS,
                         double remainingS) {
        this(stepNumber, stepCount, 0, stepLabel, step, elapsedS, remainingS);
    }

    /** The steps to count to: {@code stepsAtMost} when the sweep plans as it goes, the planned count otherwise. */
    public int stepsBound() {
        return bound(stepCount, stepsAtMost);
    }

    /**
     * The steps a sweep counts to, given those planned so far and its bound (0: a ladder known in advance, whose
     * count is the planned one); the one rule of every progress display, the kernel's and the console's.
     */
    public static int bound(int stepCount, int stepsAtMost) {
        return stepsAtMost > 0 ? Math.max(stepsAtMost, stepCount) : stepCount;
    }
}
