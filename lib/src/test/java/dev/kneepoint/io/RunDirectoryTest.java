package dev.kneepoint.io;

import dev.kneepoint.metrics.ClientHealth;
import static dev.kneepoint.metrics.TestRecords.failed;
import static dev.kneepoint.metrics.TestRecords.ok;
import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;
import static org.assertj.core.api.Assertions.within;

import com.fasterxml.jackson.databind.JsonNode;
import dev.kneepoint.metrics.Outcome;
import dev.kneepoint.metrics.RequestRecord;
import dev.kneepoint.metrics.Slo;
import dev.kneepoint.metrics.StepInfo;
import dev.kneepoint.metrics.StepResult;
import dev.kneepoint.metrics.TestRecords;
import dev.kneepoint.metrics.TokenSource;
import dev.kneepoint.metrics.WindowPlan;
import java.io.File;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Clock;
import java.time.Instant;
import java.time.ZoneOffset;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import org.HdrHistogram.Histogram;
import org.HdrHistogram.HistogramLogReader;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

class RunDirectoryTest {

    @TempDir
    Path tmp;

    private static final Clock FIXED = Clock.fixed(Instant.parse("2026-03-04T05:06:07Z"), ZoneOffset.UTC);

    static List<RequestRecord> sampleRecords(String step) {
        List<RequestRecord> out = new ArrayList<>();
        RequestRecord.Builder b = ok(1, step, 0, 2, new double[] {40, 55, 70}, new int[] {1, 3, 2});
        b.serverTimings = Map.of("prompt_ms", 12.5, "predicted_ms", 30.0);
        b.requestedOutputTokens = 6;
        b.requestedPromptTokens = 100;
        b.clientCountedTokens = 5;
        b.reasoningTokens = 1;
        b.tag = "fg";
        out.add(b.build());
        RequestRecord.Builder w = ok(2, step, 0, 0, new double[] {30}, new int[] {1});
        w.warmup = true;
        w.tokenSource = TokenSource.EVENTS;
        w.finishReason = null;
        w.streamed = false;
        out.add(w.build());
        out.add(failed(3, step, 10, 20, new Outcome.HttpError(429, "slow \"down\"\nnow")));
        out.add(failed(4, step, 10, 20, new Outcome.Timeout(Outcome.TimeoutKind.FIRST_TOKEN)));
        out.add(failed(5, step, 10, 10, Outcome.DROPPED));
        out.add(failed(6, step, 10, 30, new Outcome.StreamError("bad json")));
        return out;
    }

    @Test
    void recordsRoundTripAndTheRunReaggregatesToTheSameNumbers() throws Exception {
        StepInfo info = TestRecords.closedStep("c=4", 4);
        List<RequestRecord> records = sampleRecords("c=4");
        StepResult live;
        Path dir;
        try (RunDirectory run = RunDirectory.builder(tmp).slug("Round Trip!").clock(FIXED)
                .targetUrl("http://x/v1").model("m").config(Map.of("seed", 42)).slo(Slo.builder().ttftMs(50).build())
                .open()) {
            dir = run.path();
            run.stepStarted(info, 0, null);
            records.forEach(run::requestFinished);
            run.stepFinished(info, TestRecords.window(0, 100), ClientHealth.NOT_MEASURED);
            live = run.aggregator().results().get(0);
            // The writer's result carries its directory; a result aggregated in memory does not.
            assertThat(run.result(true).directory()).contains(dir);
            assertThat(run.aggregator().result("x", true, FIXED.instant(), "").directory()).isEmpty();
        }
        assertThat(dir.getFileName().toString()).isEqualTo("20260304-050607-round-trip");
        LoadedRun loaded = RunLoader.load(dir);
        assertThat(loaded.result().directory()).contains(dir);
        assertThat(loaded.records()).containsExactlyElementsOf(records);
        assertThat(loaded.records().get(2).outcome().detail()).isEqualTo("slow \"down\"\nnow");
        assertThat(loaded.problems()).isEmpty();
        assertThat(loaded.truncatedLastLine()).isFalse();
        assertThat(loaded.complete()).isTrue();
        assertThat(loaded.manifest().path("config").path("seed").asInt()).isEqualTo(42);
        assertThat(loaded.manifest().path("cpu_count").asInt()).isPositive();
        StepResult again = loaded.result().step("c=4");
        assertThat(again.info()).isEqualTo(info);
        assertThat(again.slo()).isEqualTo(live.slo());
        assertThat(again.counts().requestsOk()).isEqualTo(live.counts().requestsOk()).isEqualTo(1);
        assertThat(again.counts().failuresByClass()).isEqualTo(live.counts().failuresByClass()).hasSize(4);
        assertThat(again.rates().outputTokensPerS()).isEqualTo(live.rates().outputTokensPerS());
        assertThat(again.rates().goodputRps()).isEqualTo(live.rates().goodputRps());
        assertThat(again.latency().itl().histogram()).isEqualTo(live.latency().itl().histogram());
        // Summary written at close agrees with the live result: 7 tokens in the 0.1 s window.
        JsonNode step = loaded.summary().orElseThrow().path("steps").get(0);
        assertThat(step.path("output_tokens_per_s").asDouble()).isCloseTo(70.0, within(1e-6));
        assertThat(loaded.summary().get().path("complete").asBoolean()).isTrue();
        // Derived convenience fields are written: ttft = 40 - 2 ms.
        String firstLine = Files.readAllLines(dir.resolve("requests.jsonl")).get(0);
        assertThat(Json.MAPPER.readTree(firstLine).path("ttft_ms").asDouble()).isEqualTo(38.0);
    }

