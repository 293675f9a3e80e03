package dev.kneepoint.sweep;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import dev.kneepoint.Kneepoint;
import dev.kneepoint.analysis.Breakdown;
import dev.kneepoint.analysis.Query;
import dev.kneepoint.analysis.Tables;
import dev.kneepoint.io.LoadedRun;
import dev.kneepoint.io.RunLoader;
import dev.kneepoint.metrics.RequestRecord;
import dev.kneepoint.report.RunReport;
import dev.kneepoint.request.RequestSpec;
import dev.kneepoint.sim.SimConfig;
import dev.kneepoint.sim.Simulator;
import dev.kneepoint.telemetry.Telemetry;
import dev.kneepoint.workload.ModelMix;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.List;
import java.util.Map;
import java.util.stream.Collectors;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import tech.tablesaw.api.Table;

/**
 * {@code Sweep.models} / {@code --model A=W,B=W}: each request goes to one model of the mix by weight (a base model
 * and its LoRA adapters on the simulator), keeps its model in its record, and the report breaks every step down by
 * model.
 */
class SweepModelMixTest {
    @TempDir
    Path dir;

    @Test
    void requestsSpreadOverTheModelsByWeightAndEveryStepBreaksDownByModel() throws Exception {
        SimConfig config = SimConfig.presetBuilder("fast").loraAdapters(List.of("adapter-a", "adapter-b")).build();
        try (Simulator sim = Simulator.start(config)) {
            ModelMix mix = ModelMix.parse("sim-fast=0.6,adapter-a=0.3,adapter-b=0.1", 0);
            LoadedRun run = RunLoader.load(Kneepoint.sweep(Kneepoint.target(sim)).concurrency(2, 4).inputTokens(16)
                    .outputTokens(4).models(mix).maxRequestsPerStep(150).warmup(Duration.ZERO)
                    .stepDuration(Duration.ofSeconds(30)).clientWarmup(false).telemetry(Telemetry.off())
                    .outputDir(dir).name("mix").run().directory().orElseThrow());
            assertThat(run.records()).allSatisfy(r -> assertThat(r.isOk()).as("%s", r.outcome()).isTrue());
            Map<String, Long> byModel = run.records().stream()
                    .collect(Collectors.groupingBy(RequestRecord::model, Collectors.counting()));
            // 300 requests drawn 0.6 / 0.3 / 0.1: within 4.5 standard deviations of each expected count
            // (sqrt(300 p (1 - p)) = 8.5, 7.9, 5.2), so a wrong weight or a constant model fails and noise does not
            assertThat(byModel.get("sim-fast")).isBetween(180L - 38, 180L + 38);
            assertThat(byModel.get("adapter-a")).isBetween(90L - 36, 90L + 36);
            assertThat(byModel.get("adapter-b")).isBetween(30L - 23, 30L + 23);
            assertThat(Files.readString(run.path().resolve("requests.jsonl"))).contains("\"model\":\"adapter-b\"");
            assertThat(run.manifest().get("config").get("models").get("adapter-a").asDouble()).isEqualTo(0.3);

            // the breakdown: per step and model, counts adding up to the step's, each rate a share of the step's
            List<Breakdown.Group> groups = Breakdown.groups(run.result(), run.records(), Breakdown.By.MODEL);
            assertThat(groups).extracting(Breakdown.Group::step).containsOnly("c=2", "c=4");
            for (var step : run.result().steps()) {
                List<Breakdown.Group> of = groups.stream().filter(g -> g.step().equals(step.info().label())).toList();
                assertThat(of).hasSize(3);
                assertThat(of.stream().mapToLong(g -> g.result().counts().requestsOk()).sum())
                        .isEqualTo(step.counts().requestsOk());
                assertThat(of.stream().mapToDouble(g -> g.result().rates().outputTokensPerS()).sum())
                        .isCloseTo(step.rates().outputTokensPerS(), org.assertj.core.api.Assertions.within(1e-6));
            }
            Table t = Tables.byModel(run.result(), run.records());
            assertThat(t.rowCount()).isEqualTo(6);
            assertThat((long) Query.model(Tables.requests(run.records()), "adapter-b").rowCount())
                    .isEqualTo(byModel.get("adapter-b"));

            String report = RunReport.write(run.path());
            assertThat(report).contains("by model (each step's requests of one model").contains("adapter-a");
            assertThat(run.path().resolve(RunReport.MODELS_TABLE)).exists();
        }
    }

    @Test
    void theDrawIsDeterministicAndAChatSessionStaysOnItsModel() {
        ModelMix mix = ModelMix.parse("a=1,b=1", 7);
        var w = mix.applyTo(index -> RequestSpec.of("p" + index, 4));
        for (long i = 0; i < 50; i++) {
            assertThat(w.next(i).model()).isEqualTo(w.next(i).model());
        }
        assertThat(java.util.stream.LongStream.range(0, 50).mapToObj(i -> w.next(i).model()).distinct())
                .containsExactlyInAnyOrder("a", "b");
        var sessions = (dev.kneepoint.request.SessionWorkload) mix.applyTo(
                dev.kneepoint.workload.Workloads.multiTurn().turns(3).build());
        for (long s = 0; s < 20; s++) {
            String first = sessions.turn(s, 0, List.of()).model();
            assertThat(sessions.turn(s, 1, List.of(new dev.kneepoint.request.SessionWorkload.Answer("ok", 1))).model())
                    .isEqualTo(first);
        }
    }

    @Test
    void badMixesAndApisWithoutAModelFieldAreRefused() {
        assertThatThrownBy(() -> ModelMix.parse("a=0.5,b", 0)).hasMessageContaining("'b' is not NAME=WEIGHT");
        assertThatThrownBy(() -> ModelMix.parse("a=0.5,a=0.2", 0)).hasMessageContaining("'a' appears twice");
        assertThatThrownBy(() -> ModelMix.parse("a=-1", 0)).hasMessageContaining("weight must be a positive number");
        assertThatThrownBy(() -> Kneepoint.sweep(Kneepoint.target("http://127.0.0.1:9", "m")).api("tgi")
                .concurrency(1).models(ModelMix.parse("a=1,b=1", 0)).validate())
                .hasMessageContaining("a model mix names each request's model, and the tgi API's body has no model");
    }
}
