package dev.kneepoint;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import dev.kneepoint.analysis.Knee;
import dev.kneepoint.analysis.KneeReport;
import dev.kneepoint.io.RunLoader;
import dev.kneepoint.metrics.RunResult;
import dev.kneepoint.metrics.StepResult;
import dev.kneepoint.metrics.Trials;
import dev.kneepoint.plot.Plots;
import dev.kneepoint.report.RunReport;
import dev.kneepoint.sim.SimConfig;
import dev.kneepoint.sim.Simulator;
import dev.kneepoint.telemetry.Telemetry;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.List;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.knowm.xchart.XYSeries;

/** {@code repeat(n)} end to end on the simulator: the interleaved plan, the run directory, the pooled analysis. */
class RepeatTrialsTest {
    @TempDir
    Path runs;

    @Test
    void eachLoadIsMeasuredTrialAfterTrialAndThePoolingAddsUp() throws Exception {
        RunResult r;
        try (Simulator sim = Simulator.start(SimConfig.presetBuilder("fast").build())) {
            r = Kneepoint.sweep(Kneepoint.target(sim)).concurrency(1, 2, 4).repeat(3).baseline(true)
                    .inputTokens(16).outputTokens(32).warmup(Duration.ofMillis(200)).stepDuration(Duration.ofMillis(700))
                    .telemetry(Telemetry.off()).outputDir(runs).name("repeat").run();
        }
        assertThat(r.complete()).isTrue();
        // The baseline once, then the ladder three times over: drift spreads over every level.
        assertThat(r.steps()).extracting(s -> s.info().label()).containsExactly("baseline",
                "c=1 #1", "c=2 #1", "c=4 #1", "c=1 #2", "c=2 #2", "c=4 #2", "c=1 #3", "c=2 #3", "c=4 #3");
        assertThat(r.steps()).extracting(s -> s.info().trial()).containsExactly(0, 1, 1, 1, 2, 2, 2, 3, 3, 3);

        RunResult pooled = Trials.pooled(r);
        assertThat(pooled.steps()).extracting(s -> s.info().label()).containsExactly("baseline", "c=1", "c=2", "c=4");
        long okTrials = r.steps().stream().filter(s -> s.info().loadLabel().equals("c=4"))
                .mapToLong(s -> s.counts().requestsOk()).sum();
        StepResult c4 = pooled.step("c=4");
        assertThat(c4.counts().requestsOk()).isEqualTo(okTrials).isPositive();
        assertThat(c4.latency().ttft().count()).isEqualTo(okTrials);
        List<Trials.Load> loads = Trials.of(r);
        assertThat(loads).extracting(Trials.Load::load).containsExactly("c=1", "c=2", "c=4");
        Trials.Stat out = loads.get(2).metric("output_tokens_per_s");
        assertThat(out.n()).isEqualTo(3);
        assertThat(out.ciLow()).isLessThanOrEqualTo(out.mean());
        assertThat(out.ciHigh()).isGreaterThanOrEqualTo(out.mean());
        // Four users on the simulator stream more tokens than one, in every trial's mean.
        assertThat(out.mean()).isGreaterThan(loads.get(0).metric("output_tokens_per_s").mean());

        // The knee reads one point per load.
        KneeReport knee = Knee.analyze(r);
        assertThat(knee.steps().stringColumn("step").asList()).containsExactly("baseline", "c=1", "c=2", "c=4");

        // The latency chart has one point per load, with the trials' 95 % interval as its bar.
        XYSeries p99 = Plots.percentilesVsLoad(r).getSeriesMap().get("p99 ±95% CI");
        double expected = Trials.Stat.of(r.steps().stream().filter(s -> s.info().loadLabel().equals("c=4"))
                .map(s -> s.latency().ttft().p99()).toList()).halfWidth();
        assertThat(p99.getXData()).containsExactly(1.0, 1.0, 2.0, 4.0);
        assertThat(p99.getExtraValues()[3]).isEqualTo(expected);

        // The run directory reads back with its trials, and the report writes the pooled and the trial tables.
        Path dir = r.directory().orElseThrow();
        RunResult loaded = RunLoader.load(dir).result();
        assertThat(loaded.steps()).extracting(s -> s.info().trial()).containsExactly(0, 1, 1, 1, 2, 2, 2, 3, 3, 3);
        JsonNode summary = new ObjectMapper().readTree(dir.resolve("summary.json").toFile());
        assertThat(summary.at("/repeats/loads")).hasSize(3);
        assertThat(summary.at("/repeats/loads/2/load").asText()).isEqualTo("c=4");
        assertThat(summary.at("/repeats/loads/2/metrics/output_tokens_per_s/n").asInt()).isEqualTo(3);
        assertThat(summary.at("/repeats/loads/2/metrics/output_tokens_per_s/values")).hasSize(3);
        assertThat(summary.at("/steps/1/trial").asInt()).isEqualTo(1);
        assertThat(summary.at("/steps/0/trial").isMissingNode()).isTrue();
        String report = RunReport.write(dir);
        assertThat(report).contains("Repeat trials (3 per load").contains("widest interval");
        // report.html: the same on one page that needs nothing else: the answer, the blocks, every chart embedded.
        String html = Files.readString(dir.resolve(RunReport.HTML));
        assertThat(html).startsWith("<!DOCTYPE html>").contains("Peak output throughput")
                .contains("Repeat trials (3 per load").contains("Every step metric (steps.csv)")
                .contains("The run's configuration");
        assertThat(html.split("src=\"data:image/png;base64,", -1)).hasSize(1 + RunReport.FILES.size() - 3);
        assertThat(html).doesNotContain("src=\"http").doesNotContain("href=\"http").doesNotContain("<script");
        assertThat(Files.readAllLines(dir.resolve("steps.csv"))).hasSize(1 + 4);
        assertThat(Files.readAllLines(dir.resolve(RunReport.TRIALS_TABLE))).hasSize(1 + 10);
        assertThat(Files.readAllLines(dir.resolve(RunReport.REPEATS_TABLE))).hasSize(1 + 3 * Trials.METRICS.size());
        JsonNode manifest = new ObjectMapper().readTree(dir.resolve("manifest.json").toFile());
        assertThat(manifest.at("/config/repeat").asInt()).isEqualTo(3);
    }

    @Test
    void repeatIsRefusedWhereTheStepsArePlannedDuringTheRun() {
        try (Simulator sim = Simulator.start(SimConfig.presetBuilder("fast").build())) {
            assertThatThrownBy(() -> Kneepoint.sweep(Kneepoint.target(sim)).rateSweep(4).repeat(2).validate())
                    .hasMessageContaining("repeat measures a ladder given in advance; a rate sweep plans its steps");
            assertThatThrownBy(() -> Kneepoint.sweep(Kneepoint.target(sim)).concurrency(1).repeat(0).validate())
                    .hasMessageContaining("repeat takes 1 to 50 trials of each load, got 0");
        }
    }
}
