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

/** {@code kneepoint run --dataset FILE [--dataset-format F] [--no-salt]}: a run of the file's requests, clear errors. */
class DatasetOptionsTest {
    @TempDir
    Path out;

    @Test
    void runSendsTheRecordsWithTheirLengthsAndSaltsTheRepeats() throws Exception {
        Path data = out.resolve("d.jsonl");
        Files.write(data, List.of("{\"prompt\":\"one two three\",\"output_tokens\":5}",
                "{\"messages\":[{\"role\":\"user\",\"content\":\"four five\"}]}"));
        Path runs = out.resolve("runs");
        try (Simulator sim = Simulator.start(SimConfig.preset("fast"))) {
            String printed = Captured.run(() -> Main.execute("run", "--url", sim.url(), "--model", "sim-fast",
                    "--concurrency", "1", "--max-requests", "6", "--warmup", "0s", "--output-tokens", "3",
                    "--dataset", data.toString(), "--dataset-format", "any", "--no-telemetry", "--no-client-warmup",
                    "--out", runs.toString(), "--name", "data"), System.out, 0);
            assertThat(printed).contains("requests from the dataset " + data + " (2 records, repeats salted)");
        }
        Path dir;
        try (Stream<Path> list = Files.list(runs)) {
            dir = list.findFirst().orElseThrow();
        }
        JsonNode config = new ObjectMapper().readTree(dir.resolve("manifest.json").toFile()).get("config");
        assertThat(config.at("/workload/kind").asText()).isEqualTo("dataset");
        assertThat(config.at("/workload/records").asInt()).isEqualTo(2);
        List<JsonNode> lines = Files.readAllLines(dir.resolve("requests.jsonl")).stream().map(DatasetOptionsTest::json)
                .toList();
        assertThat(lines).hasSize(6).allSatisfy(l -> assertThat(l.get("outcome").asText()).isEqualTo("OK"));
        // a record's own length, else --output-tokens; closed loop with one user sends them in order
        assertThat(lines).extracting(l -> l.get("output_tokens").asInt()).containsExactly(5, 3, 5, 3, 5, 3);
        // the simulator's chat template: the plain prompt's three words plus 7; a salted repeat is longer
        assertThat(lines.get(0).get("prompt_tokens").asInt()).isEqualTo(3 + 7);
        assertThat(lines.get(2).get("prompt_tokens").asInt()).isGreaterThan(3 + 7);
    }

    private static JsonNode json(String line) {
        try {
            return new ObjectMapper().readTree(line);
        } catch (Exception e) {
            throw new IllegalStateException(e);
        }
    }

    @Test
    void conflictingOptionsAndBadFilesAreRefusedWithTheFix() throws Exception {
        Path data = Files.writeString(out.resolve("d.jsonl"), "{\"prompt\":\"x\"}\n");
        String err = Captured.run(() -> Main.execute("run", "--url", "http://127.0.0.1:9", "--model", "m",
                "--concurrency", "1", "--dataset", data.toString(), "--input-tokens", "64", "--out", out.toString()),
                System.err, 2);
        assertThat(err).contains("--input-tokens does not apply to --dataset").contains("remove --input-tokens");
        err = Captured.run(() -> Main.execute("run", "--url", "http://127.0.0.1:9", "--model", "m",
                "--concurrency", "1", "--no-salt", "--out", out.toString()), System.err, 2);
        assertThat(err).contains("--no-salt applies to --dataset only: add --dataset FILE");
        err = Captured.run(() -> Main.execute("run", "--url", "http://127.0.0.1:9", "--model", "m",
                "--concurrency", "1", "--dataset", data.toString(), "--dataset-format", "sharegpt",
                "--out", out.toString()), System.err, 2);
        assertThat(err).contains("line 1").contains("no 'conversations' field");
        err = Captured.run(() -> Main.execute("run", "--url", "http://127.0.0.1:9", "--model", "m",
                "--concurrency", "1", "--dataset", out.resolve("none.jsonl").toString(), "--out", out.toString()),
                System.err, 2);
        assertThat(err).contains("none.jsonl").contains("does not exist");
    }
}
