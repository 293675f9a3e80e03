package dev.kneepoint.sweep;

import dev.kneepoint.metrics.StepProgress;
import java.util.Optional;

/**
 * Where a running sweep is, for progress displays: which step of how many, that step's live snapshot, and the time
 * left by the plan.
 *
 * @param stepNumber  the step now running, from 1 (0 before the first starts)
 * @param stepCount   the steps planned as known now (a gate that extends the ladder raises it)
 * @param stepLabel   the running step's label, empty before the first starts
 * @param step        the running step's live snapshot (requests done and failed, tok/s, TTFT p99 so far)
 * @param elapsedS    seconds since the sweep started
 * @param remainingS  seconds left by the plan (the running step's rest, then warm-up, window and pause of every
 *                    step after it); NaN when a step is bounded by a request count or a whole trace
 */
public record SweepProgress(int stepNumber, int stepCount, String stepLabel, Optional<StepProgress> step,
                            double elapsedS, double remainingS) {}
