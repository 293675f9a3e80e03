package dev.kneepoint.metrics;

import static dev.kneepoint.metrics.TestRecords.failed;
import static dev.kneepoint.metrics.TestRecords.ok;
import static org.assertj.core.api.Assertions.assertThat;

import dev.kneepoint.io.SummaryJson;
import java.time.Instant;
import java.util.List;
import org.junit.jupiter.api.Test;

/** A step reports the reasoning tokens of its OK requests apart from the rest of the output. */
class ReasoningStepTest {

    @Test
    void reasoningTotalsAndMeanCoverOkRequestsOnly() {
        StepAggregator a = StepAggregator.forUnknownWindow(TestRecords.closedStep("c=1", 1), Slo.none(),
                ClientThresholds.defaults());
        RequestRecord.Builder r1 = ok(1, "c=1", 0, 0, new double[] {10, 20, 30}, new int[] {1, 1, 1});
        r1.reasoningTokens = 2;
        RequestRecord.Builder r2 = ok(2, "c=1", 0, 0, new double[] {10, 20}, new int[] {1, 1});
        r2.reasoningTokens = 1;
        a.accept(r1.build());
        a.accept(r2.build());
        a.accept(failed(3, "c=1", 0, 50, Outcome.TRUNCATED));
        StepResult s = a.finish(new StepWindow(0, 0, TestRecords.nanos(100), true));
        assertThat(s.tokens().reasoningTokens()).isEqualTo(3);
        // 3 reasoning tokens over 2 OK requests; the failed one is not in the mean
        assertThat(s.tokens().meanReasoningTokens()).isEqualTo(1.5);
        assertThat(s.tokens().meanOutputTokens()).isEqualTo(2.5);
        String json = SummaryJson.toJson(new RunResult("r", List.of(s), true, Instant.EPOCH, "t"));
        assertThat(json).contains("\"reasoning_tokens\" : 3,").contains("\"mean_reasoning_tokens\" : 1.5,");
    }
}
