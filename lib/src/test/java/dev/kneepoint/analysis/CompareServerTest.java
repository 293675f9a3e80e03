package dev.kneepoint.analysis;

import static dev.kneepoint.analysis.Ladders.run;
import static dev.kneepoint.analysis.Ladders.s;
import static org.assertj.core.api.Assertions.assertThat;

import dev.kneepoint.metrics.RunResult;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** Compare's run-level warnings when the two runs' manifests name different servers ({@code config.server}). */
class CompareServerTest {
    private static final String WHY = ": the comparison measures different servers, not only a configuration change";

    @TempDir
    Path dir;

    /** A run of two identical steps whose directory holds a manifest with {@code server} as its config.server. */
    private RunResult runWith(String id, String server) throws IOException {
        Path d = Files.createDirectories(dir.resolve(id));
        if (server != null) {
            Files.writeString(d.resolve("manifest.json"), "{\"run_id\":\"" + id + "\",\"config\":{\"mode\":\"closed\""
                    + (server.isEmpty() ? "" : ",\"server\":" + server) + "}}");
        }
        return run(id, s(1, 100, 100), s(2, 200, 100)).withDirectory(d);
    }

    /** The warnings about servers; the identical steps give no others (checked in the identical case). */
    private static List<String> serverWarnings(Comparison c) {
        return c.warnings().stream().filter(w -> w.contains("differ (") && w.endsWith(WHY)).toList();
    }

    @Test
    void eachDifferingFieldGivesOneWarningPerRunPair() throws IOException {
        RunResult a = runWith("a", "{\"engine\":\"vllm\",\"version\":\"0.33.0\",\"model\":\"Qwen/Qwen3-8B\","
                + "\"context_length\":8192,\"gpus\":[\"NVIDIA H100 80GB HBM3\"],\"gpu_count\":2,\"answered\":[\"/version\"]}");
        RunResult b = runWith("b", "{\"engine\":\"llamacpp\",\"version\":\"b6400\",\"model\":\"/m/qwen3-8b.gguf\","
                + "\"context_length\":4096,\"gpus\":[\"NVIDIA L40S\"],\"gpu_count\":1,\"answered\":[\"/props\"]}");
        Comparison c = Compare.runs(a, b);
        // Two steps compared, yet one warning per field: the identity is the run's, not a step's. The context
        // length and the endpoints answered differ too, but only engine, version, model and GPUs are compared.
        assertThat(c.warnings()).containsExactly(
                "run a vs b: server engines differ (vllm vs llamacpp)" + WHY,
                "run a vs b: server versions differ (0.33.0 vs b6400)" + WHY,
                "run a vs b: server models differ (Qwen/Qwen3-8B vs /m/qwen3-8b.gguf)" + WHY,
                "run a vs b: GPUs differ (2 x NVIDIA H100 80GB HBM3 vs 1 x NVIDIA L40S)" + WHY);
    }

    @Test
    void eachRunIsComparedWithTheBaseline() throws IOException {
        RunResult a = runWith("a", "{\"engine\":\"vllm\",\"version\":\"0.33.0\"}");
        RunResult b = runWith("b", "{\"engine\":\"vllm\",\"version\":\"0.33.0\"}");
        RunResult c = runWith("c", "{\"engine\":\"vllm\",\"version\":\"0.34.0\"}");
        assertThat(serverWarnings(Compare.runs(a, b, c)))
                .containsExactly("run a vs c: server versions differ (0.33.0 vs 0.34.0)" + WHY);
    }

    @Test
    void aGpuCountAloneOrTheNamesAloneDiffering() throws IOException {
        RunResult one = runWith("one", "{\"engine\":\"vllm\",\"gpus\":[\"NVIDIA H200\"],\"gpu_count\":1}");
        RunResult two = runWith("two", "{\"engine\":\"vllm\",\"gpus\":[\"NVIDIA H200\"],\"gpu_count\":2}");
        RunResult mixed = runWith("mixed", "{\"engine\":\"vllm\",\"gpus\":[\"NVIDIA L40S\",\"NVIDIA H200\"],\"gpu_count\":2}");
        assertThat(serverWarnings(Compare.runs(one, two)))
                .containsExactly("run one vs two: GPUs differ (1 x NVIDIA H200 vs 2 x NVIDIA H200)" + WHY);
        assertThat(serverWarnings(Compare.runs(two, mixed)))
                .containsExactly("run two vs mixed: GPUs differ (2 x NVIDIA H200 vs 2 GPUs (NVIDIA H200, NVIDIA L40S))" + WHY);
    }

    @Test
    void identicalServersGiveNoWarning() throws IOException {
        String server = "{\"engine\":\"vllm\",\"version\":\"0.33.0\",\"model\":\"m\",\"gpus\":[\"NVIDIA H100\"],\"gpu_count\":1}";
        assertThat(Compare.runs(runWith("a", server), runWith("b", server)).warnings()).isEmpty();
    }

    @Test
    void whatEitherManifestLacksIsNotCompared() throws IOException {
        RunResult full = runWith("full", "{\"engine\":\"vllm\",\"version\":\"0.33.0\",\"model\":\"m\","
                + "\"gpus\":[\"NVIDIA H100\"],\"gpu_count\":1}");
        // No GPUs sampled, no version said, an engine no endpoint identified: nothing to hold against the other run.
        RunResult sparse = runWith("sparse", "{\"engine\":\"unknown\",\"model\":\"m\"}");
        assertThat(Compare.runs(full, sparse).warnings()).isEmpty();
        assertThat(Compare.runs(sparse, full).warnings()).isEmpty();
    }

    @Test
    void noManifestNoServerObjectOrNoDirectoryGiveNoWarning() throws IOException {
        RunResult vllm = runWith("vllm", "{\"engine\":\"vllm\",\"version\":\"0.33.0\"}");
        RunResult noManifest = runWith("no-manifest", null);
        RunResult noServer = runWith("no-server", ""); // a run with --no-preflight
        RunResult broken = runWith("broken", "{\"engine\":\"tgi\"}");
        Files.writeString(broken.directory().orElseThrow().resolve("manifest.json"), "{\"config\":{\"server\":"); // cut short
        RunResult inMemory = run("memory", s(1, 100, 100), s(2, 200, 100));
        for (RunResult other : List.of(noManifest, noServer, broken, inMemory)) {
            assertThat(Compare.runs(vllm, other).warnings()).as(other.runId()).isEmpty();
            assertThat(Compare.runs(other, vllm).warnings()).as(other.runId()).isEmpty();
        }
    }
}
