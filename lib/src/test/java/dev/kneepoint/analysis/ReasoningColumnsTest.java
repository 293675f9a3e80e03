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

    private RunResult run(MockWebServer server, String body) {
        server.setDispatcher(new Dispatcher() {
            @Override
            public MockResponse dispatch(RecordedRequest r) {
                return new MockResponse.Builder().addHeader("Content-Type", "text/event-stream").body(body).build();
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
            assertThat(steps.columnNames()).endsWith("reasoning_tokens", "mean_reasoning_tokens", "reasoning_share");
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
                    .contains("reason% = their share of the output tokens");

            RunResult loaded = RunLoader.load(dir.resolve(run.runId())).result();
            Table reloaded = Tables.steps(loaded);
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
            assertThat(SummaryText.format(run)).doesNotContain("reason_tok").doesNotContain("reason%");
        }
    }
}
