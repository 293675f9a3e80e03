package dev.kneepoint.sweep;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import com.fasterxml.jackson.databind.JsonNode;
import dev.kneepoint.Kneepoint;
import dev.kneepoint.client.TargetConfig;
import dev.kneepoint.client.Transport;
import dev.kneepoint.io.LoadedRun;
import dev.kneepoint.io.RunLoader;
import dev.kneepoint.load.Abandonment;
import dev.kneepoint.metrics.RequestRecord;
import dev.kneepoint.metrics.RunResult;
import dev.kneepoint.metrics.StepResult;
import dev.kneepoint.sim.SimConfig;
import dev.kneepoint.sim.Simulator;
import dev.kneepoint.telemetry.Telemetry;
import java.nio.file.Path;
import java.time.Duration;
import java.util.List;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.EnumSource;
import org.junit.jupiter.api.io.TempDir;

/**
 * {@code Sweep.abandon(rate, after)} / {@code --cancel-rate --cancel-after} against the simulator: answers of 200
 * tokens take about 400 ms on its fast preset (2 ms a step), so every chosen request is still streaming at 60 ms and
 * is given up; the server stops generating for it.
 */
class SweepAbandonTest {
    @TempDir
    Path dir;

    @Test
    void theChosenRequestsEndAbandonedWithWhatTheyReceivedAndTheServerStops() {
        try (Simulator sim = Simulator.start(SimConfig.presetBuilder("fast").build())) {
            RunResult run = Kneepoint.sweep(Kneepoint.target(sim)).concurrency(4).inputTokens(32).outputTokens(200)
                    .abandon(0.5, Duration.ofMillis(60)).maxRequestsPerStep(16).warmup(Duration.ZERO)
                    .stepDuration(Duration.ofSeconds(30)).clientWarmup(false).telemetry(Telemetry.off())
                    .outputDir(dir).name("abandon").run();
            LoadedRun loaded = RunLoader.load(run.directory().orElseThrow());
            List<RequestRecord> records = loaded.records();
            Abandonment a = Abandonment.afterTime(0.5, Duration.ofMillis(60), SweepDefaults.SEED);
            long chosen = records.stream().filter(r -> a.chosen(r.id())).count();
            assertThat(chosen).isBetween(3L, 13L); // the same requests as the sweep chose: its seed
            for (RequestRecord r : records) {
                if (a.chosen(r.id())) {
                    assertThat(r.outcome().label()).as("request %d", r.id()).isEqualTo("ABANDONED");
                    assertThat(r.timing().chunkNanos()).isNotEmpty(); // what it received is kept
                    assertThat(r.tokens().outputTokens()).isBetween(1, 199);
                } else {
                    assertThat(r.outcome().label()).isEqualTo("OK");
                    assertThat(r.tokens().outputTokens()).isEqualTo(200);
                }
            }
            StepResult step = run.steps().get(0);
            assertThat(step.counts().abandoned()).isEqualTo(chosen);
            assertThat(step.counts().requestsOk()).isEqualTo(records.size() - chosen);
            assertThat(step.counts().requestsFailed()).isZero();
            assertThat(step.rates().failureRate()).isZero();
            assertThat(step.latency().e2e().count()).isEqualTo(step.counts().requestsOk()); // OK requests only
            assertThat(loaded.result().steps().get(0).counts().abandoned()).isEqualTo(chosen); // re-read
            JsonNode summary = loaded.summary().orElseThrow().get("steps").get(0);
            assertThat(summary.get("abandoned").asLong()).isEqualTo(chosen);
            assertThat(loaded.manifest().at("/config/abandonment/after_ms").asDouble()).isEqualTo(60.0);
            // the server generated far less than every answer's 200 tokens: it stopped for the abandoned ones
            long generated = sim.stats().tokensGenerated();
            assertThat(generated).isLessThan(200L * records.size() - 100L * chosen);
        }
    }

    @ParameterizedTest
    @EnumSource(Transport.class)
    void givenUpAfterTokensTheyReceivedAboutThatMany(Transport transport) {
        try (Simulator sim = Simulator.start(SimConfig.presetBuilder("fast").build())) {
            TargetConfig target = TargetConfig.builder().baseUrl(sim.url()).model("sim-fast").transport(transport).build();
            RunResult run = Kneepoint.sweep(target).concurrency(2).inputTokens(32).outputTokens(200)
                    .abandonAfterTokens(1, 20).maxRequestsPerStep(4).warmup(Duration.ZERO)
                    .stepDuration(Duration.ofSeconds(30)).clientWarmup(false).telemetry(Telemetry.off())
                    .outputDir(dir.resolve(transport.name())).name("tokens").run();
            List<RequestRecord> records = RunLoader.load(run.directory().orElseThrow()).records();
            // one token per simulator step (2 ms); the close follows the 20th within a few steps, well before 200
            assertThat(records).hasSize(4).allSatisfy(r -> {
                assertThat(r.outcome().label()).isEqualTo("ABANDONED");
                assertThat(r.outcome().detail()).isEqualTo("given up after 20 tokens");
                assertThat(r.tokens().outputTokens()).isBetween(20, 60);
            });
        }
    }

    @Test
    void aBadShareIsRefusedWithTheOtherProblems() {
        var t = Kneepoint.target("http://127.0.0.1:9", "m");
        assertThatThrownBy(() -> Kneepoint.sweep(t).concurrency(1).abandon(2, Duration.ofMillis(5)).validate())
                .hasMessageContaining("abandon: abandonment rate must be a share in (0, 1]");
    }
}
