package dev.kneepoint.scenario;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import dev.kneepoint.Kneepoint;
import dev.kneepoint.io.RunLoader;
import dev.kneepoint.metrics.RequestRecord;
import dev.kneepoint.metrics.StepResult;
import dev.kneepoint.sim.Simulator;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.List;
import java.util.stream.Stream;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import tech.tablesaw.api.Table;

/** The presets' numbers, and the whole matrix in fast mode against the simulator. */
class ScenarioMatrixTest {
    @TempDir
    Path runs;

    @Test
    void presetsMapTheWordsToTheDocumentedNumbers() {
        Scenario a = Scenarios.preset("A", false);
        Scenario b = Scenarios.preset("B", false);
        Scenario c = Scenarios.preset("C", false);
        Scenario d = Scenarios.preset("D", false);
        Scenario e = Scenarios.preset("E", false);
        assertThat(List.of(a.meanPromptTokens(), b.meanPromptTokens(), c.meanPromptTokens(), d.meanPromptTokens()))
                .containsExactly(128.0, 128.0, 2048.0, 2048.0);
        assertThat(List.of(a.outputTokens(), b.outputTokens(), c.outputTokens(), d.outputTokens()))
                .containsExactly(64, 512, 64, 512);
        assertThat(a.concurrency()).containsExactly(1, 2, 4);
        assertThat(b.concurrency()).isEqualTo(c.concurrency()).containsExactly(4, 8, 16);
        assertThat(d.concurrency()).containsExactly(1, 2, 4, 8, 16, 32, 64);
        // E: 0.5*128 + 0.3*512 + 0.2*2048 = 627.2 tokens on average, over 1 req/s of background.
        assertThat(e.meanPromptTokens()).isCloseTo(627.2, org.assertj.core.data.Offset.offset(1e-9));
        assertThat(e.hasBackground()).isTrue();
        assertThat(e.backgroundRps()).isEqualTo(1.0);
        assertThat(Scenarios.all(false).stream().filter(Scenario::hasBackground)).containsExactly(e);
        // Fast mode divides lengths by 8.
        assertThat(Scenarios.preset("D", true).meanPromptTokens()).isEqualTo(256.0);
        assertThat(Scenarios.preset("D", true).outputTokens()).isEqualTo(64);
        assertThatThrownBy(() -> Scenarios.preset("F", true)).hasMessageContaining("A, B, C, D, E");
        assertThatThrownBy(() -> new Scenario("x y", "", List.of(), 0, List.of(0), -1, 0, 0))
                .hasMessageContaining("5 problems");
    }

    @Test
    void fastMatrixRunsEveryScenarioWithExactLengthsAndOneDirectoryEach() throws Exception {
        try (Simulator sim = Kneepoint.simulator("fast")) {
            MatrixResult m = Scenarios.matrix(Kneepoint.target(sim)).fast(true)
                    .stepDuration(Duration.ofMillis(400)).warmup(Duration.ofMillis(100)).outputDir(runs).run();

            assertThat(m.calibration().exact()).isTrue(); // the simulator has /tokenize
            assertThat(m.runs()).extracting(r -> r.scenario().name()).containsExactly("A", "B", "C", "D", "E");
            Table t = m.table();
            int steps = Scenarios.all(true).stream().mapToInt(s -> s.concurrency().size()).sum();
            assertThat(t.rowCount()).isEqualTo(steps);
            assertThat(t.stringColumn("scenario").unique().asList()).containsExactlyInAnyOrder("A", "B", "C", "D", "E");
            // every E step measures its background (a number, not NaN); a 400 ms window of a 4 req/s stream can
            // hold no background token on a starved machine (seen once), so only the run as a whole must have some
            List<Double> bg = t.where(t.stringColumn("scenario").isEqualTo("E")).doubleColumn("bg_output_tokens_per_s").asList();
            assertThat(bg).allMatch(x -> x >= 0).anyMatch(x -> x > 0);
            Table a = t.where(t.stringColumn("scenario").isEqualTo("A"));
            assertThat(a.doubleColumn("bg_output_tokens_per_s").countMissing()).isEqualTo(a.rowCount()); // NaN: no background
            for (ScenarioRun r : m.runs()) {
                for (StepResult s : r.run().steps()) {
                    assertThat(s.counts().requestsOk()).isPositive();
                    assertThat(s.counts().requestsFailed()).isZero();
                    assertThat(s.counts().outputLenMismatch()).isZero(); // exact output lengths
                }
                assertThat(r.directory()).isPresent();
                assertThat(r.directory().get().resolve("summary.json")).exists();
            }
            // Prompt lengths are exact: the server's usage confirms what each share asked for.
            List<RequestRecord> c = RunLoader.load(m.scenario("C").directory().orElseThrow()).records();
            assertThat(c).isNotEmpty().allMatch(x -> x.tokens().promptTokens() == 256
                    && x.tokens().requestedPromptTokens() == 256);
            List<RequestRecord> e = RunLoader.load(m.scenario("E").directory().orElseThrow()).records();
            assertThat(e.stream().map(RequestRecord::tag).distinct()).contains("short", "long", "bg");
            assertThat(e).allMatch(x -> x.tokens().promptTokens() == x.tokens().requestedPromptTokens());
            assertThat(m.scenario("E").run().background().orElseThrow().requests()).isPositive();
            try (Stream<Path> dirs = Files.list(runs)) {
                assertThat(dirs.count()).isEqualTo(5);
            }
            assertThat(m.kneeOverlay().getSeriesMap()).containsKeys("A", "B", "C", "D", "E");
            assertThat(m.summary()).contains("A: short prompt, short output").contains("background");
        }
    }
}
