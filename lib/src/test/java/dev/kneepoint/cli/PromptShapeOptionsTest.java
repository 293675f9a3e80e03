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

/**
 * {@code kneepoint run --shared-prefix TOKENS [--prefixes N]} and {@code --multi-turn TURNS}: synthetic prompts sharing
 * a prefix, or chat sessions; clear errors.
 */
class PromptShapeOptionsTest {
    @TempDir
    Path out;

    @Test
    void runSharesThePrefixAndSaysSo() throws Exception {
        Path runs = out.resolve("runs");
        try (Simulator sim = Simulator.start(SimConfig.preset("fast"))) {
            String printed = Captured.run(() -> Main.execute("run", "--url", sim.url(), "--model", "sim-fast",
                    "--concurrency", "1", "--max-requests", "4", "--warmup", "0s", "--input-tokens", "120",
                    "--output-tokens", "4", "--shared-prefix", "100", "--prefixes", "2", "--no-telemetry",
                    "--no-client-warmup", "--out", runs.toString(), "--name", "prefix"), System.out, 0);
            assertThat(printed).contains("each sharing a prefix of 100 tokens with its group (2 groups)");
            assertThat(sim.stats().prefixCacheHitRate()).isPositive();
        }
        Path dir;
        try (Stream<Path> list = Files.list(runs)) {
            dir = list.findFirst().orElseThrow();
        }
        JsonNode w = new ObjectMapper().readTree(dir.resolve("manifest.json").toFile()).at("/config/workload");
        assertThat(w.get("prefix_tokens").asInt()).isEqualTo(100);
    }

    @Test
    void runSendsChatSessionsAndSaysSo() throws Exception {
        try (Simulator sim = Simulator.start(SimConfig.preset("fast"))) {
            String printed = Captured.run(() -> Main.execute("run", "--url", sim.url(), "--model", "sim-fast",
                    "--concurrency", "1", "--max-requests", "4", "--warmup", "0s", "--input-tokens", "30",
                    "--output-tokens", "4", "--multi-turn", "2", "--no-telemetry", "--no-client-warmup",
                    "--out", out.resolve("runs").toString(), "--name", "sessions"), System.out, 0);
            assertThat(printed).contains("chat sessions of 2 turns, each turn a new user message of 30 tokens on the "
                    + "session's history, answers of 4 tokens");
        }
        String err = Captured.run(() -> Main.execute("run", "--url", "http://127.0.0.1:9", "--model", "m",
                "--concurrency", "1", "--multi-turn", "0", "--out", out.toString()), System.err, 2);
        assertThat(err).contains("multiTurn takes 1 or more turns per session, got 0");
    }

    @Test
    void prefixesWithoutASharedPrefixOrBesideADatasetAreRefused() throws Exception {
        String err = Captured.run(() -> Main.execute("run", "--url", "http://127.0.0.1:9", "--model", "m",
                "--concurrency", "1", "--prefixes", "4", "--out", out.toString()), System.err, 2);
        assertThat(err).contains("--prefixes applies with --shared-prefix only");
        Path data = Files.writeString(out.resolve("d.jsonl"), "{\"prompt\":\"x\"}\n");
        err = Captured.run(() -> Main.execute("run", "--url", "http://127.0.0.1:9", "--model", "m",
                "--concurrency", "1", "--dataset", data.toString(), "--shared-prefix", "8", "--out", out.toString()),
                System.err, 2);
        assertThat(err).contains("--shared-prefix does not apply to --dataset");
    }
}
