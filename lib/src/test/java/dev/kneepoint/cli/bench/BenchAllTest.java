package dev.kneepoint.cli.bench;

import static org.assertj.core.api.Assertions.assertThat;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import java.io.ByteArrayOutputStream;
import java.io.PrintStream;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * The orchestration: a checkout without the kernel's virtual env skips the kernel part with the install
 * command; the analysis part runs the real {@link LoadBenchmark} in two child JVMs on a small run directory
 * (which also guards its print format against the parser) and deletes the directory afterwards.
 */
class BenchAllTest {
    @TempDir
    Path root;

    @Test
    void kernelWithoutVenvIsSkippedAndResultsAreWritten() throws Exception {
        Path out = root.resolve("results");
        ByteArrayOutputStream progress = new ByteArrayOutputStream();
        BenchReport r = BenchAll.run(new BenchAll.Options(true, List.of(Part.KERNEL), out, null, false, root),
                new PrintStream(progress, true, StandardCharsets.UTF_8));
        assertThat(r.parts()).singleElement().satisfies(p -> {
            assertThat(p.status()).isEqualTo(PartResult.Status.SKIPPED);
            assertThat(p.reason()).contains("bin/kneepoint-kernel is not in").contains("bin/kneepoint kernel install");
        });
        assertThat(r.noPartFailed()).isTrue();
        assertThat(r.machine().cores()).isEqualTo(Runtime.getRuntime().availableProcessors());
        assertThat(r.machine().gitCommit()).isEqualTo("unknown"); // the temp folder is no git checkout
        assertThat(r.machine().gitDirty()).isNull();
        assertThat(out.resolve("results.md")).content().contains("skipped: bin/kneepoint-kernel is not in");
        JsonNode j = new ObjectMapper().readTree(Files.readString(out.resolve("results.json")));
        assertThat(j.get("mode").asText()).isEqualTo("quick");
        assertThat(j.at("/machine/git_dirty").isNull()).isTrue();
        assertThat(j.at("/parts/0/settings").asText()).isEqualTo("1 kernel launch, 10 trivial cells each");
        assertThat(progress.toString(StandardCharsets.UTF_8)).contains("kernel (1 of 1)").contains("kernel skipped");
    }

    @Test
    void analysisRunsInChildJvmsParsesAndCleansUp() throws Exception {
        Path out = root.resolve("results");
        Path work = Files.createDirectories(root.resolve("work"));
        BenchReport r = BenchAll.run(new BenchAll.Options(true, List.of(Part.ANALYSIS), out, work, false, root, 3_000),
                new PrintStream(new ByteArrayOutputStream(), true, StandardCharsets.UTF_8));
        PartResult p = r.parts().get(0);
        assertThat(p.status()).as(p.reason()).isEqualTo(PartResult.Status.OK);
        assertThat(p.commands()).hasSize(2);
        assertThat(p.commands().get(0)).contains("-Xmx6g -cp \"$CP\" dev.kneepoint.cli.bench.LoadBenchmark write " + work + " 3000");
        assertThat(p.figures()).extracting(Figure::key).containsExactly("analysis.total_s", "analysis.heap_bytes_per_request",
                "analysis.idle_2core_estimate_s", "analysis.requests");
        assertThat(p.figures().get(3).value()).isEqualTo(3000); // every record written is loaded back
        assertThat(p.figures().get(0).value()).isPositive();
        assertThat(p.figures().get(0).verdict()).isEqualTo(Verdict.NOT_JUDGED); // 3,000 requests, not 1,000,000
        assertThat(out.resolve("analysis-measure.out")).content().contains("heap held");
        try (var left = Files.list(work)) {
            assertThat(left).as("the run directory is deleted, the given work folder kept").isEmpty();
        }
    }
}
