package dev.kneepoint.sweep;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;
import static org.assertj.core.api.Assertions.within;

import com.fasterxml.jackson.databind.JsonNode;
import dev.kneepoint.Kneepoint;
import dev.kneepoint.client.TargetConfig;
import dev.kneepoint.io.LoadedRun;
import dev.kneepoint.io.RunLoader;
import dev.kneepoint.metrics.RunResult;
import dev.kneepoint.sim.SimConfig;
import dev.kneepoint.sim.Simulator;
import dev.kneepoint.telemetry.Telemetry;
import dev.kneepoint.analysis.SummaryText;
import dev.kneepoint.metrics.StepResult;
import dev.kneepoint.workload.Workloads;
import java.nio.file.Path;
import java.time.Duration;
import java.util.List;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * {@code Sweep.sharedPrefix(tokens, groups)} / {@code --shared-prefix}: the synthetic prompts of each group share a
 * prefix, which the simulator's prefix cache (on in its presets) serves from its second request on. Without the
 * setting the same prompts share nothing (the check that the hit rate comes from the prefix).
 */
class SweepSharedPrefixTest {
    @TempDir
    Path dir;

    private static Sweep eightRequests(TargetConfig target, Path runs, String name) {
        return Kneepoint.sweep(target).concurrency(1).inputTokens(200).outputTokens(4).maxRequestsPerStep(8)
                .warmup(Duration.ZERO).stepDuration(Duration.ofSeconds(30)).clientWarmup(false)
                .telemetry(Telemetry.off()).outputDir(runs).name(name);
    }

    @Test
    void calibratedPromptsKeepTheirLengthAndShareTheirGroupsPrefix() {
        try (Simulator sim = Simulator.start(SimConfig.presetBuilder("fast").build())) {
            RunResult run = eightRequests(Kneepoint.target(sim), dir, "shared").sharedPrefix(160, 2).run();
            LoadedRun loaded = RunLoader.load(run.directory().orElseThrow());
            assertThat(loaded.records()).hasSize(8).allSatisfy(r -> {
                assertThat(r.isOk()).isTrue();
                assertThat(r.tokens().promptTokens()).isEqualTo(200);
            });
            // 8 prompts of 200 tokens in 2 groups: the 6 after each group's first find most of 160 tokens cached
            assertThat(sim.stats().prefixCacheHitRate()).isGreaterThan(0.4);
            // the simulator's usage says so per request (prompt_tokens_details.cached_tokens), in whole cache blocks
            List<Integer> cached = loaded.records().stream().map(r -> r.tokens().cachedPromptTokens()).toList();
            assertThat(cached.subList(0, 2)).containsOnly(0); // each group's first request finds nothing
            assertThat(cached.subList(2, 8)).allSatisfy(c -> assertThat(c).isBetween(160 - 16, 160));
            long sum = cached.stream().mapToLong(Integer::longValue).sum();
            StepResult step = loaded.result().steps().get(0); // re-aggregated from requests.jsonl
            assertThat(step.tokens().cachedPromptTokens()).isEqualTo(sum);
            assertThat(step.tokens().cachedShare()).isCloseTo(sum / (8 * 200.0), within(1e-9));
            assertThat(run.steps().get(0).tokens()).isEqualTo(step.tokens());
            assertThat(SummaryText.format(run)).contains("cached%");
            JsonNode summary = loaded.summary().orElseThrow().get("steps").get(0);
            assertThat(summary.get("cached_prompt_tokens").asLong()).isEqualTo(sum);
            JsonNode w = loaded.manifest().get("config").get("workload");
            assertThat(w.get("prefix_tokens").asInt()).isEqualTo(160);
            assertThat(w.get("prefix_groups").asInt()).isEqualTo(2);
        }
        try (Simulator sim = Simulator.start(SimConfig.presetBuilder("fast").build())) {
            eightRequests(Kneepoint.target(sim), dir, "plain").run();
            assertThat(sim.stats().prefixCacheHitRate()).isLessThan(0.1);
        }
    }

    @Test
    void uncalibratedPromptsShareTheirPrefixToo() {
        try (Simulator sim = Simulator.start(SimConfig.presetBuilder("fast").build())) {
            RunResult run = eightRequests(Kneepoint.target(sim), dir, "words").calibrate(false).sharedPrefix(160, 1).run();
            assertThat(RunLoader.load(run.directory().orElseThrow()).records()).hasSize(8)
                    .allSatisfy(r -> assertThat(r.isOk()).isTrue());
            assertThat(sim.stats().prefixCacheHitRate()).isGreaterThan(0.5);
        }
    }

    @Test
    void aPrefixThatLeavesNoRoomOrMeetsAnotherWorkloadIsRefused() {
        TargetConfig t = Kneepoint.target("http://127.0.0.1:9", "m");
        assertThatThrownBy(() -> Kneepoint.sweep(t).concurrency(1).inputTokens(100).sharedPrefix(100, 2).validate())
                .hasMessageContaining("must exceed the shared prefix (100 tokens)");
        assertThatThrownBy(() -> Kneepoint.sweep(t).concurrency(1).sharedPrefix(10, 0).validate())
                .hasMessageContaining("groups >= 1");
        assertThatThrownBy(() -> Kneepoint.sweep(t).concurrency(1).sharedPrefix(10, 1)
                .workload(Workloads.synthetic().build()).validate())
                .hasMessageContaining("sharedPrefix applies to the synthetic prompts");
    }
}
