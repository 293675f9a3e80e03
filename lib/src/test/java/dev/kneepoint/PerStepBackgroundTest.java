package dev.kneepoint;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import dev.kneepoint.client.TargetConfig;
import dev.kneepoint.load.ArrivalPlan;
import dev.kneepoint.load.BackgroundStream;
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

/** Background traffic at a different rate in each ladder step, measured apart per step, live and reloaded. */
class PerStepBackgroundTest {
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

    private static RequestSpec bgSpec(long i) {
        return new RequestSpec("background request " + i, List.of(), 4, -1, Map.of("ignore_eos", true), "whatever");
    }

    @Test
    void eachStepHasItsOwnBackgroundRateCountedApart() throws Exception {
        double[] rates = {10, 0, 40};
        BackgroundStream stream = new BackgroundStream(PerStepBackgroundTest::bgSpec, ArrivalPlan.constant(1), "bg",
                Duration.ofSeconds(5)).withStepRates(rates);
        RunResult r = Kneepoint.ladder(target, 1, 2, 4).inputTokens(32).outputTokens(16)
                .stepDuration(Duration.ofMillis(1000)).warmup(Duration.ofMillis(200)).pause(Duration.ofMillis(300))
                .background(stream).outputDir(runs).name("bgsteps").run();

        assertThat(r.complete()).isTrue();
        BackgroundResult bg = r.background().orElseThrow();
        assertThat(bg.rateRps()).isNaN();
        List<String> labels = List.of("c=1", "c=2", "c=4");
        assertThat(bg.steps()).extracting(s -> s.info().label()).containsExactlyElementsOf(labels);
        for (int k = 0; k < 3; k++) {
            StepResult b = bg.step(labels.get(k));
            assertThat(b.info().rateRps()).isEqualTo(rates[k]);
            long n = b.counts().requestsOk() + b.counts().requestsFailed() + b.counts().cancelled();
            // Constant arrivals at rate_k from just before the step starts until its drain ends: the step's window
            // holds rate x window +-1 at each edge, hence +-2 (and exactly 0 where the rate is 0).
            assertThat((double) n).isCloseTo(rates[k] * b.windowS(), org.assertj.core.data.Offset.offset(2.0));
        }
        assertThat(bg.step("c=2").counts().requestsOk()).isZero();
        assertThat(bg.step("c=4").counts().requestsOk()).isGreaterThan(3 * bg.step("c=1").counts().requestsOk());

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
        assertThat(bg.requests()).isEqualTo(bgLines);
        // The foreground counts only its own records: tags never mix.
        for (StepResult s : r.steps()) {
            long fgLines = lines.stream().filter(n -> n.get("step").asText().equals(s.info().label())
                    && !n.get("tag").asText().equals("bg")).count();
            assertThat(s.counts().requestsOk() + s.counts().requestsFailed() + s.counts().cancelled()
                    + s.counts().warmupRequests()).isEqualTo(fgLines);
            assertThat(s.latency().tpot().count()).isEqualTo(s.counts().requestsOk());
            // every foreground answer is 16 tokens; background ones are 4
            assertThat(s.counts().outputLenMismatch()).isZero();
            assertThat(s.rates().concurrencyMean()).isLessThanOrEqualTo(s.info().concurrency() + 1e-9);
        }
        // The zero-rate step had no background at all: nothing was intended from its start to its window's end.
        long c2Start = r.step("c=2").window().stepStartNanos();
        long c2End = r.step("c=2").window().endNanos();
        assertThat(lines.stream().filter(n -> n.get("tag").asText().equals("bg"))
                .mapToLong(n -> n.get("t_intended_ns").asLong()).filter(t -> t >= c2Start && t <= c2End)).isEmpty();

        JsonNode summary = json.readTree(dir.resolve("summary.json").toFile());
        assertThat(summary.at("/background/rate_rps").isNull()).isTrue();
        assertThat(summary.at("/background/steps/0/rate_rps").asDouble()).isEqualTo(10.0);
        assertThat(summary.at("/background/steps/1/rate_rps").asDouble()).isEqualTo(0.0);
        assertThat(summary.at("/background/steps/2/rate_rps").asDouble()).isEqualTo(40.0);
        JsonNode manifest = json.readTree(dir.resolve("manifest.json").toFile());
        assertThat(manifest.at("/config/background/step_rates_rps")).hasSize(3);

        // Reloaded: the background is apart again, per step, with each step's planned rate.
        RunResult loaded = Kneepoint.load(dir);
        assertThat(loaded.steps()).extracting(s -> s.info().label()).containsExactlyElementsOf(labels);
        BackgroundResult lbg = loaded.background().orElseThrow();
        assertThat(lbg.requests()).isEqualTo(bg.requests());
        for (int k = 0; k < 3; k++) {
            String label = labels.get(k);
            assertThat(lbg.step(label).counts().requestsOk()).isEqualTo(bg.step(label).counts().requestsOk());
            assertThat(lbg.step(label).info().rateRps()).isEqualTo(rates[k]);
            assertThat(loaded.step(label).counts().requestsOk()).isEqualTo(r.step(label).counts().requestsOk());
        }
        assertThat(lbg).isEqualTo(bg); // the live result, every double bit for bit (per-step rates included)
    }

    @Test
    void perStepRatesMustMatchTheLadder() {
        assertThatThrownBy(() -> Kneepoint.ladder(target, 1, 2).outputDir(null)
                .backgroundPerStep(PerStepBackgroundTest::bgSpec, 5, 10, 20).run())
                .isInstanceOf(IllegalArgumentException.class)
                .hasMessageContaining("3 per-step rates for a ladder of 2 steps");
        assertThatThrownBy(() -> BackgroundStream.poisson(PerStepBackgroundTest::bgSpec, 1, 1).withStepRates(1, -2))
                .isInstanceOf(IllegalArgumentException.class)
                .hasMessageContaining("step 1");
    }
}
