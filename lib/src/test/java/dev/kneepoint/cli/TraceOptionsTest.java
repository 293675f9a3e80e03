package dev.kneepoint.cli;

import static org.assertj.core.api.Assertions.assertThat;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import dev.kneepoint.sim.SimConfig;
import dev.kneepoint.sim.Simulator;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.stream.Stream;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * {@code kneepoint run --trace FILE [--time-scale X] [--block-size N] [--calibrate]}: a replay, and clear errors for
 * bad options.
 */
class TraceOptionsTest {
    @TempDir
    Path out;

    @Test
    void runReplaysATraceTimeScaled() throws Exception {
        Path trace = out.resolve("t.jsonl");
        Files.write(trace, List.of(
                "{\"timestamp\": 0, \"input_length\": 40, \"output_length\": 4, \"hash_ids\": [1]}",
                "{\"timestamp\": 200, \"input_length\": 40, \"output_length\": 4, \"hash_ids\": [1]}",
                "{\"timestamp\": 400, \"input_length\": 40, \"output_length\": 4, \"hash_ids\": [2]}"));
        Path runs = out.resolve("runs");
        try (Simulator sim = Simulator.start(SimConfig.preset("fast"))) {
            String printed = Captured.run(() -> Main.execute("run", "--url", sim.url(), "--model", "sim-fast", "--trace",
                    trace.toString(), "--time-scale", "4", "--block-size", "32", "--no-telemetry",
                    "--no-client-warmup", "--calibrate", "--out", runs.toString(), "--name", "replay"), System.out, 0);
            assertThat(printed).contains("trace x4").doesNotContain("INCOMPLETE");
        }
        Path dir;
        try (Stream<Path> list = Files.list(runs)) {
            dir = list.findFirst().orElseThrow();
        }
        JsonNode config = new ObjectMapper().readTree(dir.resolve("manifest.json").toFile()).get("config");
        assertThat(config.get("time_scale").asDouble()).isEqualTo(4.0);
        assertThat(config.get("trace").get("block_size").asInt()).isEqualTo(32);
        assertThat(config.get("step_duration_s").isNull()).isTrue(); // the whole trace
        assertThat(config.get("prompt_calibration").asText()).startsWith("exact: server:"); // --calibrate
        // 3 requests, 100 ms apart after scaling: the step's window is the 200 ms span plus 1 ms.
        JsonNode step = new ObjectMapper().readTree(dir.resolve("summary.json").toFile()).get("steps").get(0);
        assertThat(step.get("requests_ok").asInt()).isEqualTo(3);
    }

    @Test
    void traceOptionsWithoutATraceOrWithConcurrencyAreRefused() throws Exception {
        String err = Captured.run(() -> Main.execute("run", "--url", "http://127.0.0.1:9", "--model", "m", "--rate", "1",
                "--time-scale", "2", "--out", out.toString()), System.err, 2);
        assertThat(err).contains("--time-scale applies to a trace replay only: add --trace FILE");
        Path trace = out.resolve("bad.jsonl");
        Files.write(trace, List.of("{\"timestamp\": 0, \"input_length\": 1, \"output_length\": 0}"));
        err = Captured.run(() -> Main.execute("run", "--url", "http://127.0.0.1:9", "--model", "m", "--trace", trace.toString(),
                "--concurrency", "2", "--calibrate", "--out", out.toString()), System.err, 2);
        assertThat(err).contains("drop the concurrency levels")
                .contains("calibrate: no tokenizer of the target could be used")
                .contains("line 1: output_length must be a whole number of tokens > 0, got 0");
    }
}
