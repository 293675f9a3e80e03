package dev.kneepoint.load;

import static dev.kneepoint.load.FakeSender.ms;
import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import dev.kneepoint.metrics.RunClock;
import dev.kneepoint.metrics.StepInfo;
import dev.kneepoint.metrics.StepWindow;
import dev.kneepoint.request.Workload;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import org.junit.jupiter.api.Test;

class LadderRunTest {
    private static final ClosedLoopStep TEMPLATE = ClosedLoopStep.builder().maxRequests(3).build();

    private static LoadRun.Builder runOf(StepSequence ladder, RecordingListener listener) {
        return LoadRun.builder().sender(FakeSender.fixedLatency(ms(5))).workload(ClosedLoopTest.WORKLOAD)
                .listener(listener).clock(RunClock.system()).ladder(ladder);
    }

    @Test
    void stepsRunInOrderWithLabelsBaselineFirstAndPausesBetween() {
        List<String> progress = new ArrayList<>();
        LoadProgress recorder = new LoadProgress() {
            @Override public void stepStarting(StepInfo step, int stepCount) {
                progress.add("starting " + step.index() + "/" + stepCount + " " + step.label());
            }
            @Override public void pausing(Duration pause) { progress.add("pause " + pause.toMillis()); }
            @Override public void runEnded(LoadResult result) { progress.add("end " + result.ending()); }
        };
        StepSequence ladder = StepSequence.concurrency(List.of(1, 2, 4), TEMPLATE).withBaseline()
                .withPause(Duration.ofMillis(150));
        RecordingListener listener = new RecordingListener();

        LoadResult result = runOf(ladder, listener).progress(recorder).build().run();

        assertThat(listener.events).containsExactly("start baseline", "finish baseline", "start c=1", "finish c=1",
                "start c=2", "finish c=2", "start c=4", "finish c=4");
        assertThat(listener.started).extracting(StepInfo::index).containsExactly(0, 1, 2, 3);
        assertThat(listener.started).extracting(StepInfo::concurrency).containsExactly(1, 1, 2, 4);
        assertThat(progress).containsExactly("starting 0/4 baseline", "pause 150", "starting 1/4 c=1", "pause 150",
                "starting 2/4 c=2", "pause 150", "starting 3/4 c=4", "end COMPLETED");
        assertThat(result.ending()).isEqualTo(LoadResult.Ending.COMPLETED);
        assertThat(result.steps()).extracting(s -> s.info().label()).containsExactly("baseline", "c=1", "c=2", "c=4");
        for (String label : List.of("baseline", "c=1", "c=2", "c=4")) {
            assertThat(listener.of(label)).hasSize(3);
        }
        List<StepWindow> w = listener.windows;
        for (int k = 1; k < w.size(); k++) {
            long gap = w.get(k).stepStartNanos() - w.get(k - 1).endNanos();
            // The pause is a sleep of 150 ms taken between the two clock reads; a sleep never returns early
            // (hard lower bound). Noise only lengthens it: < 300 ms is the widest bound that still fails a pause
            // taken twice (>= 300 ms, hard), and leaves 150 ms for a late wake-up on a loaded machine.
            assertThat(gap).isGreaterThanOrEqualTo(ms(150)).isLessThan(ms(300));
        }
        assertThat(listener.violation).isNull();
    }

    @Test
    void theGateStopsTheLadderAndSaysWhy() {
        List<String> seen = new ArrayList<>();
        StepGate gate = (step, window) -> {
            seen.add(step.label() + (window.completed() ? "" : "!"));
            return step.concurrency() >= 2 ? GateDecision.stop("p99 ttft_sched 3.2 s over the 1 s bound")
                    : GateDecision.proceed();
        };
        RecordingListener listener = new RecordingListener();

        LoadResult result = runOf(StepSequence.concurrency(List.of(1, 2, 4, 8), TEMPLATE).withGate(gate), listener)
                .build().run();

        assertThat(seen).containsExactly("c=1", "c=2");
        assertThat(result.ending()).isEqualTo(LoadResult.Ending.GATE_STOPPED);
        assertThat(result.reason()).isEqualTo("stopped after step 'c=2': p99 ttft_sched 3.2 s over the 1 s bound");
        assertThat(result.steps()).hasSize(2);
        assertThat(listener.of("c=4")).isEmpty();
        assertThat(listener.events).containsExactly("start c=1", "finish c=1", "start c=2", "finish c=2");
    }

