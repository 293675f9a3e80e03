package dev.kneepoint.io;

import static dev.kneepoint.metrics.TestRecords.failed;
import static dev.kneepoint.metrics.TestRecords.ok;
import static org.assertj.core.api.Assertions.assertThat;

import dev.kneepoint.metrics.ClientHealth;
import dev.kneepoint.metrics.ClientThresholds;
import dev.kneepoint.metrics.Outcome;
import dev.kneepoint.metrics.RequestRecord;
import dev.kneepoint.metrics.RunResult;
import dev.kneepoint.metrics.Slo;
import dev.kneepoint.metrics.StepAggregator;
import dev.kneepoint.metrics.StepInfo;
import dev.kneepoint.metrics.StepResult;
import dev.kneepoint.metrics.StepWindow;
import dev.kneepoint.metrics.TestRecords;
import java.io.IOException;
import java.io.InputStream;
import java.nio.charset.StandardCharsets;
import java.time.Instant;
import java.util.List;
import org.junit.jupiter.api.Test;

/** Seals the summary.json format (JMH ResultFormatTest style): any change to names, order or numbers fails. */
class SummaryJsonGoldenTest {

    /**
     * A hand-made two-step run whose numbers were checked by hand against the golden file. Step c=2, window
     * [1, 3) s: tokens in window 4 + 4 + 3 = 11 -> 5.5/s; prompts dispatched in window 4 x 100 -> 200/s;
     * OK completions in window (warm-up included) 3 -> 1.5/s; good only request 1 -> 0.5/s, 1 of 4
     * non-cancelled outcomes -> 0.25; in-flight time 11 + 101 + 201 + 500 + 100 ms = 913 ms -> 0.4565;
     * failure rate 1/3. Step rate=2.0, window [3, 4) s: 500 ms in flight -> 0.5; all failed, nulls for
     * empty distributions.
     *
     * <p>client_check: step c=2 carries measured client health over a 2 s span on 2 processors: CPU 3.6 s -> 3.6 /
     * (2 x 2) = 90% > 85% (crossed); GC 40 ms -> 2% <= 5%; probe p99 12 ms > 10 ms (crossed); schedule lag p99 0
     * against max(5 ms, 5% of the gap 2 s / 4 requests = 500 ms) = 25 ms. So client_bound with two pieces of
     * evidence. Step rate=2.0 was not measured: only its schedule lag is judged (gap 1 / 2 req/s = 500 ms -> 25 ms).
     * So the run's client_bound_steps are [c=2].
     */
    static RunResult goldenRun() {
        Slo slo = Slo.builder().ttftMs(100).tpotMs(20).build();
        StepInfo closed = new StepInfo(0, "c=2", StepInfo.CLOSED, 2, Double.NaN, "", -1, "", 1_000_000_000L,
                2_000_000_000L, -1);
        StepAggregator a = StepAggregator.forUnknownWindow(closed, slo, ClientThresholds.defaults());
        // Window [1000, 3000) ms. Warm-up request straddling the start: its 4 tokens at 1010 count in the window.
        RequestRecord.Builder w = ok(0, "c=2", 0, 0, new double[] {50, 1010}, new int[] {1, 4});
        w.warmup = true;
        a.accept(w.build());
        // ttft 40, tpot (1100-1040)/3 = 20 (good), itl samples 15, 15, 30; chunk gaps 30, 30.
        a.accept(ok(1, "c=2", 1000, 1000, new double[] {1040, 1070, 1100}, new int[] {1, 2, 1}).build());
        // ttft 150 (not good), tpot 25, itl samples 25, 25; chunk gap 50.
        a.accept(ok(2, "c=2", 1200, 1200, new double[] {1350, 1400}, new int[] {1, 2}).build());
        a.accept(failed(3, "c=2", 2000, 2500, new Outcome.HttpError(503, "overloaded")));
        a.accept(failed(4, "c=2", 2600, 2700, Outcome.CANCELLED));
        ClientHealth health = new ClientHealth(2_000_000_000L, 2, 3_600_000_000L, 40_000_000L, 3, 200, 200_000,
                12_000_000, 30_000_000, 10_000_000);
        StepResult r0 = a.finish(new StepWindow(0, TestRecords.nanos(1000), TestRecords.nanos(3000), true), health);

        StepInfo open = new StepInfo(1, "rate=2.0", StepInfo.OPEN, -1, 2.0, "poisson", 4, "drop", 0,
                1_000_000_000L, -1);
        StepAggregator b = StepAggregator.forUnknownWindow(open, slo, ClientThresholds.defaults());
        b.accept(failed(5, "rate=2.0", 3100, 3600, new Outcome.Timeout(Outcome.TimeoutKind.IDLE)));
        b.accept(failed(6, "rate=2.0", 3500, 3500, Outcome.DROPPED));
        StepResult r1 = b.finish(new StepWindow(TestRecords.nanos(3000), TestRecords.nanos(3000),
                TestRecords.nanos(4000), false));
        return new RunResult("20260101-000000-golden", List.of(r0, r1), true,
                Instant.parse("2026-01-01T00:00:00Z"), "http://localhost:8000/v1 tiny-model");
    }

    @Test
    void summaryMatchesTheGoldenFile() throws IOException {
        String expected;
        try (InputStream in = getClass().getResourceAsStream("summary-golden.json")) {
            expected = new String(in.readAllBytes(), StandardCharsets.UTF_8);
        }
        assertThat(SummaryJson.toJson(goldenRun())).isEqualTo(expected);
    }
}
