package dev.kneepoint.cli;

import static org.assertj.core.api.Assertions.assertThat;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import dev.kneepoint.sim.SimConfig;
import dev.kneepoint.sim.Simulator;
import dev.kneepoint.telemetry.TelemetryData;
import dev.kneepoint.telemetry.TelemetryLoader;
import java.io.ByteArrayOutputStream;
import java.io.PrintStream;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.stream.Stream;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** {@code run}'s telemetry options reach the sweep: the manifest, telemetry.jsonl and the report show them. */
class RunTelemetryOptionsTest {
    @TempDir
    Path out;

    private int run(String... extra) {
        PrintStream old = System.out;
        try (Simulator sim = Simulator.start(SimConfig.preset("fast"))) {
            System.setOut(new PrintStream(new ByteArrayOutputStream(), true, StandardCharsets.UTF_8));
            String[] base = {"run", "--url", sim.url(), "--model", "sim-fast", "--concurrency", "2",
                    "--input-tokens", "16", "--output-tokens", "8", "--duration", "500ms", "--warmup", "0s",
                    "--out", out.toString()};
            String[] args = Stream.concat(Stream.of(base), Stream.of(extra)).toArray(String[]::new);
            return Main.execute(args);
        } finally {
            System.setOut(old);
        }
    }

    private Path only(String suffix) throws Exception {
        try (Stream<Path> list = Files.list(out)) {
            return list.filter(p -> p.getFileName().toString().endsWith(suffix)).findFirst().orElseThrow();
        }
    }

    @Test
    void optionsReachTheSweep() throws Exception {
        assertThat(run("--name", "on", "--telemetry-interval", "100ms", "--gpu", "off")).isZero();
        Path dir = only("-on");
        JsonNode m = new ObjectMapper().readTree(dir.resolve("manifest.json").toFile());
        assertThat(m.at("/config/telemetry/interval_ms").asLong()).isEqualTo(100);
        assertThat(m.at("/config/telemetry/gpu").asText()).isEqualTo("off");
        TelemetryData t = TelemetryLoader.load(dir);
        assertThat(t.series("server:running")).isNotEmpty();
        assertThat(t.lastStatus()).doesNotContainKey("gpu");
        assertThat(dir.resolve("steps_telemetry.csv")).isNotEmptyFile();

        assertThat(run("--name", "off", "--no-telemetry")).isZero();
        assertThat(only("-off").resolve("telemetry.jsonl")).doesNotExist();
        assertThat(only("-off").resolve("steps_telemetry.csv")).doesNotExist();
    }
}
