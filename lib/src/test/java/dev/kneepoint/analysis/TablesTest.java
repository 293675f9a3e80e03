package dev.kneepoint.analysis;

import static dev.kneepoint.metrics.TestRecords.failed;
import static dev.kneepoint.metrics.TestRecords.ok;
import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.within;

import dev.kneepoint.metrics.Outcome;
import dev.kneepoint.metrics.RequestRecord;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import org.junit.jupiter.api.Test;
import tech.tablesaw.api.Table;

class TablesTest {

    static List<RequestRecord> records() {
        List<RequestRecord> l = new ArrayList<>();
        // id 1: intended 0, dispatched 10, tokens at 110 (1) and 150 (4): ttft 100, sched 110, e2e 140.
        l.add(ok(1, "c=1", 0, 10, new double[] {110, 150}, new int[] {1, 4}).build());
        // id 2: in c=2, tokens at 1200 (2) and 1300 (2), prompt 1000.
        RequestRecord.Builder b = ok(2, "c=2", 1000, 1000, new double[] {1200, 1300}, new int[] {2, 2});
        b.promptTokens = 1000;
        b.tag = "bg";
        l.add(b.build());
        l.add(failed(3, "c=2", 1500, 1900, new Outcome.HttpError(503, "")));
        return l;
    }

    @Test
    void requestTableHasOneRowPerRecordWithUnitsInColumnNames() {
        Table t = Tables.requests(records());
        assertThat(t.rowCount()).isEqualTo(3);
        assertThat(t.columnNames()).contains("ttft_ms", "ttft_sched_ms", "e2e_ms", "tpot_ms", "schedule_lag_ms",
                "prompt_tokens", "output_tokens", "step", "tag", "outcome", "end_s");
        // Exact arithmetic on millisecond inputs; tolerance only for floating point.
        assertThat(t.doubleColumn("ttft_ms").get(0)).isCloseTo(100, within(1e-9));
        assertThat(t.doubleColumn("ttft_sched_ms").get(0)).isCloseTo(110, within(1e-9));
        assertThat(t.doubleColumn("schedule_lag_ms").get(0)).isCloseTo(10, within(1e-9));
        assertThat(t.doubleColumn("tpot_ms").get(0)).isCloseTo(10, within(1e-9)); // (150-110)/(5-1)
        assertThat(t.doubleColumn("chunk_gap_max_ms").get(0)).isCloseTo(40, within(1e-9));
        assertThat(t.doubleColumn("ttft_ms").isMissing(2)).isTrue();
        assertThat(t.stringColumn("outcome").get(2)).isEqualTo("HTTP_ERROR(503)");
        assertThat(t.intColumn("prompt_tokens").get(1)).isEqualTo(1000);
    }

    @Test
    void queryVerbsReturnNewTablesAndLeaveTheInputAlone() {
        Table t = Tables.requests(records());
        assertThat(Query.step(t, "c=2").rowCount()).isEqualTo(2);
        assertThat(Query.tag(t, "bg").rowCount()).isEqualTo(1);
        assertThat(Query.outcome(t, "HTTP_ERROR").rowCount()).isEqualTo(1);
        assertThat(Query.outcome(t, "HTTP_ERROR(503)").rowCount()).isEqualTo(1);
        assertThat(Query.ok(t).rowCount()).isEqualTo(2);
        Table bucketed = Query.bucket(t, "prompt_tokens", 512);
        assertThat(bucketed.stringColumn("prompt_tokens_bucket").asList())
                .containsExactly("[-inf, 512)", "[512, +inf)", "[-inf, 512)");
        assertThat(t.columnNames()).doesNotContain("prompt_tokens_bucket");
        assertThat(t.rowCount()).isEqualTo(3);
    }

