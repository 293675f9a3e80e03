package dev.kneepoint.sweep;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import com.fasterxml.jackson.databind.JsonNode;
import dev.kneepoint.Kneepoint;
import dev.kneepoint.io.LoadedRun;
import dev.kneepoint.io.RunLoader;
import dev.kneepoint.metrics.RequestRecord;
import dev.kneepoint.sim.SimConfig;
import dev.kneepoint.sim.Simulator;
import dev.kneepoint.telemetry.Telemetry;
import dev.kneepoint.workload.Workloads;
import java.nio.file.Path;
import java.time.Duration;
import java.util.List;
import java.util.Map;
import java.util.stream.Collectors;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * {@code Sweep.mix(tag, weight, in, out)} / {@code --mix}: weighted classes of synthetic prompts in one step, each
 * request tagged with its class and given its class's lengths (exact in the server's tokens when calibrated).
 */
class SweepMixTest {
    @TempDir
    Path dir;

    @Test
    void eachRequestHasItsClassTagAndLengths() {
        try (Simulator sim = Simulator.start(SimConfig.presetBuilder("fast").build())) {
            LoadedRun run = RunLoader.load(Kneepoint.sweep(Kneepoint.target(sim)).concurrency(2)
                    .mix("chat", 3, 32, 4).mix("rag", 1, 256, 2).maxRequestsPerStep(80).warmup(Duration.ZERO)
                    .stepDuration(Duration.ofSeconds(30)).clientWarmup(false).telemetry(Telemetry.off())
                    .outputDir(dir).name("mix").run().directory().orElseThrow());
            List<RequestRecord> records = run.records();
            assertThat(records).hasSize(80).allSatisfy(r -> {
                assertThat(r.isOk()).isTrue();
                assertThat(r.tag()).isIn("chat", "rag");
                boolean rag = r.tag().equals("rag");
                assertThat(r.tokens().promptTokens()).isEqualTo(rag ? 256 : 32); // calibrated on the simulator
                assertThat(r.tokens().outputTokens()).isEqualTo(rag ? 2 : 4);
            });
            Map<String, Long> byTag = records.stream().collect(Collectors.groupingBy(RequestRecord::tag,
                    Collectors.counting()));
            // a quarter of 80: 20 expected, standard deviation 3.9; 8..32 is three of them either side
            assertThat(byTag.get("rag")).isBetween(8L, 32L);
            JsonNode w = run.manifest().get("config").get("workload");
            assertThat(w.get("kind").asText()).isEqualTo("mix");
            assertThat(w.get("classes").toString()).isEqualTo("[{\"tag\":\"chat\",\"weight\":3.0,\"input_tokens\":32,"
                    + "\"output_tokens\":4},{\"tag\":\"rag\",\"weight\":1.0,\"input_tokens\":256,\"output_tokens\":2}]");
        }
    }

    @Test
    void aMixIsCheckedWithTheOtherSettings() {
        var target = Kneepoint.target("http://127.0.0.1:9", "m");
        assertThatThrownBy(() -> Kneepoint.sweep(target).concurrency(1).mix("a", 1, 16, 4).mix("a", 0, 0, 4)
                .sharedPrefix(8, 1).validate())
                .hasMessageContaining("mix: each class needs a tag of its own, got 'a'")
                .hasMessageContaining("mix: class 'a' needs a positive weight, got 0.0")
                .hasMessageContaining("mix: class 'a' needs input and output tokens >= 1, got 0 and 4")
                .hasMessageContaining("it does not combine with a workload of your own, a trace, multiTurn or sharedPrefix");
        assertThatThrownBy(() -> Kneepoint.sweep(target).concurrency(1).mix("a", 1, 16, 4)
                .workload(Workloads.synthetic().build()).validate()).hasMessageContaining("mix replaces");
    }
}
