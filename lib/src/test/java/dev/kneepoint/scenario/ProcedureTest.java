package dev.kneepoint.scenario;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import dev.kneepoint.Kneepoint;
import dev.kneepoint.metrics.StepResult;
import dev.kneepoint.sim.Simulator;
import java.nio.file.Path;
import java.time.Duration;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import tech.tablesaw.api.Table;

/** The nine stages end to end against the simulator, shortened further than fast mode. */
class ProcedureTest {
    @TempDir
    Path runs;

    @Test
    void everyStageRunsAndTheLengthsChangeWhatTheyShould() {
        ProcedureOptions o = ProcedureOptions.fast().toBuilder().concurrency(1, 2, 4)
                .stepDuration(Duration.ofMillis(400)).warmup(Duration.ofMillis(100))
                .soakDuration(Duration.ofSeconds(3)).soakInterval(Duration.ofMillis(250)).outputDir(runs).build();
        try (Simulator sim = Kneepoint.simulator("fast")) {
            ProcedureResult p = Procedure.run(Kneepoint.target(sim), o);

            assertThat(p.environment()).containsKeys("host", "jvm", "cpus", "target_url", "model", "prompt_lengths");
            assertThat(p.environment().get("model")).isEqualTo("sim-fast");
            assertThat(p.calibration().exact()).isTrue();
            // Stage 2: exactly the fixed set of small requests, kept apart.
            StepResult w = p.warmup().steps().get(0);
            assertThat(w.counts().requestsOk() + w.counts().requestsFailed()).isEqualTo(8);
            assertThat(p.baseline().steps()).extracting(s -> s.info().label()).containsExactly("c=1");
            assertThat(p.ladder().steps()).hasSize(3);
            Table joint = p.joint();
            assertThat(joint.rowCount()).isEqualTo(1 + 3 * 3);
            assertThat(joint.stringColumn("stage").unique().asList())
                    .containsExactlyInAnyOrder("baseline", "ladder", "long_prompts", "long_outputs");
            assertThat(joint.stringColumn("stage").get(0)).isEqualTo("baseline");
            // Stage 6 quadruples the output (16 -> 64 tokens): each answer takes at least 48 more decode steps of
            // >= 2 ms in the fast simulator, so its median end-to-end latency at one user is well over twice the
            // ladder's (factor 2 leaves room for noise; the expected ratio is about 3.5).
            double ladderE2e = p.ladder().step("c=1").latency().e2e().p50();
            double longE2e = p.longOutputs().step("c=1").latency().e2e().p50();
            assertThat(longE2e).isGreaterThan(2 * ladderE2e);
            // Stage 5's prompts are 4x longer: the input-token rate per request served rises accordingly.
            StepResult lp = p.longPrompts().step("c=1");
            StepResult l = p.ladder().step("c=1");
            assertThat(lp.rates().inputTokensPerS() / lp.rates().requestsPerS())
                    .isCloseTo(4 * l.rates().inputTokensPerS() / l.rates().requestsPerS(),
                            org.assertj.core.data.Percentage.withPercentage(25)); // window-edge effects on few requests
            // Stage 7: the soak ran at the operating point and was analysed over its 3 s window (12 intervals,
            // fewer when the window does not start on an interval boundary).
            assertThat(p.soakUsers()).isIn(1, 2, 4);
            assertThat(p.soak().steps().get(0).info().concurrency()).isEqualTo(p.soakUsers());
            assertThat(p.drift().intervals()).isBetween(10, 13);
            assertThat(p.drift().metrics()).hasSize(5);
            assertThat(p.soakSeries().rowCount()).isGreaterThanOrEqualTo(12);
            // Stage 9.
            assertThat(p.knee().steps().rowCount()).isEqualTo(3);
            assertThat(p.summary()).contains("Baseline (1 user, 32/16 tokens)").contains("Soak at")
                    .contains("Operating zone");
            assertThat(p.lengthsPlot().getSeriesMap()).containsKeys("ladder", "long prompts", "long outputs");
        }
    }

    @Test
    void invalidOptionsAreReportedTogether() {
        assertThatThrownBy(() -> ProcedureOptions.fast().toBuilder().concurrency(1, 2).longFactor(1)
                .soakDuration(Duration.ofSeconds(2)).build())
                .hasMessageContaining("3 problems").hasMessageContaining("at least 3 levels")
                .hasMessageContaining("longFactor").hasMessageContaining("6 soakIntervals");
    }
}
