package dev.kneepoint.analysis;

import dev.kneepoint.metrics.ClientHealth;
import static dev.kneepoint.metrics.TestRecords.failed;
import static dev.kneepoint.metrics.TestRecords.ok;
import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.within;

import dev.kneepoint.metrics.Outcome;
import dev.kneepoint.metrics.RequestRecord;
import dev.kneepoint.metrics.RunAggregator;
import dev.kneepoint.metrics.Slo;
import dev.kneepoint.metrics.TestRecords;
import java.time.Instant;
import java.util.ArrayList;
import java.util.List;
import org.junit.jupiter.api.Test;
import tech.tablesaw.api.Table;

class GoodputTest {

    @Test
    void goodputCountsGoodCompletionsInTheWindowUnderAnySlo() {
        String step = "c=4";
        List<RequestRecord> records = new ArrayList<>();
        // Window [0, 2000) ms. TTFTs 50, 150, 250 ms; one failure; one request ending after the window.
        records.add(ok(1, step, 0, 0, new double[] {50, 60}, new int[] {1, 1}).build());
        records.add(ok(2, step, 100, 100, new double[] {250, 260}, new int[] {1, 1}).build());
        records.add(ok(3, step, 200, 200, new double[] {450, 460}, new int[] {1, 1}).build());
        records.add(failed(4, step, 300, 400, new Outcome.HttpError(500, "")));
        records.add(ok(5, step, 1900, 1900, new double[] {1950, 2100}, new int[] {1, 1}).build());
        RunAggregator agg = new RunAggregator(Slo.builder().ttftMs(100).build());
        agg.stepStarted(TestRecords.closedStep(step, 4), 0, null);
        records.forEach(agg::requestFinished);
        agg.stepFinished(TestRecords.closedStep(step, 4), TestRecords.window(0, 2000), ClientHealth.NOT_MEASURED);
        var run = agg.result("g", true, Instant.EPOCH, "t");

        Table t = Goodput.of(records, run, Slo.builder().ttftMs(200).build());
        // In window: ids 1-4 end inside; good under ttft <= 200 ms: ids 1 (50) and 2 (150). 2 good / 2 s.
        assertThat(t.longColumn("outcomes").get(0)).isEqualTo(4);
        assertThat(t.longColumn("good").get(0)).isEqualTo(2);
        assertThat(t.doubleColumn("goodput_rps").get(0)).isCloseTo(1.0, within(1e-12));
        assertThat(t.doubleColumn("good_fraction").get(0)).isCloseTo(0.5, within(1e-12));
        assertThat(t.doubleColumn("requests_per_s").get(0)).isCloseTo(1.5, within(1e-12));
        // Recomputed under the run's own SLO (ttft <= 100 ms) it must equal what the aggregator recorded.
        Table same = Goodput.of(records, run, run.steps().get(0).slo());
        assertThat(same.doubleColumn("goodput_rps").get(0))
                .isCloseTo(Goodput.recorded(run).doubleColumn("goodput_rps").get(0), within(1e-12))
                .isCloseTo(0.5, within(1e-12));
    }
}
