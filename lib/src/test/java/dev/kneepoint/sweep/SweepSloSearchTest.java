package dev.kneepoint.sweep;

import static dev.kneepoint.analysis.Ladders.s;
import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import dev.kneepoint.Kneepoint;
import dev.kneepoint.analysis.Ladders;
import dev.kneepoint.client.TargetConfig;
import dev.kneepoint.load.GateDecision;
import dev.kneepoint.metrics.Slo;
import dev.kneepoint.metrics.StepResult;
import java.util.ArrayList;
import java.util.List;
import org.junit.jupiter.api.Test;

/** The SLO search's plan, probe by probe, on synthetic results with a known answer. */
class SweepSloSearchTest {
    private static final TargetConfig NOWHERE = Kneepoint.target("http://127.0.0.1:9", "m");
    private static final Slo TTFT = Slo.builder().ttftMs(150).build();

    private static SweepSpec spec(String dimension) {
        return Kneepoint.sweep(NOWHERE).sloSearch(dimension).slo(TTFT).validate();
    }

    /** The label of the next probe, or "done" when the plan proceeds with nothing appended. */
    private static String next(SweepSpec spec, Ladders.Spec... probes) {
        List<StepResult> results = new ArrayList<>(Ladders.run("r", probes).steps());
        GateDecision d = SweepSloSearch.plan(spec, (SweepSpec.Mode.SloSearch) spec.mode(), results);
        return switch (d) {
            case GateDecision.Extend e -> e.more().get(0).label();
            case GateDecision.Proceed p -> "done";
            case GateDecision.Stop st -> "stop: " + st.reason();
        };
    }

    @Test
    void usersDoubleUntilOneFailsThenTheBracketIsBisectedToAdjacentLoads() {
        SweepSpec spec = spec("concurrency");
        assertThat(spec.steps().duration()).isEqualTo(SweepDefaults.STEP_DURATION);
        assertThat(SweepPlan.ladder(spec, null).steps()).extracting(x -> x.label()).containsExactly("c=1");
        var pass = new Ladders.Spec[] {s(1, 10, 10), s(2, 20, 10), s(4, 40, 10)};
        assertThat(next(spec, pass[0])).isEqualTo("c=2");
        assertThat(next(spec, pass)).isEqualTo("c=8");
        var fail8 = s(8, 40, 900).good(0.6);
        assertThat(next(spec, pass[0], pass[1], pass[2], fail8)).isEqualTo("c=6");
        var fail6 = s(6, 40, 600).good(0.8);
        assertThat(next(spec, pass[0], pass[1], pass[2], fail8, fail6)).isEqualTo("c=5");
        // 4 passes and 5 fails: the bracket is closed, nothing more to probe.
        assertThat(next(spec, pass[0], pass[1], pass[2], fail8, fail6, s(5, 40, 300).good(0.8))).isEqualTo("done");
        // One user already failing: there is nothing lower to find.
        assertThat(next(spec, s(1, 10, 10).good(0.5))).isEqualTo("done");
    }

    @Test
    void ratesStartAtTheSynchronousRateDoubleHalveAndStopWithinTheTolerance() {
        SweepSpec spec = spec("rate");
        assertThat(SweepPlan.ladder(spec, null).steps()).extracting(x -> x.label()).containsExactly("synchronous");
        // The synchronous probe: one user completed 1000 requests in 60 s (16.667 req/s): the first rate.
        assertThat(next(spec, s(1, 100, 60).label("synchronous"))).isEqualTo("rate=16.667");
        assertThat(next(spec, s(16.667, 100, 10).open())).isEqualTo("rate=33.334");
        assertThat(next(spec, s(16.667, 100, 10).open().good(0.5))).isEqualTo("rate=8.3335");
        // Bisecting 16.667 (pass) .. 33.334 (fail): their mean 25.0005, to 5 digits, next; 16.667 .. 17.2 is within 5%.
        assertThat(next(spec, s(16.667, 100, 10).open(), s(33.334, 100, 10).open().good(0.5))).isEqualTo("rate=25.001");
        assertThat(next(spec, s(16.667, 100, 10).open(), s(17.2, 100, 10).open().good(0.5))).isEqualTo("done");
    }

    @Test
    void theProbesRunOutAtTheirBound() {
        SweepSpec spec = Kneepoint.sweep(NOWHERE).sloSearch("concurrency").slo(TTFT).sloSearchMaxProbes(3).validate();
        assertThat(next(spec, s(1, 10, 10), s(2, 20, 10), s(4, 40, 10))).isEqualTo("done");
    }

    @Test
    void badSettingsAreNamedAllAtOnce() {
        assertThatThrownBy(() -> Kneepoint.sweep(NOWHERE).sloSearch("users").concurrency(1, 2).sloAttainment(1.5)
                .stopWhenFailureRateAbove(0.1).validate())
                .hasMessageContaining("sloSearch searches 'concurrency' (closed loop) or 'rate' (open loop), got 'users'")
                .hasMessageContaining("sloSearch needs a latency SLO to search against")
                .hasMessageContaining("sloAttainment must be a fraction in (0, 1)")
                .hasMessageContaining("an SLO search plans its own steps: remove the concurrency levels and the stop "
                        + "bounds");
    }
}
