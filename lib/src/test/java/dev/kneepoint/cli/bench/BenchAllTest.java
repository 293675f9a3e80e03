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
 * The orchestration without running a bench: a checkout without the kernel's virtual env skips the kernel
 * part with the install command, and the results files are written with the machine described.
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
}
