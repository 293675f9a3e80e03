package dev.kneepoint.sweep;

import static org.assertj.core.api.Assertions.assertThat;

import dev.kneepoint.load.LoadProgress;
import dev.kneepoint.metrics.StepInfo;
import dev.kneepoint.metrics.StepProgress;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Optional;
import java.util.concurrent.atomic.AtomicLong;
import org.junit.jupiter.api.Test;

/** Where a sweep is, by the plan and an injected clock; every event still reaches the user's own progress. */
class ProgressTrackerTest {
    static final SweepSpec.Steps PLAN = new SweepSpec.Steps(Duration.ofSeconds(4), Duration.ofSeconds(1),
            Duration.ofMillis(500), Duration.ofSeconds(30), -1, 1, false);

    static StepInfo closed(int index, int users, long warmupNs, long durationNs) {
        return new StepInfo(index, "c=" + users, StepInfo.CLOSED, users, Double.NaN, "", -1, "", warmupNs, durationNs, -1);
    }

    @Test
    void tellsStepOfStepsAndTheTimeLeftByThePlan() {
        AtomicLong now = new AtomicLong(1_000_000_000L);
        List<String> seen = new ArrayList<>();
        LoadProgress user = new LoadProgress() {
            @Override
            public void stepStarting(StepInfo step, int stepCount) {
                seen.add(step.label() + "/" + stepCount);
            }
        };
        StepProgress live = new StepProgress("c=4", 10, 0, 2, 100, 50, 55, 4);
        ProgressTracker t = new ProgressTracker(user, PLAN, () -> Optional.of(live), now::get);
        SweepProgress before = t.snapshot();
        assertThat(before.stepNumber()).isZero();
        assertThat(before.remainingS()).isNaN();

        now.addAndGet(3_000_000_000L);
        t.stepStarting(closed(0, 4, 1_000_000_000L, 4_000_000_000L), 3);
        now.addAndGet(2_000_000_000L); // 2 s into a 5 s step; two more steps of 1 + 4 + 0.5 s
        SweepProgress p = t.snapshot();
        assertThat(p.stepNumber()).isEqualTo(1);
        assertThat(p.stepCount()).isEqualTo(3);
        assertThat(p.stepLabel()).isEqualTo("c=4");
        assertThat(p.step()).contains(live);
        assertThat(p.elapsedS()).isEqualTo(5.0);
        assertThat(p.remainingS()).isEqualTo(3 + 2 * 5.5);
        assertThat(seen).containsExactly("c=4/3");

        t.stepStarting(closed(2, 16, 0, -1), 3); // bounded by a request count: no time left to tell
        assertThat(t.snapshot().remainingS()).isNaN();
    }

    @Test
    void aSweepThatPlansAsItGoesCountsToItsBoundAndItsTimeLeftIsABound() {
        AtomicLong now = new AtomicLong(0);
        ProgressTracker t = new ProgressTracker(null, PLAN, Optional::empty, now::get);
        t.plansAtMost(12); // an SLO search of at most 12 probes, two planned so far
        t.stepStarting(closed(1, 2, 1_000_000_000L, 4_000_000_000L), 2);
        now.addAndGet(1_000_000_000L);
        SweepProgress p = t.snapshot();
        assertThat(p.stepCount()).isEqualTo(2);
        assertThat(p.stepsAtMost()).isEqualTo(12);
        assertThat(p.stepsBound()).isEqualTo(12);
        assertThat(p.remainingS()).as("4 s of this step, then at most 10 more of 5.5 s").isEqualTo(4 + 10 * 5.5);
    }

    @Test
    void aWatcherThatFailsNeverStopsTheRun() {
        try {
            SweepWatch.install(p -> {
                throw new IllegalStateException("no display here");
            });
            SweepWatch.show(() -> null).close(); // opening failed: nothing shown, nothing thrown
            SweepWatch.install(p -> () -> {
                throw new IllegalStateException("cannot close");
            });
            SweepWatch.show(() -> null).close();
            List<SweepProgress> polled = new ArrayList<>();
            SweepWatch.install(p -> () -> polled.add(p.get()));
            SweepProgress one = new SweepProgress(1, 1, "c=1", Optional.empty(), 0, 0);
            SweepWatch.show(() -> one).close();
            assertThat(polled).containsExactly(one);
        } finally {
            SweepWatch.install(null);
        }
    }
}
