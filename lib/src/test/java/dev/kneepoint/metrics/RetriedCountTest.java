package dev.kneepoint.metrics;

import static org.assertj.core.api.Assertions.assertThat;

import java.util.List;
import org.junit.jupiter.api.Test;

/**
 * {@link StepResult.Counts#retried()}: the step aggregator counts exactly the resent requests among the OK and failed
 * ones (the population of {@code requestsOk + requestsFailed}); warm-up and cancelled requests are left out
 * ({@link RetriedRecords#scripted}).
 */
class RetriedCountTest {

    @Test
    void countsExactlyTheResentOkAndFailedRequests() {
        StepInfo info = TestRecords.closedStep("c=2", 2);
        StepWindow w = TestRecords.window(1000, 2000);
        StepAggregator unknown = StepAggregator.forUnknownWindow(info, Slo.none(), ClientThresholds.defaults());
        StepAggregator known = StepAggregator.forKnownWindow(info, Slo.none(), ClientThresholds.defaults(), w);
        for (RequestRecord r : RetriedRecords.scripted("c=2")) {
            unknown.accept(r);
            known.accept(r);
        }
        for (StepResult s : List.of(unknown.finish(w), known.finish(w))) {
            assertThat(s.counts().requestsOk()).isEqualTo(3);
            assertThat(s.counts().requestsFailed()).isEqualTo(4);
            assertThat(s.counts().cancelled()).isEqualTo(1);
            assertThat(s.counts().warmupRequests()).isEqualTo(1);
            assertThat(s.counts().retried()).isEqualTo(4);
        }
    }

    @Test
    void aStepWithoutResendsCountsZero() {
        StepInfo info = TestRecords.closedStep("c=1", 1);
        StepAggregator a = StepAggregator.forUnknownWindow(info, Slo.none(), ClientThresholds.defaults());
        a.accept(RetriedRecords.okRecord(1, "c=1", 1000, false, false));
        a.accept(RetriedRecords.failed(2, "c=1", 1000, 1100, new Outcome.HttpError(500, "x"), false));
        assertThat(a.finish(TestRecords.window(1000, 2000)).counts().retried()).isZero();
    }
}