    @Test
    void hlogHoldsOneTaggedIntervalPerStep() throws Exception {
        Path dir;
        try (RunDirectory run = RunDirectory.builder(tmp).clock(FIXED).open()) {
            dir = run.path();
            for (int s = 0; s < 2; s++) {
                StepInfo info = new StepInfo(s, "c=" + (s + 1), StepInfo.CLOSED, s + 1, Double.NaN, "", -1, "", 0, -1, -1);
                run.stepStarted(info, s * 1_000_000_000L, null);
                run.requestFinished(ok(s, info.label(), s * 1000, s * 1000, new double[] {s * 1000 + 20 + s * 10},
                        new int[] {1}).build());
                run.stepFinished(info, new dev.kneepoint.metrics.StepWindow(s * 1_000_000_000L,
                        s * 1_000_000_000L, (s + 1) * 1_000_000_000L, true), ClientHealth.NOT_MEASURED);
            }
        }
        HistogramLogReader reader = new HistogramLogReader(new File(dir.resolve("ttft.hlog").toString()));
        Histogram first = (Histogram) reader.nextIntervalHistogram();
        Histogram second = (Histogram) reader.nextIntervalHistogram();
        assertThat(reader.nextIntervalHistogram()).isNull();
        assertThat(first.getTag()).isEqualTo("c=1");
        assertThat(second.getTag()).isEqualTo("c=2");
        // ttft 20 ms and 30 ms, within HdrHistogram's 0.1%.
        assertThat(first.getMaxValue()).isCloseTo(20_000_000L, within(20_000L));
        assertThat(second.getMaxValue()).isCloseTo(30_000_000L, within(30_000L));
        assertThat(dir.resolve("itl.hlog")).exists();
        assertThat(dir.resolve("e2e_sched.hlog")).exists();
    }

    @Test
    void twoRunsStartedInTheSameSecondGetDistinctFolders() {
        try (RunDirectory a = RunDirectory.builder(tmp).slug("same").clock(FIXED).open();
             RunDirectory b = RunDirectory.builder(tmp).slug("same").clock(FIXED).open()) {
            assertThat(a.path()).isNotEqualTo(b.path());
            assertThat(b.runId()).isEqualTo("20260304-050607-same-2");
            assertThat(a.path().getParent()).isEqualTo(tmp);
        }
    }

    @Test
    void aPlannedStepIsCountedLiveAndReadsBackToTheSameNumbers() throws Exception {
        StepInfo info = TestRecords.closedStep("c=4", 4);
        List<RequestRecord> records = sampleRecords("c=4");
        StepResult live;
        Path dir;
        try (RunDirectory run = RunDirectory.builder(tmp).slug("planned").clock(FIXED).targetUrl("http://x/v1")
                .slo(Slo.builder().ttftMs(50).build()).open()) {
            dir = run.path();
            run.stepStarted(info, 0, WindowPlan.startingAt(0));
            records.forEach(run::requestFinished);
            run.stepLoadStopping(info);
            run.stepFinished(info, TestRecords.window(0, 100), ClientHealth.NOT_MEASURED);
            live = run.aggregator().results().get(0);
        }
        StepResult again = RunLoader.load(dir).result().step("c=4");
        assertThat(again.rates().outputTokensPerS()).isEqualTo(live.rates().outputTokensPerS())
                .isCloseTo(70.0, within(1e-6));
        assertThat(again.rates().requestsPerS()).isEqualTo(live.rates().requestsPerS());
        assertThat(again.rates().concurrencyMean()).isEqualTo(live.rates().concurrencyMean());
        assertThat(again.rates().goodputRps()).isEqualTo(live.rates().goodputRps());
        // The plan reached the aggregator (it was counted live): a window the plan did not allow is refused.
        try (RunDirectory run = RunDirectory.builder(tmp).slug("refused").clock(FIXED).targetUrl("http://x/v1").open()) {
            run.stepStarted(info, 0, WindowPlan.startingAt(TestRecords.nanos(50)));
            records.forEach(run::requestFinished);
            run.stepLoadStopping(info);
            assertThatThrownBy(() -> run.stepFinished(info, TestRecords.window(0, 100), ClientHealth.NOT_MEASURED))
                    .isInstanceOf(IllegalArgumentException.class).hasMessageContaining("starting at 50000000");
        }
    }

    @Test
    void builderReportsEveryProblemAtOnce() {
        assertThatThrownBy(() -> RunDirectory.builder(tmp).model(null).slo(null).flushIntervalMillis(0).open())
                .isInstanceOf(IllegalArgumentException.class)
                .hasMessageContaining("model must not be null")
                .hasMessageContaining("slo must not be null")
                .hasMessageContaining("flush interval must be within 1..1000 ms, got 0");
    }

    @Test
    void manifestSaysIncompleteUntilCleanClose() throws Exception {
        RunDirectory run = RunDirectory.builder(tmp).clock(FIXED).open();
        JsonNode before = Json.MAPPER.readTree(run.path().resolve("manifest.json").toFile());
        assertThat(before.path("complete").asBoolean(true)).isFalse();
        assertThat(before.path("start_time").asText()).isEqualTo("2026-03-04T05:06:07Z");
        assertThat(before.path("jvm").path("version").asText()).isNotEmpty();
        run.close();
        JsonNode after = Json.MAPPER.readTree(run.path().resolve("manifest.json").toFile());
        assertThat(after.path("complete").asBoolean()).isTrue();
        assertThat(run.path().resolve("manifest.json.tmp")).doesNotExist();
    }
}
