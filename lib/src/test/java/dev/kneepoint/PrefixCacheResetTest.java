package dev.kneepoint;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import dev.kneepoint.metrics.RunResult;
import dev.kneepoint.request.RequestSpec;
import dev.kneepoint.request.Workload;
import dev.kneepoint.sim.SimConfig;
import dev.kneepoint.sim.Simulator;
import dev.kneepoint.telemetry.Telemetry;
import java.nio.file.Path;
import java.time.Duration;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** {@code resetPrefixCache(true)}: every step starts with the server's prefix cache empty. */
class PrefixCacheResetTest {
    @TempDir
    Path runs;

    /** Every request the same 512-token prompt: after its first computation, the whole prompt is a cache hit. */
    private static final Workload SAME_PROMPT = i -> new RequestSpec(String.join(" ", java.util.Collections.nCopies(512,
            "tok")), List.of(), 4, 512, Map.of(), "default");

    private double hitRate(boolean reset, Path out) {
        try (Simulator sim = Simulator.start(SimConfig.presetBuilder("fast").build())) {
            RunResult r = Kneepoint.sweep(Kneepoint.target(sim)).concurrency(1, 2).workload(SAME_PROMPT)
                    .maxRequestsPerStep(4).warmup(Duration.ZERO).stepDuration(Duration.ofSeconds(20))
                    .telemetry(Telemetry.off()).resetPrefixCache(reset).outputDir(out).name(reset ? "reset" : "kept")
                    .run();
            assertThat(r.complete()).isTrue();
            return sim.stats().prefixCacheHitRate();
        }
    }

    @Test
    void eachStepStartsColdAndTheManifestCountsTheResets() throws Exception {
        double kept = hitRate(false, runs);
        double reset = hitRate(true, runs);
        // Kept: only the very first request computes the prompt. Reset: the first request(s) of each step do again.
        assertThat(reset).isLessThan(kept);
        Path dir;
        try (var listing = java.nio.file.Files.list(runs)) {
            dir = listing.filter(p -> p.getFileName().toString().endsWith("-reset")).findFirst().orElseThrow();
        }
        JsonNode reset0 = new ObjectMapper().readTree(dir.resolve("manifest.json").toFile()).at("/config/prefix_cache_reset");
        assertThat(reset0.path("endpoint").asText()).isEqualTo("/reset_prefix_cache");
        // Before the first step, and after each of the two.
        assertThat(reset0.path("resets").asInt()).isEqualTo(3);
        assertThat(reset0.path("failures")).isEmpty();
    }

    @Test
    void aResetNeedsTheServersIdentity() {
        try (Simulator sim = Simulator.start(SimConfig.presetBuilder("fast").build())) {
            assertThatThrownBy(() -> Kneepoint.sweep(Kneepoint.target(sim)).concurrency(1).preflight(false)
                    .resetPrefixCache(true).telemetry(Telemetry.off()).outputDir(null).run())
                    .hasMessageContaining("resetPrefixCache needs the preflight");
        }
    }
}
