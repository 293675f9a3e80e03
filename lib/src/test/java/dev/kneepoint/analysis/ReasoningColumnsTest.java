package dev.kneepoint.analysis;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.within;

import dev.kneepoint.Kneepoint;
import dev.kneepoint.io.RunLoader;
import dev.kneepoint.metrics.RunResult;
import java.io.InputStream;
import java.nio.charset.StandardCharsets;
import java.nio.file.Path;
import mockwebserver3.Dispatcher;
import mockwebserver3.MockResponse;
import mockwebserver3.MockWebServer;
import mockwebserver3.RecordedRequest;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import tech.tablesaw.api.Table;

/**
 * Reasoning tokens reach the steps table and the text report, and come back on reload; a run without reasoning
 * keeps both unchanged. The server replays fixtures/vllm/chat-reasoning.sse for every request: 2 reasoning
 * deltas ("Let", " me think") and 1 answer delta ("42"), usage completion_tokens 4 (so the events are scaled to
 * 4 output tokens, of which 2 are reasoning: share exactly 0.5).
 */
class ReasoningColumnsTest {
    @TempDir
    Path dir;

    private static String fixture(String name) throws Exception {
        try (InputStream in = ReasoningColumnsTest.class.getResourceAsStream("/fixtures/" + name)) {
            return new String(in.readAllBytes(), StandardCharsets.UTF_8);
        }
    }

    /** The body trickles out at 64 bytes per 5 ms, so later events leave the server measurably later. */
    private static final int BYTES_PER_PERIOD = 64;
    private static final int PERIOD_MS = 5;

    private RunResult run(MockWebServer server, String body) {
        server.setDispatcher(new Dispatcher() {
            @Override
            public MockResponse dispatch(RecordedRequest r) {
                return new MockResponse.Builder().addHeader("Content-Type", "text/event-stream").body(body)
                        .throttleBody(BYTES_PER_PERIOD, PERIOD_MS, java.util.concurrent.TimeUnit.MILLISECONDS).build();
            }
        });
        return Kneepoint.ladder(Kneepoint.target(server.url("/v1").toString(), "m"), 1, 2)
                .maxRequestsPerStep(6).stepDuration(Kneepoint.seconds(20)).warmup(java.time.Duration.ZERO)
                .outputDir(dir).name("reasoning").run();
    }

    @Test
    void reasoningColumnsAppearOnlyWithReasoningAndSurviveReload() throws Exception {
        try (MockWebServer server = new MockWebServer()) {
            server.start();
            RunResult run = run(server, fixture("vllm/chat-reasoning.sse"));
            Table steps = Tables.steps(run);
            assertThat(steps.columnNames()).endsWith("reasoning_tokens", "mean_reasoning_tokens", "reasoning_share",
                    "ttfat_count", "ttfat_p50_ms", "ttfat_p99_ms", "answer_delay_p50_ms");
            for (int i = 0; i < steps.rowCount(); i++) {
                long ok = steps.longColumn("requests_ok").get(i);
                assertThat(ok).isPositive();
                // exact: every OK request carried 2 reasoning tokens of 4 output tokens
                assertThat(steps.longColumn("reasoning_tokens").get(i)).isEqualTo(2 * ok);
                assertThat(steps.doubleColumn("mean_reasoning_tokens").get(i)).isCloseTo(2.0, within(1e-12));
                assertThat(steps.doubleColumn("reasoning_share").get(i)).isCloseTo(0.5, within(1e-12));
            }
            String text = SummaryText.format(run);
            assertThat(text).contains("reason_tok").contains("reason%").contains("50.0")
                    .contains("reason% = their share of the output tokens").contains("ttfat_p50")
                    .contains("ttfat = time to the first answer token");

            // Time to the first answer token: the answer event ("42") is the 3rd token event, after 2 reasoning ones.
            // Hard lower bound: its last byte leaves the server only after floor((end - 1) / 64) throttle periods.
            String body = fixture("vllm/chat-reasoning.sse");
            int answerEnd = body.indexOf("\n\n", body.indexOf("\"content\":\"42\"")) + 2;
            double floorMs = (double) ((answerEnd - 1) / BYTES_PER_PERIOD) * PERIOD_MS;
            var loadedRun = RunLoader.load(dir.resolve(run.runId()));
            var okRecords = loadedRun.records().stream().filter(r -> r.isOk() && !r.warmup()).toList();
            assertThat(okRecords).isNotEmpty().allSatisfy(r -> {
                // exact: the record keeps the event time
                assertThat(r.timing().firstAnswerNanos()).isEqualTo(r.timing().chunkNanos()[2]);
                assertThat(r.ttfatNanos()).isGreaterThanOrEqualTo(r.ttftNanos());
                assertThat(r.ttfatNanos() / 1e6).isGreaterThanOrEqualTo(floorMs);
            });
            for (int i = 0; i < steps.rowCount(); i++) {
                assertThat(steps.longColumn("ttfat_count").get(i)).isEqualTo(steps.longColumn("requests_ok").get(i));
                assertThat(steps.doubleColumn("ttfat_p50_ms").get(i)).isGreaterThanOrEqualTo(floorMs);
                assertThat(steps.doubleColumn("answer_delay_p50_ms").get(i)).isGreaterThanOrEqualTo(0.0);
            }
            assertThat(run.steps().get(0).distributions()).containsKey("ttfat_ms");

            RunResult loaded = loadedRun.result();
            Table reloaded = Tables.steps(loaded);
            assertThat(reloaded.doubleColumn("ttfat_p99_ms").asList()).isEqualTo(steps.doubleColumn("ttfat_p99_ms").asList());
            assertThat(reloaded.longColumn("reasoning_tokens").asList())
                    .isEqualTo(steps.longColumn("reasoning_tokens").asList());
            assertThat(reloaded.doubleColumn("reasoning_share").asList())
                    .isEqualTo(steps.doubleColumn("reasoning_share").asList());
            assertThat(SummaryText.format(loaded.steps())).isEqualTo(SummaryText.format(run.steps()));
        }
    }

    @Test
    void runsWithoutReasoningKeepTheirTableAndText() throws Exception {
        try (MockWebServer server = new MockWebServer()) {
            server.start();
            RunResult run = run(server, fixture("vllm/chat-continuous.sse"));
            Table steps = Tables.steps(run);
            assertThat(steps.columnNames()).doesNotContain("reasoning_tokens", "mean_reasoning_tokens", "reasoning_share");
            assertThat(steps.columnNames().get(steps.columnCount() - 1)).isEqualTo("schedule_lag_limit_ms");
            assertThat(SummaryText.format(run)).doesNotContain("reason_tok").doesNotContain("reason%")
                    .doesNotContain("ttfat");
            assertThat(run.steps()).allSatisfy(st -> assertThat(st.distributions()).doesNotContainKey("ttfat_ms"));
            // requests.jsonl lines of a run without reasoning carry no first-answer time (files unchanged)
            String jsonl = java.nio.file.Files.readString(dir.resolve(run.runId()).resolve("requests.jsonl"));
            assertThat(jsonl).doesNotContain("t_first_answer_ns");
        }
    }
}