    @Test
    void rateLaddersAndBaselineOfAnOpenLoopLadder() {
        OpenLoopStep open = OpenLoopStep.builder().arrival(ArrivalPlan.poisson(1, 7)).warmup(Duration.ofSeconds(2))
                .duration(Duration.ofSeconds(30)).build();
        StepSequence ladder = StepSequence.rates(List.of(1.0, 2.5, 4.0), open).withBaseline();
        assertThat(ladder.steps()).extracting(Step::label).containsExactly("baseline", "rate=1", "rate=2.5", "rate=4");
        Step baseline = ladder.steps().get(0);
        assertThat(baseline).isInstanceOf(ClosedLoopStep.class);
        assertThat(baseline.info(0)).isEqualTo(new StepInfo(0, "baseline", "closed", 1, Double.NaN, "", -1, "",
                ms(2000), ms(30_000), -1));
        assertThat(((OpenLoopStep) ladder.steps().get(2)).arrival()).isEqualTo(ArrivalPlan.poisson(2.5, 7));
    }

    @Test
    void invalidLaddersAndRunsListEveryProblem() {
        assertThatThrownBy(() -> StepSequence.of(List.of(TEMPLATE, TEMPLATE)).withPause(Duration.ofSeconds(-1)))
                .hasMessageContaining("'c=1' appears twice");
        assertThatThrownBy(() -> StepSequence.single(TEMPLATE).withPause(Duration.ofSeconds(-1)))
                .hasMessageContaining("pause between steps must be >= 0");
        assertThatThrownBy(() -> StepSequence.of(List.of())).hasMessageContaining("at least one step");
        assertThatThrownBy(() -> LoadRun.builder().build())
                .hasMessageContaining("RequestSender is required").hasMessageContaining("Workload is required")
                .hasMessageContaining("RunListener is required").hasMessageContaining("a ladder or a step")
                .hasMessageContaining("4 problems");
        LoadRun once = runOf(StepSequence.single(TEMPLATE), new RecordingListener()).build();
        once.run();
        assertThatThrownBy(once::run).isInstanceOf(IllegalStateException.class).hasMessageContaining("already run");
    }

    @Test
    void aFailingListenerFailsTheRunWithoutLosingTheStepEnd() {
        RecordingListener listener = new RecordingListener() {
            @Override public void requestFinished(dev.kneepoint.metrics.RequestRecord record) {
                throw new IllegalArgumentException("disk full");
            }
        };
        LoadRun run = runOf(StepSequence.concurrency(List.of(1, 2), TEMPLATE), listener).build();
        assertThatThrownBy(run::run).isInstanceOf(IllegalStateException.class).hasMessageContaining("disk full");
        assertThat(listener.events).containsExactly("start c=1", "finish c=1");
    }

    @Test
    void aFailingWorkloadFailsTheRunInsteadOfHanging() {
        Workload broken = i -> {
            if (i == 3) {
                throw new IllegalArgumentException("no prompt for index 3");
            }
            return ClosedLoopTest.WORKLOAD.next(i);
        };
        RecordingListener listener = new RecordingListener();
        // Count-bounded only: if the failing user were not accounted for, the step would wait forever.
        LoadRun run = LoadRun.builder().sender(FakeSender.fixedLatency(ms(5))).workload(broken).listener(listener)
                .step(ClosedLoopStep.builder().concurrency(1).maxRequests(10).build()).build();
        assertThatThrownBy(run::run).isInstanceOf(IllegalStateException.class)
                .hasMessageContaining("Workload.next failed").hasMessageContaining("no prompt for index 3");
        assertThat(listener.events).containsExactly("start c=1", "finish c=1");
        assertThat(listener.of("c=1")).hasSize(3);
    }
}
