package dev.kneepoint.io;

import dev.kneepoint.metrics.ClientHealth;
import static org.assertj.core.api.Assertions.assertThat;

import dev.kneepoint.metrics.Outcome;
import dev.kneepoint.metrics.RequestRecord;
import dev.kneepoint.metrics.StepResult;
import dev.kneepoint.metrics.TestRecords;
import java.io.StringWriter;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardOpenOption;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

class RunLoaderStreamTest {

    @TempDir
    Path tmp;

    /** A small two-step run with failures, tags, a malformed line 3 and a truncated last line. */
    static Path messyRun(Path parent) throws Exception {
        Path dir;
        try (RunDirectory run = RunDirectory.builder(parent).open()) {
            dir = run.path();
            run.stepStarted(TestRecords.closedStep("c=1", 1), 0, null);
            for (int i = 0; i < 6; i++) {
                RequestRecord.Builder b = TestRecords.ok(i, "c=1", i * 100, i * 100 + 1,
                        new double[] {i * 100 + 20, i * 100 + 30, i * 100 + 45}, new int[] {1, 2, 1});
                b.tag = i % 2 == 0 ? "chat" : "summarize";
                run.requestFinished(b.build());
            }
            run.stepFinished(TestRecords.closedStep("c=1", 1), TestRecords.window(0, 700), ClientHealth.NOT_MEASURED);
            run.stepStarted(TestRecords.closedStep("c=2", 2), TestRecords.nanos(800), null);
            for (int i = 6; i < 12; i++) {
                run.requestFinished(i % 3 == 0
                        ? TestRecords.failed(i, "c=2", i * 100, i * 100 + 5, new Outcome.HttpError(503, "busy \"quoted\""))
                        : TestRecords.ok(i, "c=2", i * 100, i * 100 + 2, new double[] {i * 100 + 40, i * 100 + 70},
                                new int[] {1, 3}).build());
            }
            run.stepFinished(TestRecords.closedStep("c=2", 2), TestRecords.window(800, 1300), ClientHealth.NOT_MEASURED);
        }
        Path jsonl = dir.resolve("requests.jsonl");
        List<String> lines = new ArrayList<>(Files.readAllLines(jsonl));
        lines.add(2, "{\"id\": 99, \"step\": \"c=1\", \"outcome\": \"NOT_AN_OUTCOME\", \"token_source\": \"events\"}");
        Files.write(jsonl, lines);
        Files.writeString(jsonl, lines.get(4).substring(0, 50), StandardOpenOption.APPEND); // crash mid-line
        return dir;
    }

    @Test
    void streamingGivesTheSameRecordsStepsAndProblemsAsTheListPath() throws Exception {
        Path dir = messyRun(tmp);
        LoadedRun loaded = RunLoader.load(dir);
        List<RequestRecord> streamedRecords = new ArrayList<>();
        StreamedRun streamed = RunLoader.stream(dir, streamedRecords::add);

        assertThat(streamedRecords).hasSize(12).isEqualTo(loaded.records());
        assertThat(streamed.records()).isEqualTo(12);
        assertThat(streamed.problems()).extracting(LoadedRun.LineProblem::lineNumber).containsExactly(3L);
        assertThat(streamed.problems().get(0).message()).contains("NOT_AN_OUTCOME");
        assertThat(streamed.truncatedLastLine()).isTrue();
        assertThat(streamed.complete()).isTrue();
        assertThat(loaded.problems()).isEqualTo(streamed.problems());
        // The detail text with escaped quotes survives (that line takes the general parser).
        assertThat(streamedRecords.get(6).outcome()).isEqualTo(new Outcome.HttpError(503, "busy \"quoted\""));
        for (StepResult s : loaded.result().steps()) {
            StepResult t = streamed.result().step(s.info().label());
            assertThat(t.counts().requestsOk()).isEqualTo(s.counts().requestsOk());
            assertThat(t.counts().requestsFailed()).isEqualTo(s.counts().requestsFailed());
            assertThat(t.latency().ttft().p99()).isEqualTo(s.latency().ttft().p99());
            assertThat(t.latency().itl().p50()).isEqualTo(s.latency().itl().p50());
            assertThat(t.rates().outputTokensPerS()).isEqualTo(s.rates().outputTokensPerS());
        }
    }

    @Test
    void theCanonicalFastPathAndTheGeneralParserAgree() throws Exception {
        RequestParser parser = new RequestParser();
        CanonicalRequestParser canonical = new CanonicalRequestParser();
        RequestRecord.Builder b = TestRecords.ok(7, "c=4 ü", 10, 11, new double[] {30, 31.5, 40}, new int[] {1, 2, 3});
        b.tag = "tag/é";
        b.finishReason = null;
        RequestRecord plain = b.build();
        b.serverTimings = Map.of("queue_ms", 1.5);
        RequestRecord withTimings = b.build();
        for (RequestRecord r : List.of(plain, withTimings,
                TestRecords.failed(8, "c=4", 5, 9, new Outcome.Timeout(Outcome.TimeoutKind.IDLE)))) {
            byte[] line = line(r);
            RequestRecord fast = canonical.parse(line, 0, line.length);
            RequestRecord general = parser.parseGeneral(line, 0, line.length);
            assertThat(general).isEqualTo(r);
            assertThat(parser.parse(line, 0, line.length)).isEqualTo(r);
            if (r.response().serverTimings().isEmpty()) {
                assertThat(fast).isEqualTo(r); // canonical form: taken by the fast path
            } else {
                assertThat(fast).isNull();     // non-empty server timings: left to Jackson
            }
        }
        byte[] spaced = "{ \"id\": 1, \"step\": \"s\", \"token_source\": \"events\", \"outcome\": \"OK\" }"
                .getBytes(StandardCharsets.UTF_8);
        assertThat(canonical.parse(spaced, 0, spaced.length)).isNull();
        assertThat(parser.parse(spaced, 0, spaced.length).id()).isEqualTo(1);
    }

    private static byte[] line(RequestRecord r) throws Exception {
        StringWriter w = new StringWriter();
        try (var g = Json.MAPPER.getFactory().createGenerator(w)) {
            RequestJson.write(g, r);
        }
        return w.toString().getBytes(StandardCharsets.UTF_8);
    }
}
