package dev.kneepoint.sweep;

import dev.kneepoint.load.ExecutedStep;
import dev.kneepoint.load.GateDecision;
import dev.kneepoint.load.LoadProgress;
import dev.kneepoint.load.LoadResult;
import dev.kneepoint.metrics.StepInfo;
import dev.kneepoint.metrics.StepProgress;
import dev.kneepoint.metrics.StepResult;
import java.time.Duration;
import java.util.Optional;
import java.util.function.Function;
import java.util.function.LongSupplier;
import java.util.function.Supplier;

/**
 * Follows a sweep's steps as the load layer starts them ({@link LoadProgress}), passing every event on to the user's
 * own progress (and, to a {@link SweepListener}, each ended step's result), and answers {@link SweepProgress}
 * snapshots from any thread.
 */
final class ProgressTracker implements LoadProgress {
    private final LoadProgress user;
    private final SweepSpec.Steps plan;
    private final Supplier<Optional<StepProgress>> live;
    private final LongSupplier nanoTime;
    /** A finished step's result by label, if the aggregator has it. */
    private final Function<String, Optional<StepResult>> results;
    private final long startNanos;
    private volatile StepInfo current;
    private volatile int stepCount;
    private volatile int stepsAtMost;
    private volatile long stepStartNanos;

    ProgressTracker(LoadProgress user, SweepSpec.Steps plan, Supplier<Optional<StepProgress>> live, LongSupplier nanoTime) {
        this(user, plan, live, nanoTime, label -> Optional.empty());
    }

    ProgressTracker(LoadProgress user, SweepSpec.Steps plan, Supplier<Optional<StepProgress>> live, LongSupplier nanoTime,
                    Function<String, Optional<StepResult>> results) {
        this.results = results;
        this.user = user == null ? LoadProgress.NONE : user;
        this.plan = plan;
        this.live = live;
        this.nanoTime = nanoTime;
        this.startNanos = nanoTime.getAsLong();
    }

    /** Tells a {@link SweepListener} that the sweep plans at most {@code steps} steps as it goes (0: a fixed ladder). */
    void plansAtMost(int steps) {
        stepsAtMost = Math.max(0, steps);
        if (steps > 0 && user instanceof SweepListener listener) {
            listener.plansAtMost(steps);
        }
    }

    @Override
    public void stepStarting(StepInfo step, int count) {
        stepStartNanos = nanoTime.getAsLong();
        stepCount = count;
        current = step;
        user.stepStarting(step, count);
    }

    @Override
    public void stepEnded(ExecutedStep step, GateDecision decision) {
        user.stepEnded(step, decision);
        if (user instanceof SweepListener listener) {
            results.apply(step.info().label()).ifPresent(listener::stepMeasured);
        }
    }

    @Override
    public void pausing(Duration pause) {
        user.pausing(pause);
    }

    @Override
    public void runEnded(LoadResult result) {
        user.runEnded(result);
    }

    SweepProgress snapshot() {
        long now = nanoTime.getAsLong();
        StepInfo s = current;
        double elapsed = (now - startNanos) / 1e9;
        if (s == null) {
            return new SweepProgress(0, stepCount, stepsAtMost, "", Optional.empty(), elapsed, Double.NaN);
        }
        return new SweepProgress(s.index() + 1, stepCount, stepsAtMost, s.label(), live.get(), elapsed,
                remainingS(s, SweepProgress.bound(stepCount, stepsAtMost), (now - stepStartNanos) / 1e9));
    }

    /**
     * The running step's planned rest plus warm-up, window and pause of each later step up to {@code count} (a bound
     * for a sweep that plans as it goes); NaN when not timed.
     */
    private double remainingS(StepInfo s, int count, double inStepS) {
        if (s.durationNanos() < 0) {
            return Double.NaN;
        }
        double thisStep = (s.warmupNanos() + s.durationNanos()) / 1e9;
        double later = (count - s.index() - 1)
                * (plan.warmup().toNanos() + plan.duration().toNanos() + plan.pause().toNanos()) / 1e9;
        return Math.max(0, thisStep - inStepS) + later;
    }
}
