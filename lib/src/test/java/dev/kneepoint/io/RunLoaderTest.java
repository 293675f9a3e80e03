package dev.kneepoint.io;

import dev.kneepoint.metrics.ClientHealth;
import static dev.kneepoint.metrics.TestRecords.ok;
import static org.assertj.core.api.Assertions.assertThat;

import dev.kneepoint.metrics.RequestRecord;
import dev.kneepoint.metrics.StepResult;
import dev.kneepoint.metrics.TestRecords;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardOpenOption;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

class RunLoaderTest {

    @TempDir
    Path tmp;

    @Test
    void malformedLinesAreReportedByNumberAndATruncatedTailIsTolerated() throws Exception {
        Path dir;
        try (RunDirectory run = RunDirectory.builder(tmp).open()) {
            dir = run.path();
            run.stepStarted(TestRecords.closedStep("c=1", 1), 0, null);
            for (int i = 0; i < 3; i++) {
                run.requestFinished(ok(i, "c=1", i * 10, i * 10, new double[] {i * 10 + 5}, new int[] {1}).build());
            }
            run.stepFinished(TestRecords.closedStep("c=1", 1), TestRecords.window(0, 100), ClientHealth.NOT_MEASURED);
        }
        Path jsonl = dir.resolve("requests.jsonl");
        var lines = new java.util.ArrayList<>(Files.readAllLines(jsonl));
        lines.add(1, "{\"id\": 99, \"step\": \"c=1\", \"outcome\": \"NOT_AN_OUTCOME\", \"token_source\": \"events\"}");
        lines.add(3, "not json at all");
        Files.write(jsonl, lines);
        String partial = lines.get(0).substring(0, 40);
        Files.writeString(jsonl, partial, StandardOpenOption.APPEND); // crash mid-line: no newline
        LoadedRun loaded = RunLoader.load(dir);
        assertThat(loaded.records()).extracting(RequestRecord::id).containsExactly(0L, 1L, 2L);
        assertThat(loaded.problems()).extracting(LoadedRun.LineProblem::lineNumber).containsExactly(2L, 4L);
        assertThat(loaded.problems().get(0).message()).contains("NOT_AN_OUTCOME");
        assertThat(loaded.truncatedLastLine()).isTrue();
    }

    @Test
    void aStepThatNeverFinishedGetsAWindowUpToItsLastRecordAndTheRunIsIncomplete() throws Exception {
        RunDirectory run = RunDirectory.builder(tmp).open();
        run.stepStarted(TestRecords.closedStep("c=1", 1), 0, null);
        run.requestFinished(ok(0, "c=1", 0, 0, new double[] {500}, new int[] {5}).build()); // ends at 501 ms
        run.flush();
        // No close: the process "died" here. Load what is on disk.
        LoadedRun loaded = RunLoader.load(run.path());
        assertThat(loaded.complete()).isFalse();
        StepResult s = loaded.result().step("c=1");
        assertThat(s.window().completed()).isFalse();
        assertThat(s.window().endNanos()).isEqualTo(TestRecords.nanos(501));
        assertThat(s.counts().requestsOk()).isEqualTo(1);
        run.close();
        assertThat(RunLoader.load(run.path()).complete()).isTrue();
    }
}
