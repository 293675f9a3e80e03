package dev.kneepoint.load;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.time.Duration;
import java.util.List;
import org.junit.jupiter.api.Test;

/** Trials of a ladder: the interleaved order, the labels, and open-loop trials that draw their own arrivals. */
class StepTrialsTest {
    private static final OpenLoopStep OPEN = OpenLoopStep.builder().arrival(ArrivalPlan.poisson(50, 7))
            .duration(Duration.ofSeconds(2)).build();

    @Test
    void theLadderRunsTrialAfterTrialWithTheBaselineOnce() {
        ClosedLoopStep template = ClosedLoopStep.builder().duration(Duration.ofSeconds(1)).build();
        StepSequence ladder = StepSequence.concurrency(List.of(1, 4), template).withBaseline().withTrials(2);
        assertThat(ladder.steps()).extracting(Step::label)
                .containsExactly("baseline", "c=1 #1", "c=4 #1", "c=1 #2", "c=4 #2");
        assertThat(ladder.steps()).extracting(Step::trial).containsExactly(0, 1, 1, 2, 2);
        assertThat(ladder.steps().get(4).info(4).loadLabel()).isEqualTo("c=4");
        assertThat(ladder.steps().get(4).info(4).trial()).isEqualTo(2);
        assertThat(StepSequence.concurrency(List.of(1), template).withTrials(1).steps()).extracting(Step::label)
                .containsExactly("c=1");
        assertThatThrownBy(() -> StepSequence.single(template).withTrials(0)).hasMessageContaining("at least 1 trial");
    }

    @Test
    void anOpenLoopTrialAfterTheFirstDrawsItsOwnArrivals() {
        OpenLoopStep first = OPEN.asTrial(1);
        OpenLoopStep second = OPEN.asTrial(2);
        // Trial 1 is the step an unrepeated sweep runs; trial 2 is another draw of the same process and rate.
        assertThat(first.plannedOffsets()).isEqualTo(OPEN.plannedOffsets());
        assertThat(second.plannedOffsets()).isNotEqualTo(first.plannedOffsets());
        assertThat(second.arrival().rateRps()).isEqualTo(first.arrival().rateRps());
        assertThat(second.label()).isEqualTo("rate=50 #2");
        // A trial of a trial is the load's trial, not a label with two suffixes.
        assertThat(second.asTrial(3).label()).isEqualTo("rate=50 #3");
    }
}
