package dev.kneepoint.analysis;

import static org.assertj.core.api.Assertions.assertThat;

import dev.kneepoint.metrics.ClientThresholds;
import dev.kneepoint.metrics.RequestRecord;
import dev.kneepoint.metrics.RetriedRecords;
import dev.kneepoint.metrics.RunResult;
import dev.kneepoint.metrics.Slo;
import dev.kneepoint.metrics.StepAggregator;
import dev.kneepoint.metrics.StepInfo;
import dev.kneepoint.metrics.StepResult;
import dev.kneepoint.metrics.TestRecords;
import java.time.Instant;
import java.util.List;
import org.junit.jupiter.api.Test;
import tech.tablesaw.api.Table;

/** The {@code retried} columns of the step and request tables, and the text report's note. */
class RetriedColumnsTest {

    private static StepResult step(int index, String label, List<RequestRecord> records) {
        StepInfo info = new StepInfo(index, label, StepInfo.CLOSED, 2, Double.NaN, "", -1, "", 0, -1, -1);
        StepAggregator a = StepAggregator.forUnknownWindow(info, Slo.none(), ClientThresholds.defaults());
        records.forEach(a::accept);
        return a.finish(TestRecords.window(1000, 2000));
    }

    /** Step c=2: the scripted records, 4 counted resends; step c=4: one OK request sent once. */
    private static RunResult run() {
        return new RunResult("r", List.of(step(0, "c=2", RetriedRecords.scripted("c=2")),
                step(1, "c=4", List.of(RetriedRecords.okRecord(1, "c=4", 1000, false, false)))), true, Instant.EPOCH,
                "synthetic");
    }

    @Test
    void stepsTableHasTheCountAfterCountDiscrepancy() {
        Table t = Tables.steps(run());
        List<String> names = t.columnNames();
        assertThat(names.indexOf("retried")).isEqualTo(names.indexOf("count_discrepancy") + 1);
        assertThat(t.longColumn("retried").asList()).containsExactly(4L, 0L);
    }

    @Test
    void requestsTableFlagsEachResentRequest() {
        List<RequestRecord> records = RetriedRecords.scripted("c=2");
        Table t = Tables.requests(records);
        assertThat(t.columnNames().indexOf("retried")).isEqualTo(t.columnNames().indexOf("warmup") + 1);
        // every resent record is flagged, warm-up and cancelled ones too: the table is per request, not per step
        assertThat(t.booleanColumn("retried").asList())
                .containsExactly(true, true, false, true, true, false, false, true, true);
        assertThat(t.booleanColumn("retried").asList())
                .containsExactlyElementsOf(records.stream().map(r -> r.response().retried()).toList());
    }

    @Test
    void textReportNotesResendsOnlyWhenThereWere() {
        String text = SummaryText.format(run());
        assertThat(text).contains("4 requests in c=2 were resent on a fresh connection (stale keep-alive");
        assertThat(text).doesNotContain("in c=4 w");
        String quiet = SummaryText.format(List.of(run().steps().get(1)));
        assertThat(quiet).doesNotContain("resent");
    }
}
