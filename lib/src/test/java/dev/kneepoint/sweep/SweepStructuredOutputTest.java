package dev.kneepoint.sweep;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import dev.kneepoint.Kneepoint;
import dev.kneepoint.analysis.SummaryText;
import dev.kneepoint.analysis.Tables;
import dev.kneepoint.io.LoadedRun;
import dev.kneepoint.io.RunLoader;
import dev.kneepoint.sim.SimConfig;
import dev.kneepoint.sim.Simulator;
import dev.kneepoint.telemetry.Telemetry;
import dev.kneepoint.workload.StructuredOutput;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * {@code Sweep.structuredOutput} / {@code --response-format}: every request asks for a JSON answer, the simulator
 * answers one (closed only where its model stops: cut by max_tokens it stays open), and each OK answer is checked.
 */
class SweepStructuredOutputTest {
    @TempDir
    Path dir;

    private LoadedRun run(Simulator sim, String name, boolean ignoreEos, int out) {
        return RunLoader.load(Kneepoint.sweep(Kneepoint.target(sim)).concurrency(2).inputTokens(32).outputTokens(out)
                .ignoreEos(ignoreEos).structuredOutput(StructuredOutput.parse("json-schema")).maxRequestsPerStep(24)
                .warmup(Duration.ZERO).stepDuration(Duration.ofSeconds(30)).clientWarmup(false)
                .telemetry(Telemetry.off()).outputDir(dir).name(name).run().directory().orElseThrow());
    }

    @Test
    void anAnswerIsInvalidExactlyWhenMaxTokensCutIt() throws Exception {
        // the fast preset's model stops after 8..32 tokens: with a budget of 20 some stop, some are cut
        try (Simulator sim = Simulator.start(SimConfig.presetBuilder("fast").build())) {
            LoadedRun mixed = run(sim, "mixed", false, 20);
            assertThat(mixed.records()).hasSize(24).allSatisfy(r -> {
                assertThat(r.isOk()).isTrue();
                assertThat(r.response().outputInvalid()).as("finish %s", r.response().finishReason())
                        .isEqualTo(r.response().finishReason().equals("length"));
                assertThat(r.response().responseText()).isNull(); // checked, then dropped
            });
            assertThat(mixed.records()).extracting(r -> r.response().outputInvalid()).contains(true, false);
            assertThat(mixed.manifest().get("config").get("structured_output").get("type").asText())
                    .isEqualTo("json_schema");
            String lines = Files.readString(mixed.path().resolve("requests.jsonl"));
            assertThat(lines).contains("\"output_invalid\":true");
            // counted per step, the same from the live run and from requests.jsonl, in summary.json and the text
            long invalid = mixed.records().stream().filter(r -> r.response().outputInvalid()).count();
            assertThat(mixed.result().steps().get(0).counts().outputInvalid()).isEqualTo(invalid);
            assertThat(mixed.summary().orElseThrow().get("steps").get(0).get("output_invalid").asLong())
                    .isEqualTo(invalid);
            assertThat(SummaryText.format(mixed.result())).contains(invalid + " of 24 answers in c=2 were not the JSON "
                    + "asked for");
            assertThat(Tables.steps(mixed.result()).longColumn("output_invalid").get(0)).isEqualTo(invalid);
            // with ignore_eos every answer runs to max_tokens: none is a whole object
            assertThat(run(sim, "forced", true, 12).records()).allSatisfy(r ->
                    assertThat(r.response().outputInvalid()).isTrue());
            // a budget the model never reaches: every answer whole
            assertThat(run(sim, "room", false, 64).records()).allSatisfy(r -> {
                assertThat(r.isOk()).isTrue();
                assertThat(r.response().outputInvalid()).isFalse();
            });
        }
    }

    @Test
    void onlyTheOpenAiApisTakeResponseFormat() {
        assertThatThrownBy(() -> Kneepoint.sweep(Kneepoint.target("http://127.0.0.1:9", "m")).api("ollama-chat")
                .concurrency(1).structuredOutput(StructuredOutput.jsonObject()).validate())
                .hasMessageContaining("structured output is asked with response_format")
                .hasMessageContaining("ollama-chat");
    }
}