    @Test
    void percentilesAreNearestRankPerGroupInNaturalOrder() {
        List<RequestRecord> l = new ArrayList<>();
        for (int i = 1; i <= 100; i++) {
            l.add(ok(i, i % 2 == 0 ? "c=16" : "c=2", 0, 0, new double[] {i}, new int[] {1}).build());
        }
        Table p = Query.percentiles(Tables.requests(l), "ttft_ms", "step");
        assertThat(p.stringColumn("step").asList()).containsExactly("c=2", "c=16");
        // c=2 holds 1,3,...,99 ms: p50 = 25th value = 49, p99 = 50th = 99; c=16 holds 2..100: p50 = 50.
        assertThat(p.doubleColumn("ttft_p50_ms").get(0)).isCloseTo(49, within(1e-9));
        assertThat(p.doubleColumn("ttft_p99_ms").get(0)).isCloseTo(99, within(1e-9));
        assertThat(p.doubleColumn("ttft_p50_ms").get(1)).isCloseTo(50, within(1e-9));
        assertThat(p.longColumn("count").get(1)).isEqualTo(50);
    }

    @Test
    void timeSeriesCountsByArrivalTimeWithExactInFlight() {
        Table ts = Tables.timeSeries(records(), Duration.ofSeconds(1));
        assertThat(ts.rowCount()).isEqualTo(2);
        // Interval 0: 5 tokens (id 1), 1 OK completion; in flight from 10 to 151 ms = 0.141 s.
        assertThat(ts.doubleColumn("output_tokens_per_s").get(0)).isCloseTo(5, within(1e-9));
        assertThat(ts.doubleColumn("requests_per_s").get(0)).isCloseTo(1, within(1e-9));
        assertThat(ts.doubleColumn("in_flight_mean").get(0)).isCloseTo(0.141, within(1e-9));
        // Interval 1: 4 tokens, 1 OK, 1 failure; busy (1000..1301) + (1500..1900) = 0.301 + 0.4 s.
        assertThat(ts.doubleColumn("output_tokens_per_s").get(1)).isCloseTo(4, within(1e-9));
        assertThat(ts.intColumn("failures").get(1)).isEqualTo(1);
        assertThat(ts.doubleColumn("in_flight_mean").get(1)).isCloseTo(0.701, within(1e-9));
        // TTFT of id 2 = 200 ms; 2 significant digits: within 1%.
        assertThat(ts.doubleColumn("ttft_p99_ms").get(1)).isCloseTo(200, within(2.0));
        // ITL of id 2: a 100 ms gap before 2 tokens = two samples of 50 ms.
        assertThat(ts.doubleColumn("itl_p50_ms").get(1)).isCloseTo(50, within(0.5));
        assertThat(ts.stringColumn("step").get(1)).isEqualTo("c=2");
    }

    @Test
    void lengthHistogramBinsTokenCounts() {
        Table h = Tables.lengthHistogram(Tables.requests(records()), "output_tokens", 2);
        // Output tokens 5, 4, 0: bins [0,2) 1, [2,4) 0, [4,6) 2.
        assertThat(h.longColumn("requests").asList()).containsExactly(1L, 0L, 2L);
        assertThat(h.longColumn("bin_start_tokens").asList()).containsExactly(0L, 2L, 4L);
        assertThat(h.doubleColumn("fraction").get(2)).isCloseTo(2 / 3.0, within(1e-12));
    }

    @Test
    void stepTableHasEveryStepMetric() {
        var run = Ladders.run("r", Ladders.s(1, 100, 100), Ladders.s(2, 200, 120));
        Table t = Tables.steps(run);
        assertThat(t.rowCount()).isEqualTo(2);
        assertThat(t.columnNames()).contains("output_tokens_per_s", "goodput_rps", "concurrency_mean",
                "failure_rate", "ttft_sched_p99_ms", "itl_p99.9_ms", "schedule_lag_max_ms", "e2e_count");
        assertThat(t.doubleColumn("e2e_p99_ms").get(1)).isCloseTo(120, within(0.12)); // HdrHistogram 0.1%
    }
}
