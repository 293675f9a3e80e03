package dev.kneepoint.load;

import static dev.kneepoint.load.FakeSender.ms;
import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;
import static org.assertj.core.api.Assertions.within;

import dev.kneepoint.metrics.RequestRecord;
import dev.kneepoint.metrics.StepInfo;
import dev.kneepoint.request.RequestSpec;
import dev.kneepoint.request.Workload;
import java.time.Duration;
import java.util.List;
import org.junit.jupiter.api.Test;

/** A trace's instants as an arrival plan: exact offsets, time scale, windows, and a step of its own workload. */
class TraceArrivalTest {
    /** 0, 100, 100, 250, 1000 ms: a burst of two at 100 ms. */
    private static final long[] TRACE = {0, ms(100), ms(100), ms(250), ms(1000)};

    @Test
    void offsetsAreTheTraceInstantsDividedByTheTimeScale() {
        assertThat(ArrivalPlan.trace(TRACE, 1.0).offsets(Long.MAX_VALUE, Long.MAX_VALUE)).containsExactly(TRACE);
        assertThat(ArrivalPlan.trace(TRACE, 2.0).offsets(Long.MAX_VALUE, Long.MAX_VALUE))
                .containsExactly(0, ms(50), ms(50), ms(125), ms(500));
        // 1/3 speed-up of 100 ms is 33,333,333.33 ns: rounded to the nanosecond from the exact value.
        assertThat(ArrivalPlan.trace(TRACE, 3.0).offsets(Long.MAX_VALUE, Long.MAX_VALUE))
                .containsExactly(0, 33_333_333, 33_333_333, 83_333_333, 333_333_333);
        assertThat(ArrivalPlan.trace(TRACE, 0.5).offsets(Long.MAX_VALUE, Long.MAX_VALUE))
                .containsExactly(0, ms(200), ms(200), ms(500), ms(2000));
    }

    @Test
    void theNominalRateIsCountOverSpanAndAnotherRateRescalesTheTrace() {
        ArrivalPlan plan = ArrivalPlan.trace(TRACE, 1.0);
        assertThat(plan.rateRps()).isEqualTo(5.0); // 5 requests over 1 s
        assertThat(plan.withTimeScale(4).rateRps()).isEqualTo(20.0);
        assertThat(plan.label()).isEqualTo("trace(scale=1)");
        assertThat(plan.withTimeScale(2.5).label()).isEqualTo("trace(scale=2.5)");
        ArrivalPlan at10 = plan.withRate(10);
        assertThat(at10.timeScale()).isCloseTo(2.0, within(1e-12));
        assertThat(at10.offsets(Long.MAX_VALUE, Long.MAX_VALUE)).containsExactly(0, ms(50), ms(50), ms(125), ms(500));
        // One instant, or all at once: the span is taken as 1 ms so the rate stays finite.
        assertThat(ArrivalPlan.trace(new long[] {0, 0, 0}, 1).rateRps()).isEqualTo(3000.0);
        assertThat(plan).isEqualTo(ArrivalPlan.trace(TRACE.clone(), 1.0)).isNotEqualTo(plan.withTimeScale(2));
        assertThat(plan).isNotEqualTo(ArrivalPlan.constant(5.0));
        assertThat(plan.cv()).isNaN();
    }

    @Test
    void theHorizonAndTheCountCutTheTrace() {
        ArrivalPlan plan = ArrivalPlan.trace(TRACE, 1.0);
        assertThat(plan.offsets(ms(250), Long.MAX_VALUE)).containsExactly(0, ms(100), ms(100));
        assertThat(plan.offsets(Long.MAX_VALUE, 2)).containsExactly(0, ms(100));
        // Counted after a 100 ms warm-up: 0 is warm-up, then 2 measured.
        assertThat(plan.offsets(Long.MAX_VALUE, ms(100), 2)).containsExactly(0, ms(100), ms(100));
    }

    @Test
    void badTracesAreRefusedWithEveryProblem() {
        assertThatThrownBy(() -> ArrivalPlan.trace(new long[] {0, 5, 3}, 0))
                .hasMessageContaining("offset 2 is 3 ns after 5 ns")
                .hasMessageContaining("time scale must be a finite number > 0");
        assertThatThrownBy(() -> ArrivalPlan.trace(new long[0], 1)).hasMessageContaining("at least one");
        assertThatThrownBy(() -> ArrivalPlan.constant(1).withTimeScale(2)).hasMessageContaining("only a trace");
    }

    @Test
    void aTraceStepIsLabelledAsSuchAndDescribesItsNominalRate() {
        OpenLoopStep step = OpenLoopStep.builder().arrival(ArrivalPlan.trace(TRACE, 2.0))
                .duration(Duration.ofMillis(501)).build();
        assertThat(step.label()).isEqualTo("trace x2");
        assertThat(step.plannedOffsets()).containsExactly(0, ms(50), ms(50), ms(125), ms(500));
        assertThat(step.info(0)).isEqualTo(new StepInfo(0, "trace x2", "open", -1, 10.0, "trace(scale=2)", -1, "",
                0, ms(501), -1));
        assertThat(OpenLoopStep.builder().arrival(ArrivalPlan.trace(TRACE, 1.0)).maxRequests(5).build().label())
                .isEqualTo("trace");
    }

    /**
     * The step's own workload is indexed by plan position, not by the run-wide id: with a closed-loop step first
     * (ids 0..k taken), trace record i still goes out at instant i. Fired at stepStart + offset: each t_intended
     * is exact.
     */
    @Test
    void aStepsOwnWorkloadSendsRecordIAtInstantI() {
        FakeSender sender = FakeSender.fixedLatency(ms(5));
        RecordingListener listener = new RecordingListener();
        Workload byPosition = i -> new RequestSpec("record " + i, List.of(), (int) (10 + i), -1, java.util.Map.of(),
                "trace");
        OpenLoopStep trace = OpenLoopStep.builder().arrival(ArrivalPlan.trace(TRACE, 4.0)).workload(byPosition)
                .maxRequests(5).build();
        ClosedLoopStep first = ClosedLoopStep.builder().concurrency(1).maxRequests(3).build();
        LoadRun.builder().sender(sender).workload(ClosedLoopTest.WORKLOAD).listener(listener)
                .clock(dev.kneepoint.metrics.RunClock.system()).ladder(StepSequence.of(List.of(first, trace))).build().run();

        List<RequestRecord> rs = OpenLoopTest.byId(listener.of("trace x4"));
        assertThat(rs).hasSize(5).allMatch(RequestRecord::isOk);
        assertThat(rs.get(0).id()).isGreaterThanOrEqualTo(3);
        long start = listener.stepStarts.get(1);
        long[] expected = {0, ms(25), ms(25), 62_500_000, ms(250)};
        for (int i = 0; i < 5; i++) {
            assertThat(rs.get(i).timing().intendedNanos() - start).isEqualTo(expected[i]);
            assertThat(rs.get(i).tokens().requestedOutputTokens()).as("record of plan position " + i).isEqualTo(10 + i);
        }
    }
}
