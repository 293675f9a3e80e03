package dev.kneepoint.cli;

import static org.assertj.core.api.Assertions.assertThat;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import dev.kneepoint.sim.SimConfig;
import dev.kneepoint.sim.Simulator;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.stream.Stream;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** {@code kneepoint run --rate-sweep N [--throughput-concurrency C]}: a sweep, and clear errors for bad options. */
class RateSweepOptionsTest {
    @TempDir
    Path out;

    @Test
    void runSweepsRatesPlannedFromTheProbesAndPrintsEachStep() throws Exception {
        Path runs = out.resolve("runs");
        String progress;
        try (Simulator sim = Simulator.start(SimConfig.preset("fast"))) {
            progress = Captured.run(() -> Main.execute("run", "--url", sim.url(), "--model", "sim-fast", "--rate-sweep", "2",
                    "--throughput-concurrency", "16", "--input-tokens", "32", "--output-tokens", "16",
                    "--duration", "400ms", "--warmup", "100ms", "--no-telemetry", "--no-client-warmup",
                    "--out", runs.toString(), "--name", "rs"), System.err, 0);
        }
        // Progress: the sweep plans as it goes, so each line gives its bound: the two probes, up to 3 doublings of the
        // throughput probe and the 2 open steps (each doubled probe adds one step, the plan then adds the open two).
        assertThat(progress).contains("[1/at most 7] step synchronous (closed loop")
                .contains("[2/at most 7] step throughput (closed loop").contains("at most about")
                .contains("ladder adds 1 steps: did 16 users saturate the server: probing 32 users")
                .contains("ladder adds 2 steps: rates [");
        Path dir;
        try (Stream<Path> list = Files.list(runs)) {
            dir = list.findFirst().orElseThrow();
        }
        JsonNode config = new ObjectMapper().readTree(dir.resolve("manifest.json").toFile()).get("config");
        assertThat(config.get("mode").asText()).isEqualTo("rate-sweep");
        assertThat(config.at("/rate_sweep/throughput_concurrency").asInt()).isEqualTo(16);
        JsonNode steps = new ObjectMapper().readTree(dir.resolve("summary.json").toFile()).get("steps");
        int probes = config.at("/rate_sweep/saturation/probes").size();
        assertThat(probes).isBetween(2, 4);
        assertThat(steps).hasSize(1 + probes + 2);
        assertThat(progress).contains("[" + steps.size() + "/at most 7] step rate=");
        // The summary's steps say each step's real mode and rate: the planned rates, open loop.
        for (int k = 0; k < 2; k++) {
            JsonNode step = steps.get(1 + probes + k);
            assertThat(step.get("mode").asText()).isEqualTo("open");
            assertThat(step.get("rate_rps").asDouble()).isEqualTo(config.at("/rate_sweep/planned_rates_rps/" + k).asDouble());
        }
    }

    @Test
    void rateSweepOptionErrorsAreListedTogetherInTheCommandLinesTerms() throws Exception {
        String err = Captured.run(() -> Main.execute("run", "--url", "http://127.0.0.1:9", "--model", "m", "--rate-sweep", "1",
                "--throughput-concurrency", "1", "--rate", "2", "--concurrency", "4", "--baseline",
                "--out", out.toString()), System.err, 2);
        assertThat(err).contains("--rate-sweep takes 2 to 50 open-loop steps, got 1")
                .contains("--throughput-concurrency must be >= 2 users, got 1")
                .contains("--rate-sweep plans its own steps: remove --concurrency, --rate, --baseline");
        err = Captured.run(() -> Main.execute("run", "--url", "http://127.0.0.1:9", "--model", "m", "--rate", "2",
                "--throughput-concurrency", "64", "--out", out.toString()), System.err, 2);
        assertThat(err).contains("--throughput-concurrency applies to --rate-sweep only: add --rate-sweep N");
        err = Captured.run(() -> Main.execute("run", "--url", "http://127.0.0.1:9", "--model", "m", "--rate-sweep", "many",
                "--out", out.toString()), System.err, 2);
        assertThat(err).contains("--rate-sweep").contains("many");
    }
}
