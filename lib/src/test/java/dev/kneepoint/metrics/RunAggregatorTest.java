package dev.kneepoint.metrics;

import static dev.kneepoint.metrics.TestRecords.closedStep;
import static dev.kneepoint.metrics.TestRecords.ok;
import static dev.kneepoint.metrics.TestRecords.window;
import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.time.Instant;
import org.junit.jupiter.api.Test;

class RunAggregatorTest {

    @Test
    void routesRecordsByStepAndCollectsResultsInOrder() {
        RunAggregator run = new RunAggregator(Slo.none());
        StepInfo a = closedStep("c=1", 1);
        StepInfo b = closedStep("c=2", 2);
        run.stepStarted(a, 0, null);
        run.requestFinished(ok(0, "c=1", 0, 0, new double[] {10}, new int[] {1}).build());
        assertThat(run.progress(TestRecords.nanos(20)).orElseThrow().requestsDone()).isEqualTo(1);
        run.stepFinished(a, window(0, 100), ClientHealth.NOT_MEASURED);
        assertThat(run.progress(TestRecords.nanos(120))).isEmpty();
        run.stepStarted(b, TestRecords.nanos(100), null);
        run.requestFinished(ok(1, "c=2", 100, 100, new double[] {110}, new int[] {1}).build());
        run.requestFinished(ok(2, "c=2", 100, 100, new double[] {120}, new int[] {1}).build());
        run.requestFinished(ok(3, "c=9", 100, 100, new double[] {120}, new int[] {1}).build());
        run.stepFinished(b, new StepWindow(TestRecords.nanos(100), TestRecords.nanos(100), TestRecords.nanos(200), true), ClientHealth.NOT_MEASURED);
        RunResult r = run.result("id", true, Instant.EPOCH, "t");
        assertThat(r.steps()).extracting(s -> s.info().label()).containsExactly("c=1", "c=2");
        assertThat(r.step("c=2").counts().requestsOk()).isEqualTo(2);
        assertThat(run.unassignedRecords()).isEqualTo(1);
        assertThatThrownBy(() -> r.step("c=3")).hasMessageContaining("[c=1, c=2]");
        assertThat(r.step("c=1").toString()).contains("c=1").doesNotContain("Histogram");
    }
}
