package dev.kneepoint.analysis;

import static org.assertj.core.api.Assertions.assertThat;

import dev.kneepoint.telemetry.TelemetryData;
import dev.kneepoint.telemetry.TelemetrySample;
import dev.kneepoint.telemetry.TelemetrySample.Kind;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import org.assertj.core.data.Offset;
import org.junit.jupiter.api.Test;
import tech.tablesaw.api.Table;

class TelemetryTablesTest {
    private static final Offset<Double> EXACT = Offset.offset(1e-9); // sums of a few doubles

    private static TelemetryData data() {
        long[] t = {100_000_000L, 300_000_000L, 600_000_000L, 800_000_000L};
        double[] running = {1, 3, 5, 7};
        double[] rx = {0, 100, 300, 300};
        double[] sum = {0, 1.0, 1.0, 3.0};
        double[] count = {0, 10, 10, 20};
        List<TelemetrySample> s = new ArrayList<>();
        for (int i = 0; i < t.length; i++) {
            s.add(TelemetrySample.of(t[i], "server", "running", Map.of("model_name", "m"), Kind.GAUGE, running[i]));
            s.add(TelemetrySample.of(t[i], "host", "net_rx_bytes_total", Map.of(), Kind.COUNTER, rx[i]));
            s.add(TelemetrySample.of(t[i], "server", "server_ttft_sum", Map.of(), Kind.COUNTER, sum[i]));
            s.add(TelemetrySample.of(t[i], "server", "server_ttft_count", Map.of(), Kind.COUNTER, count[i]));
            s.add(TelemetrySample.of(t[i], "server", "server_ttft_bucket", Map.of("le", "0.1"), Kind.COUNTER, count[i]));
        }
        return new TelemetryData(s, List.of(), List.of());
    }

    @Test
    void wideTableSummarisesGaugesCountersAndHistogramsPerInterval() {
        Table w = TelemetryTables.wide(data(), Duration.ofMillis(500));
        assertThat(w.rowCount()).isEqualTo(2);
        assertThat(w.columnNames()).containsExactly("t_start_s", "t_end_s", "host:net_rx_bytes_total_per_s",
                "server:running", "server:server_ttft_count_per_s", "server:server_ttft_mean");
        // gauge: samples at 0.1, 0.3 s -> mean 2; at 0.6, 0.8 s -> mean 6
        assertThat(w.doubleColumn("server:running").asDoubleArray()).containsExactly(2.0, 6.0);
        // counter: 0 -> 100 over 0.1..0.3 s = 500/s; then +200 over 0.3 s and +0 over 0.2 s = 200/0.5 s = 400/s
        assertThat(w.doubleColumn("host:net_rx_bytes_total_per_s").get(0)).isCloseTo(500.0, EXACT);
        assertThat(w.doubleColumn("host:net_rx_bytes_total_per_s").get(1)).isCloseTo(400.0, EXACT);
        // a histogram's count is a counter too: completions per second, 10 in 0.2 s, then 10 in 0.5 s
        assertThat(w.doubleColumn("server:server_ttft_count_per_s").asDoubleArray()).containsExactly(50.0, 20.0);
        // histogram mean: Δsum/Δcount = 1.0/10 then 2.0/10
        assertThat(w.doubleColumn("server:server_ttft_mean").get(0)).isCloseTo(0.1, EXACT);
        assertThat(w.doubleColumn("server:server_ttft_mean").get(1)).isCloseTo(0.2, EXACT);
    }

    @Test
    void longTableHasOneRowPerSampleAndEmptyTelemetryGivesEmptyTables() {
        Table l = TelemetryTables.samples(data());
        assertThat(l.rowCount()).isEqualTo(20);
        assertThat(l.stringColumn("metric").get(0)).isEqualTo("server:running");
        assertThat(l.stringColumn("labels").get(0)).isEqualTo("model_name=m");
        assertThat(TelemetryTables.samples(TelemetryData.empty()).rowCount()).isZero();
        assertThat(TelemetryTables.wide(TelemetryData.empty(), Duration.ofSeconds(1)).columnCount()).isEqualTo(2);
    }
}
