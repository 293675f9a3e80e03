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

/** {@code kneepoint run --tools builtin|FILE [--tool-choice C]}: a run whose answers call tools, and clear errors. */
class ToolOptionsTest {
    @TempDir
    Path out;

    @Test
    void runOffersAToolFileAndMeasuresTheCalls() throws Exception {
        Path tools = Files.writeString(out.resolve("tools.json"),
                "[{\"type\":\"function\",\"function\":{\"name\":\"lookup\",\"parameters\":{\"type\":\"object\"}}}]");
        Path runs = out.resolve("runs");
        try (Simulator sim = Simulator.start(SimConfig.preset("fast"))) {
            String printed = Captured.run(() -> Main.execute("run", "--url", sim.url(), "--model", "sim-fast",
                    "--concurrency", "2", "--max-requests", "6", "--warmup", "0s", "--output-tokens", "8",
                    "--tools", tools.toString(), "--tool-choice", "lookup", "--no-telemetry", "--no-client-warmup",
                    "--out", runs.toString(), "--name", "tools"), System.out, 0);
            assertThat(printed).contains("offering 1 tool (" + tools + ", tool_choice lookup");
        }
        Path dir;
        try (Stream<Path> list = Files.list(runs)) {
            dir = list.findFirst().orElseThrow();
        }
        JsonNode step = new ObjectMapper().readTree(dir.resolve("summary.json").toFile()).get("steps").get(0);
        assertThat(step.get("requests_ok").asInt()).isEqualTo(6);
        assertThat(Files.readAllLines(dir.resolve("requests.jsonl"))).hasSize(6)
                .allSatisfy(l -> assertThat(l).contains("\"t_first_tool_call_ns\":").contains("\"output_tokens\":8,"));
    }

    @Test
    void aChoiceWithoutToolsOrAMissingFileIsRefusedWithTheFix() throws Exception {
        String err = Captured.run(() -> Main.execute("run", "--url", "http://127.0.0.1:9", "--model", "m",
                "--concurrency", "1", "--tool-choice", "required", "--out", out.toString()), System.err, 2);
        assertThat(err).contains("--tool-choice applies with --tools only: add --tools builtin or --tools FILE");
        err = Captured.run(() -> Main.execute("run", "--url", "http://127.0.0.1:9", "--model", "m",
                "--concurrency", "1", "--tools", out.resolve("none.json").toString(), "--out", out.toString()),
                System.err, 2);
        assertThat(err).contains("tools file").contains("none.json").contains("cannot be read");
    }
}
