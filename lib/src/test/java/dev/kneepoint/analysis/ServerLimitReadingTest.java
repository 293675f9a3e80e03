package dev.kneepoint.analysis;

import static dev.kneepoint.analysis.Ladders.run;
import static dev.kneepoint.analysis.Ladders.s;
import static org.assertj.core.api.Assertions.assertThat;

import dev.kneepoint.analysis.Reading.Kind;
import dev.kneepoint.analysis.Reading.Status;
import dev.kneepoint.metrics.RunResult;
import dev.kneepoint.telemetry.TelemetryData;
import dev.kneepoint.telemetry.TelemetrySample;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;

/**
 * The server-limit reading on synthetic gauges. Ladders' step i measures in [i·100 s + 10 s, i·100 s + 70 s); each
 * gauge here is sampled every 5 s from 0 to the end of the last step at a step's level, so a window holds exactly
 * that step's values; a sample outside every window (between steps) carries a misleading value that must be ignored.
 */
class ServerLimitReadingTest {
    /** One step's gauges: waiting, running, KV usage, and preemptions per second (counter slope). */
    private record Level(double waiting, double running, double kv, double preemptionsPerS) {}

    private static TelemetryData gauges(boolean withKv, Level... levels) {
        List<TelemetrySample> out = new ArrayList<>();
        double preemptions = 0;
        for (long t = 0; t <= levels.length * 100_000_000_000L; t += 5_000_000_000L) {
            int step = (int) (t / 100_000_000_000L);
            long inStep = t % 100_000_000_000L;
            boolean between = step >= levels.length || inStep < 10_000_000_000L || inStep >= 70_000_000_000L;
            Level l = between ? new Level(99, 99, 0.99, 0) : levels[step];
            preemptions += between ? 50 : l.preemptionsPerS() * 5;
            Map<String, String> model = Map.of("model_name", "m");
            out.add(TelemetrySample.of(t, "server", "waiting", model, TelemetrySample.Kind.GAUGE, l.waiting()));
            out.add(TelemetrySample.of(t, "server", "running", model, TelemetrySample.Kind.GAUGE, l.running()));
            if (withKv) {
                out.add(TelemetrySample.of(t, "server", "kv_cache_usage", model, TelemetrySample.Kind.GAUGE, l.kv()));
                out.add(TelemetrySample.of(t, "server", "preemptions_total", model, TelemetrySample.Kind.COUNTER,
                        preemptions));
            }
        }
        return new TelemetryData(out, List.of(), List.of());
    }

    private static final RunResult LADDER = run("limit", s(1, 100, 500), s(4, 390, 600), s(8, 700, 900),
            s(16, 720, 1800), s(32, 725, 3600));

    private static Reading reading(RunResult run, TelemetryData t) {
        KneeReport r = Knee.analyze(run, KneeOptions.builder().telemetry(t).build());
        return r.readings().stream().filter(x -> x.kind() == Kind.SERVER_LIMIT).findFirst().orElseThrow();
    }

    @Test
    void batchSlotsWhenRequestsWaitBehindAFlatBatchWithKvToSpare() {
        var t = gauges(true, new Level(0, 1, 0.01, 0), new Level(0, 4, 0.03, 0), new Level(0.2, 8, 0.05, 0),
                new Level(8, 8, 0.05, 0), new Level(24, 8, 0.06, 0));
        Reading r = reading(LADDER, t);
        assertThat(r.status()).isEqualTo(Status.APPLIES);
        assertThat(r.finding()).startsWith("Batch slots are the server's limit: requests wait at c=32 (24 on average)")
                .contains("the batch holds at most 8 (8 at c=16)").contains("KV cache at most 6.0%").contains("--max-num-seqs");
        assertThat(r.evidence()).contains("c=1 0, 1, 0.01, 0;").contains("c=32 24, 8, 0.06, 0.");
        // The Answer names it as the limit: the readings' causes come before the past-usable-zone symptom.
        KneeReport k = Knee.analyze(LADDER, KneeOptions.builder().telemetry(t).build());
        assertThat(k.answer().sentences().get(4)).startsWith("Limit: Batch slots are the server's limit");
    }

    @Test
    void kvCacheWhenUsageIsFullOrRequestsArePreempted() {
        var full = gauges(true, new Level(0, 1, 0.1, 0), new Level(0, 4, 0.5, 0), new Level(0.5, 6, 0.9, 0),
                new Level(6, 6, 0.97, 0), new Level(20, 6, 0.98, 0));
        Reading r = reading(LADDER, full);
        assertThat(r.status()).isEqualTo(Status.APPLIES);
        assertThat(r.finding()).startsWith("KV-cache memory is the server's limit").contains("at up to 98.0%")
                .doesNotContain("preemptions/s").contains("--gpu-memory-utilization");
        // Usage below 0.95, but preemptions (0.4 a second at the top step) throw KV blocks away: still KV.
        var preempting = gauges(true, new Level(0, 1, 0.1, 0), new Level(0, 4, 0.5, 0), new Level(0.5, 6, 0.8, 0),
                new Level(6, 6, 0.9, 0.2), new Level(20, 6, 0.9, 0.4));
        assertThat(reading(LADDER, preempting).finding()).startsWith("KV-cache memory")
                .contains("and 0.4 preemptions/s");
    }

    @Test
    void noQueueMeansTheSlowdownIsNotAdmission() {
        var t = gauges(true, new Level(0, 1, 0.01, 0), new Level(0, 4, 0.02, 0), new Level(0, 8, 0.04, 0),
                new Level(0.4, 16, 0.06, 0), new Level(0.9, 32, 0.1, 0));
        Reading r = reading(LADDER, t);
        assertThat(r.status()).isEqualTo(Status.DOES_NOT_APPLY);
        assertThat(r.finding()).contains("queued no requests even at c=32 (waiting 0.9 on average)");
    }

    @Test
    void withoutAKvGaugeSlotsAndMemoryCannotBeToldApart() {
        var t = gauges(false, new Level(0, 1, 0, 0), new Level(0, 4, 0, 0), new Level(0.5, 4, 0, 0),
                new Level(6, 4, 0, 0), new Level(20, 4, 0, 0));
        Reading r = reading(LADDER, t);
        assertThat(r.status()).isEqualTo(Status.APPLIES);
        assertThat(r.finding()).contains("exposes no KV-cache gauge, so batch slots and KV memory cannot be told apart");
    }

    @Test
    void insufficientDataWithoutTelemetryOrAQueueGauge() {
        assertThat(reading(LADDER, TelemetryData.empty()).status()).isEqualTo(Status.INSUFFICIENT_DATA);
        assertThat(Knee.analyze(LADDER).readings().stream().filter(x -> x.kind() == Kind.SERVER_LIMIT)
                .findFirst().orElseThrow().evidence()).contains("KneeOptions.builder().telemetry(");
        var hostOnly = new TelemetryData(List.of(TelemetrySample.of(20_000_000_000L, "host", "cpu_util_pct", Map.of(),
                TelemetrySample.Kind.GAUGE, 30)), List.of(), List.of());
        Reading r = reading(LADDER, hostOnly);
        assertThat(r.status()).isEqualTo(Status.INSUFFICIENT_DATA);
        assertThat(r.evidence()).contains("no server series");
    }
}
