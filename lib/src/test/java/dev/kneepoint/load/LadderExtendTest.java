package dev.kneepoint.load;

import static dev.kneepoint.load.FakeSender.ms;
import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import dev.kneepoint.metrics.RunClock;
import dev.kneepoint.metrics.StepInfo;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import org.junit.jupiter.api.Test;

/** A gate's {@link GateDecision.Extend}: the appended steps run, in order, and progress counts them. */
class LadderExtendTest {
    private static final ClosedLoopStep TEMPLATE = ClosedLoopStep.builder().maxRequests(2).build();

    private static LoadRun.Builder runOf(StepSequence ladder, RecordingListener listener) {
        return LoadRun.builder().sender(FakeSender.fixedLatency(ms(2))).workload(ClosedLoopTest.WORKLOAD)
                .listener(listener).clock(RunClock.system()).ladder(ladder);
    }

    @Test
    void appendedStepsRunInOrderAfterTheRemainingOnesAndProgressShowsTheNewTotal() {
        List<String> progress = new ArrayList<>();
        LoadProgress recorder = new LoadProgress() {
            @Override public void stepStarting(StepInfo step, int stepCount) {
                progress.add((step.index() + 1) + "/" + stepCount + " " + step.label());
            }
            @Override public void stepEnded(ExecutedStep step, GateDecision decision) {
                if (decision instanceof GateDecision.Extend e) {
                    progress.add("extend " + e.more().size() + " " + e.note());
                }
            }
        };
        OpenLoopStep open = OpenLoopStep.builder().arrival(ArrivalPlan.constant(200)).maxRequests(2).build();
        // Extends after the first step (c=1) while c=2 is still to come: the new steps go after c=2, not before.
        StepGate gate = (step, window) -> step.label().equals("c=1")
                ? GateDecision.extend(List.of(open.withRate(100), open.withRate(150), TEMPLATE.withConcurrency(3)),
                        "planned")
                : GateDecision.proceed();
        RecordingListener listener = new RecordingListener();

        LoadResult result = runOf(StepSequence.concurrency(List.of(1, 2), TEMPLATE).withGate(gate), listener)
                .progress(recorder).build().run();

        assertThat(listener.events).containsExactly("start c=1", "finish c=1", "start c=2", "finish c=2",
                "start rate=100", "finish rate=100", "start rate=150", "finish rate=150", "start c=3", "finish c=3");
        assertThat(listener.started).extracting(StepInfo::index).containsExactly(0, 1, 2, 3, 4);
        assertThat(listener.started).extracting(StepInfo::mode)
                .containsExactly("closed", "closed", "open", "open", "closed");
        assertThat(listener.started.get(3).rateRps()).isEqualTo(150.0);
        assertThat(progress).containsExactly("1/2 c=1", "extend 3 planned", "2/5 c=2", "3/5 rate=100",
                "4/5 rate=150", "5/5 c=3");
        assertThat(result.ending()).isEqualTo(LoadResult.Ending.COMPLETED);
        assertThat(result.reason()).isEqualTo("all 5 steps completed");
        assertThat(result.steps()).hasSize(5);
        for (String label : List.of("c=1", "c=2", "rate=100", "rate=150", "c=3")) {
            assertThat(listener.of(label)).as(label).hasSize(2);
        }
        assertThat(listener.violation).isNull();
    }

    @Test
    void aGateMayExtendAgainAndStopAnAppendedStep() {
        StepGate gate = (step, window) -> switch (step.label()) {
            case "c=1" -> GateDecision.extend(List.of(TEMPLATE.withConcurrency(2)), "");
            case "c=2" -> GateDecision.extend(List.of(TEMPLATE.withConcurrency(4), TEMPLATE.withConcurrency(8)), "");
            case "c=4" -> GateDecision.stop("enough");
            default -> GateDecision.proceed();
        };
        RecordingListener listener = new RecordingListener();

        LoadResult result = runOf(StepSequence.single(TEMPLATE).withGate(gate), listener).build().run();

        assertThat(result.steps()).extracting(s -> s.info().label()).containsExactly("c=1", "c=2", "c=4");
        assertThat(result.ending()).isEqualTo(LoadResult.Ending.GATE_STOPPED);
        assertThat(result.reason()).isEqualTo("stopped after step 'c=4': enough");
    }

    @Test
    void extendingWithARepeatedLabelOrUnderPerStepBackgroundFailsTheRunWithTheReason() {
        StepGate repeat = (step, window) -> step.label().equals("c=1")
                ? GateDecision.extend(List.of(TEMPLATE.withConcurrency(1)), "") : GateDecision.proceed();
        assertThatThrownBy(() -> runOf(StepSequence.single(TEMPLATE).withGate(repeat), new RecordingListener()).build().run())
                .isInstanceOf(IllegalStateException.class).hasMessageContaining("added a step labelled 'c=1'")
                .hasMessageContaining("labels must be unique");

        StepGate more = (step, window) -> step.label().equals("c=1")
                ? GateDecision.extend(List.of(TEMPLATE.withConcurrency(2)), "") : GateDecision.proceed();
        BackgroundStream perStep = new BackgroundStream(ClosedLoopTest.WORKLOAD, ArrivalPlan.poisson(5, 1),
                BackgroundStream.DEFAULT_TAG, Duration.ofSeconds(1)).withStepRates(new double[] {0});
        RecordingListener listener = new RecordingListener();
        assertThatThrownBy(() -> runOf(StepSequence.single(TEMPLATE).withGate(more), listener).background(perStep)
                .build().run())
                .isInstanceOf(IllegalStateException.class).hasMessageContaining("one rate per planned step")
                .hasMessageContaining("steady background");
        assertThat(listener.events).containsExactly("start c=1", "finish c=1");
        assertThatThrownBy(() -> GateDecision.extend(List.of(), "")).hasMessageContaining("at least one step");
    }
}
