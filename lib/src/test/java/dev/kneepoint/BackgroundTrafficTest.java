package dev.kneepoint;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import dev.kneepoint.client.TargetConfig;
import dev.kneepoint.metrics.BackgroundResult;
import dev.kneepoint.metrics.RunResult;
import dev.kneepoint.metrics.StepResult;
import dev.kneepoint.request.RequestSpec;
import dev.kneepoint.sim.Simulator;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.List;
import java.util.Map;
import java.util.stream.Stream;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** Background traffic under a foreground ladder, end to end against the simulator. */
class BackgroundTrafficTest {
    private static Simulator sim;
    private static TargetConfig target;

    @TempDir
    Path runs;

    @BeforeAll
    static void startSimulator() {
        sim = Kneepoint.simulator("fast");
        target = Kneepoint.target(sim);
    }

    @AfterAll
    static void stopSimulator() {
        sim.close();
    }

    /** Background requests: 32-token prompts, exactly 4 output tokens (foreground answers have 16). */
    private static RequestSpec bgSpec(long i) {
        return new RequestSpec("background request " + i, List.of(), 4, -1, Map.of("ignore_eos", true), "whatever");
    }

    @Test
    void backgroundIsMeasuredApartAndCountsAddUp() throws Exception {
        double bgRate = 20;
        RunResult r = Kneepoint.ladder(target, 1, 2).inputTokens(32).outputTokens(16)
                .stepDuration(Duration.ofMillis(1000)).warmup(Duration.ofMillis(200))
                .background(BackgroundTrafficTest::bgSpec, bgRate)
                .outputDir(runs).name("bg").run();

        assertThat(r.complete()).isTrue();
        assertThat(r.steps()).extracting(s -> s.info().label()).containsExactly("c=1", "c=2");
        BackgroundResult bg = r.background().orElseThrow();
        assertThat(bg.tag()).isEqualTo("bg");
        assertThat(bg.steps()).extracting(s -> s.info().label()).containsExactly("c=1", "c=2");

        // Count from the log: every record is either a foreground one of some step or a background one.
        Path dir;
        try (Stream<Path> list = Files.list(runs)) {
            dir = list.findFirst().orElseThrow();
        }
        ObjectMapper json = new ObjectMapper();
        List<JsonNode> lines = Files.readAllLines(dir.resolve("requests.jsonl")).stream().map(l -> {
            try {
                return json.readTree(l);
            } catch (Exception e) {
                throw new AssertionError(e);
            }
        }).toList();
        long bgLines = lines.stream().filter(n -> n.get("tag").asText().equals("bg")).count();
        long fgLines = lines.size() - bgLines;
        long fgCounted = r.steps().stream().mapToLong(s -> s.counts().requestsOk() + s.counts().requestsFailed()
                + s.counts().cancelled() + s.counts().warmupRequests()).sum();
        assertThat(fgCounted).isEqualTo(fgLines);
        assertThat(bg.requests()).isEqualTo(bgLines);
        // Every background record carries the stream's tag and step label, whatever the workload's tag was.
        assertThat(lines.stream().filter(n -> n.get("tag").asText().equals("whatever"))).isEmpty();

        // Background plan: Poisson at 20 rps over the run (two steps of 1.2 s plus drains, about 2.5 s): about
        // 50 requests. Tolerance: a Poisson count of mean 50 has sd 7; the run length varies with drains, so
        // accept 60%..160% of rate x measured total window.
        double totalS = bg.total().windowS();
        assertThat(totalS).isBetween(2.3, 6.0);
        assertThat((double) bg.requests()).isBetween(0.6 * bgRate * totalS, 1.6 * bgRate * totalS);
        assertThat(bg.total().counts().requestsFailed()).isZero();

        // The foreground's numbers exclude the background: every foreground latency sample is a 16-token
        // answer, and the output-token rate of the foreground plus the background's equals what the log holds.
        for (StepResult s : r.steps()) {
            assertThat(s.latency().tpot().count()).isEqualTo(s.counts().requestsOk());
            assertThat(s.counts().outputLenMismatch()).isZero();
            StepResult b = bg.step(s.info().label());
            assertThat(b.window()).extracting(w -> w.startNanos(), w -> w.endNanos())
                    .containsExactly(s.window().startNanos(), s.window().endNanos());
            long fgTokens = tokensInWindow(lines, false, s);
            long bgTokens = tokensInWindow(lines, true, s);
            // Windowed output-token rates are exact token counts over the window (1e-6 relative: rounding).
            assertThat(s.rates().outputTokensPerS() * s.windowS())
                    .isCloseTo(fgTokens, org.assertj.core.data.Offset.offset(0.01));
            assertThat(b.rates().outputTokensPerS() * b.windowS())
                    .isCloseTo(bgTokens, org.assertj.core.data.Offset.offset(0.01));
            assertThat(bgTokens).isPositive();
            // Closed loop with c users: the foreground's time-average in flight cannot exceed c, even though the
            // background adds about rate x e2e more in flight on the server.
            assertThat(s.rates().concurrencyMean()).isLessThanOrEqualTo(s.info().concurrency() + 1e-9);
            // Background requests of this step are 4-token answers.
            assertThat(b.latency().tpot().count()).isEqualTo(b.counts().requestsOk());
            assertThat(b.counts().requestsOk()).isPositive();
        }

        JsonNode summary = json.readTree(dir.resolve("summary.json").toFile());
        assertThat(summary.get("steps")).hasSize(2);
        assertThat(summary.at("/background/tag").asText()).isEqualTo("bg");
        assertThat(summary.at("/background/steps")).hasSize(2);
        assertThat(summary.at("/background/total/requests_ok").asLong()).isEqualTo(bg.total().counts().requestsOk());
        JsonNode manifest = json.readTree(dir.resolve("manifest.json").toFile());
        assertThat(manifest.at("/config/background/rate_rps").asDouble()).isEqualTo(bgRate);

        // Reloaded from disk, the background is measured apart again, never as an extra foreground step.
        RunResult loaded = Kneepoint.load(dir);
        assertThat(loaded.steps()).extracting(s -> s.info().label()).containsExactly("c=1", "c=2");
        BackgroundResult lbg = loaded.background().orElseThrow();
        assertThat(lbg.requests()).isEqualTo(bg.requests());
        assertThat(lbg.rateRps()).isEqualTo(bgRate);
        for (StepResult s : r.steps()) {
            assertThat(loaded.step(s.info().label()).counts().requestsOk()).isEqualTo(s.counts().requestsOk());
            assertThat(lbg.step(s.info().label()).counts().requestsOk())
                    .isEqualTo(bg.step(s.info().label()).counts().requestsOk());
        }
        // Read back as it streams past (never gathered), the background is the live result, every double bit for bit
        // (records compare doubles with Double.compare): the records round-trip exactly and the aggregation is the
        // live one.
        assertThat(lbg).isEqualTo(bg);
    }

