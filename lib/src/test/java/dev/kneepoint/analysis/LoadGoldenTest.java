package dev.kneepoint.analysis;

import static org.assertj.core.api.Assertions.assertThat;

import dev.kneepoint.io.SyntheticRun;
import java.io.InputStream;
import java.nio.charset.StandardCharsets;
import java.nio.file.Path;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * The loader's speed-ups change no number: {@link RunTables#load} of the generated 20k-request runs (complete,
 * and crashed with malformed lines) reproduces, character for character, every figure the loader produced
 * before them (the golden file, written by commit d3913de with {@link LoadGolden}; regenerated once when the
 * client-check columns were appended to the steps table, after checking that every old line was a prefix of its new
 * line; and once when the {@code retried} columns were added, after checking that every changed line was its old line
 * with one {@code 0} cell inserted after {@code count_discrepancy}, plus one request-column digest per run; and once
 * when {@code StepInfo} gained {@code trial}, after checking that every changed line was its old line with
 * {@code , trial=0} inside its {@code StepInfo[...]}). {@code -Dkneepoint.golden.update=true} rewrites it: only after a deliberate, reviewed change of a figure.
 */
class LoadGoldenTest {
    @TempDir
    Path tmp;

    @Test
    void everyNumberIsWhatTheLoaderGaveBeforeItsOptimisation() throws Exception {
        String golden;
        try (InputStream in = LoadGoldenTest.class.getResourceAsStream("load-golden-20k.txt")) {
            golden = new String(in.readAllBytes(), StandardCharsets.UTF_8);
        }
        String now = LoadGolden.dump(SyntheticRun.write(tmp, 20_000));
        if (Boolean.getBoolean("kneepoint.golden.update")) {
            java.nio.file.Files.writeString(Path.of("src/test/resources/dev/kneepoint/analysis/load-golden-20k.txt"), now);
            return;
        }
        assertThat(golden).contains("== crashed complete=false truncated=true").contains("background bg");
        assertThat(now).isEqualTo(golden); // exact: no tolerance, the same arithmetic must give the same bits
    }
}
