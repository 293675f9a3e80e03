package dev.kneepoint.analysis;

import dev.kneepoint.metrics.ClientHealth;
import static org.assertj.core.api.Assertions.assertThat;

import dev.kneepoint.io.LoadedRun;
import dev.kneepoint.io.RunDirectory;
import dev.kneepoint.io.RunLoader;
import dev.kneepoint.metrics.Outcome;
import dev.kneepoint.metrics.RequestRecord;
import dev.kneepoint.metrics.TestRecords;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardOpenOption;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import tech.tablesaw.api.Table;
import tech.tablesaw.columns.Column;

class RunTablesTest {

    @TempDir
    Path tmp;

    /** Three steps over ~3 s, failures, a malformed line 4 and a truncated last line. */
    private Path run() throws Exception {
        Path dir;
        try (RunDirectory run = RunDirectory.builder(tmp).open()) {
            dir = run.path();
            int id = 0;
            for (int s = 0; s < 3; s++) {
                String label = "c=" + (1 << s);
                double start = s * 1000;
                run.stepStarted(TestRecords.closedStep(label, 1 << s), TestRecords.nanos(start), null);
                for (int i = 0; i < 20; i++) {
                    double t = start + i * 45;
                    if (i % 7 == 3) {
                        run.requestFinished(TestRecords.failed(id++, label, t, t + 30, new Outcome.StreamError("reset")));
                        continue;
                    }
                    RequestRecord.Builder b = TestRecords.ok(id++, label, t, t + 0.5,
                            new double[] {t + 20 + s * 10, t + 28 + s * 15, t + 40 + s * 20}, new int[] {1, 2, 1});
                    b.tag = i % 2 == 0 ? "chat" : "code";
                    b.warmup = i < 2;
                    run.requestFinished(b.build());
                }
                run.stepFinished(TestRecords.closedStep(label, 1 << s), TestRecords.window(start + 90, start + 950), ClientHealth.NOT_MEASURED);
            }
        }
        Path jsonl = dir.resolve("requests.jsonl");
        List<String> lines = new ArrayList<>(Files.readAllLines(jsonl));
        lines.add(3, "{\"id\": 1000, \"step\": ");
        Files.write(jsonl, lines);
        Files.writeString(jsonl, lines.get(10).substring(0, 60), StandardOpenOption.APPEND);
        return dir;
    }

    @Test
    void theStreamingPathGivesTheListPathsTablesStepsAndProblems() throws Exception {
        Path dir = run();
        LoadedRun list = RunLoader.load(dir);
        // 250 ms base, at most 5 intervals: a ~2.9 s run forces two doublings, to 1 s.
        RunTables streamed = RunTables.load(dir, Duration.ofMillis(250), 5);

        assertThat(streamed.problems()).extracting(LoadedRun.LineProblem::lineNumber).containsExactly(4L);
        assertThat(streamed.source().truncatedLastLine()).isTrue();
        assertThat(streamed.source().records()).isEqualTo(60);
        assertThat(streamed.complete()).isTrue();
        assertSameTable(streamed.requests(), Tables.requests(list.records()));
        assertSameTable(streamed.steps(), Tables.steps(list.result()));
        assertThat(streamed.interval()).isEqualTo(Duration.ofSeconds(1));
        assertSameTable(streamed.timeSeries(), Tables.timeSeries(list.records(), streamed.interval()));
    }

    @Test
    void theTimeSeriesIntervalStaysAtItsBaseWhenTheRunFits() throws Exception {
        RunTables t = RunTables.load(run());
        assertThat(t.interval()).isEqualTo(RunTables.BASE_INTERVAL);
        assertThat(t.timeSeries().rowCount()).isEqualTo(12); // last event ~2.9 s: intervals [0, 3 s)
    }

    /** Same columns, same values: exact for strings/ints, doubles within 1e-9 relative (summation order). */
    private static void assertSameTable(Table actual, Table expected) {
        assertThat(actual.columnNames()).isEqualTo(expected.columnNames());
        assertThat(actual.rowCount()).isEqualTo(expected.rowCount());
        for (String name : expected.columnNames()) {
            Column<?> a = actual.column(name);
            Column<?> e = expected.column(name);
            for (int row = 0; row < e.size(); row++) {
                Object av = a.get(row);
                Object ev = e.get(row);
                if (ev instanceof Double d && av instanceof Double x && !d.isNaN()) {
                    assertThat(x).as(name + " row " + row).isCloseTo(d, org.assertj.core.data.Offset.offset(
                            1e-9 * Math.max(1, Math.abs(d))));
                } else {
                    assertThat(av).as(name + " row " + row).isEqualTo(ev);
                }
            }
        }
    }
}