    private static long tokensInWindow(List<JsonNode> lines, boolean background, StepResult s) {
        long tokens = 0;
        for (JsonNode n : lines) {
            if (n.get("tag").asText().equals("bg") != background) {
                continue;
            }
            if (!background && !n.get("step").asText().equals(s.info().label())) {
                continue;
            }
            JsonNode t = n.get("chunk_ns");
            JsonNode k = n.get("chunk_tokens");
            for (int i = 0; t != null && i < t.size(); i++) {
                if (s.window().contains(t.get(i).asLong())) {
                    tokens += k.get(i).asLong();
                }
            }
        }
        return tokens;
    }

    @Test
    void runWithoutBackgroundHasNoBackgroundKey() throws Exception {
        RunResult r = Kneepoint.ladder(target, 1).inputTokens(16).outputTokens(4)
                .stepDuration(Duration.ofMillis(200)).warmup(Duration.ZERO).outputDir(runs).name("nobg").run();
        assertThat(r.background()).isEmpty();
        Path dir;
        try (Stream<Path> list = Files.list(runs)) {
            dir = list.findFirst().orElseThrow();
        }
        assertThat(new ObjectMapper().readTree(dir.resolve("summary.json").toFile()).has("background")).isFalse();
    }

    @Test
    void invalidBackgroundIsReportedWithTheOtherProblems() {
        assertThatThrownBy(() -> Kneepoint.ladder(target, 0).background(BackgroundTrafficTest::bgSpec, -1).run())
                .isInstanceOf(IllegalArgumentException.class)
                .hasMessageContaining("2 problems").hasMessageContaining("background").hasMessageContaining("concurrency");
    }
}
