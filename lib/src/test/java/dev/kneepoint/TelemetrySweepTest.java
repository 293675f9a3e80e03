package dev.kneepoint;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import dev.kneepoint.analysis.RunTables;
import dev.kneepoint.analysis.TelemetryTables;
import dev.kneepoint.io.RunLoader;
import dev.kneepoint.metrics.RunResult;
import dev.kneepoint.plot.Plots;
import dev.kneepoint.sim.SimConfig;
import dev.kneepoint.sim.Simulator;
import dev.kneepoint.telemetry.Gpu;
import dev.kneepoint.telemetry.Telemetry;
import dev.kneepoint.telemetry.TelemetryData;
import dev.kneepoint.telemetry.TelemetryStatus;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.stream.Stream;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import tech.tablesaw.api.Table;

/** Telemetry end to end: a sweep against the simulator samples its /metrics on the run clock and joins the steps. */
class TelemetrySweepTest {
    @TempDir
    Path runs;

    @Test
    void simulatorMetricsAreSampledAndJoinedPerStep() throws Exception {
        // two batch slots: at 6 users, 2 run and about 4 wait; at 1 user, 1 runs and none waits
        SimConfig c = SimConfig.presetBuilder("fast").maxNumSeqs(2).build();
        RunResult r;
        try (Simulator sim = Simulator.start(c)) {
            r = Kneepoint.ladder(Kneepoint.target(sim), 1, 6).inputTokens(32).outputTokens(64)
                    .stepDuration(Duration.ofMillis(1500)).warmup(Duration.ofMillis(300))
                    .telemetryInterval(Duration.ofMillis(100))
                    .outputDir(runs).name("telemetry").run();
        }
        Path dir;
        try (Stream<Path> list = Files.list(runs)) {
            dir = list.findFirst().orElseThrow();
        }
        TelemetryData t = RunLoader.load(dir).telemetry();
        assertThat(t.problems()).isEmpty();
        assertThat(t.status("server", "started")).get().extracting(TelemetryStatus::reason).asString()
                .contains("/metrics").contains("vllm names");
        assertThat(t.keys()).contains("server:running", "server:waiting", "server:kv_cache_usage",
                "server:server_ttft_sum", "host:mem_used_bytes");
        // the run lasts >= 3.6 s at one scrape per 100 ms: at least 15 scrapes even on a loaded machine
        assertThat(t.series("server:running")).hasSizeGreaterThanOrEqualTo(15);
        JsonNode manifest = new ObjectMapper().readTree(dir.resolve("manifest.json").toFile());
        assertThat(manifest.at("/config/telemetry/interval_ms").asLong()).isEqualTo(100);

        Table steps = TelemetryTables.steps(r, t);
        double run1 = steps.doubleColumn("server:running_mean").get(0);
        double run6 = steps.doubleColumn("server:running_mean").get(1);
        double wait1 = steps.doubleColumn("server:waiting_max").get(0);
        double wait6 = steps.doubleColumn("server:waiting_mean").get(1);
        // one user: a request runs except in the gaps between answer and next request (< 20 % of a ~150 ms request)
        assertThat(run1).isBetween(0.6, 1.0);
        assertThat(wait1).isEqualTo(0.0);
        // six users on two slots: both slots busy (gaps are filled from the queue) and 3-4 queued
        assertThat(run6).isBetween(1.7, 2.0);
        assertThat(wait6).isBetween(2.5, 4.0);
        // the server-side TTFT mean per step (Δsum/Δcount, seconds) exists and grows with the queue
        double ttft1 = steps.doubleColumn("server:server_ttft_mean").get(0);
        double ttft6 = steps.doubleColumn("server:server_ttft_mean").get(1);
        assertThat(ttft1).isPositive();
        assertThat(ttft6).isGreaterThan(ttft1);

        // reloaded from disk: the same windows give the same columns
        RunTables rt = RunTables.load(dir);
        Table reloaded = rt.stepsWithTelemetry();
        for (String col : new String[] {"server:running_mean", "server:waiting_mean", "server:waiting_max"}) {
            assertThat(reloaded.doubleColumn(col).asDoubleArray()).as(col)
                    .containsExactly(steps.doubleColumn(col).asDoubleArray());
        }
        Table wide = rt.telemetryWide();
        assertThat(wide.columnNames()).contains("t_start_s", "server:running", "host:net_rx_bytes_total_per_s");
        assertThat(rt.telemetrySamples().rowCount()).isEqualTo(t.samples().size());
        var chart = Plots.timeSeries(rt.timeSeries(), rt.telemetry(), "server:running", "server:waiting");
        assertThat(chart.getSeriesMap()).containsKeys("server:running", "server:waiting", "output_tokens_per_s");
        assertThatThrownBy(() -> Plots.timeSeries(rt.timeSeries(), rt.telemetry(), "server:nope"))
                .hasMessageContaining("server:running");

        // the headless report adds the joined step table and overlays running/waiting on the time series
        dev.kneepoint.report.RunReport.write(dir);
        assertThat(Files.readAllLines(dir.resolve("steps_telemetry.csv")).get(0)).contains("server:running_mean");
        // ... and its readings use the gauges: six users queue behind two slots with the KV cache nearly empty
        assertThat(Files.readString(dir.resolve("report.txt"))).contains("SERVER_LIMIT [APPLIES] Batch slots are the "
                + "server's limit: requests wait at c=6").contains("the batch holds at most 2 (1 at c=1)");
        var ts = dev.kneepoint.plot.TimeSeriesPlot.of(rt.timeSeries())
                .overlayGroup(dev.kneepoint.plot.TelemetryOverlays.of(t, "server:running"),
                        dev.kneepoint.plot.TelemetryOverlays.of(t, "server:waiting")).build();
        assertThat(ts.getSeriesMap().get("server:running").getYAxisGroup())
                .isEqualTo(ts.getSeriesMap().get("server:waiting").getYAxisGroup());
    }

    @Test
    void theGpusTelemetrySampledJoinTheServersIdentityInTheManifest() throws Exception {
        String dcgm;
        try (var in = TelemetrySweepTest.class.getResourceAsStream("/fixtures/metrics/dcgm.prom")) {
            dcgm = new String(in.readAllBytes(), java.nio.charset.StandardCharsets.UTF_8); // two H100s, modelName labels
        }
        try (mockwebserver3.MockWebServer exporter = new mockwebserver3.MockWebServer();
             Simulator sim = Kneepoint.simulator("fast")) {
            exporter.setDispatcher(new mockwebserver3.Dispatcher() {
                @Override
                public mockwebserver3.MockResponse dispatch(mockwebserver3.RecordedRequest r) {
                    return new mockwebserver3.MockResponse.Builder().body(dcgm).build();
                }
            });
            exporter.start();
            Kneepoint.ladder(Kneepoint.target(sim), 1).inputTokens(16).outputTokens(8)
                    .stepDuration(Duration.ofMillis(300)).warmup(Duration.ZERO).telemetryInterval(Duration.ofMillis(100))
                    .gpu(Gpu.dcgm(exporter.url("/metrics").toString())).outputDir(runs).name("gpus").run();
        }
        Path dir;
        try (Stream<Path> list = Files.list(runs)) {
            dir = list.findFirst().orElseThrow();
        }
        JsonNode server = new ObjectMapper().readTree(dir.resolve("manifest.json").toFile()).at("/config/server");
        // what the simulator said about itself, then what the GPU source said: the first scrape is taken at start
        assertThat(server.path("engine").asText()).isEqualTo("simulator");
        assertThat(server.path("gpus").toString()).isEqualTo("[\"NVIDIA H100 80GB HBM3\"]");
        assertThat(server.path("gpu_count").asInt()).isEqualTo(2);
        assertThat(RunLoader.server(dir)).get().isEqualTo(server);
    }

    @Test
    void aGpuLogWrittenOnTheServerHostJoinsTheStepsOnTheRunClock() throws Exception {
        RunResult r;
        try (Simulator sim = Kneepoint.simulator("fast")) {
            r = Kneepoint.ladder(Kneepoint.target(sim), 1, 2).inputTokens(16).outputTokens(16)
                    .stepDuration(Duration.ofMillis(500)).warmup(Duration.ofMillis(100)).gpu(Gpu.off())
                    .outputDir(runs).name("gpu-log").run();
        }
        Path dir;
        try (Stream<Path> list = Files.list(runs)) {
            dir = list.findFirst().orElseThrow();
        }
        JsonNode manifest = new ObjectMapper().readTree(dir.resolve("manifest.json").toFile());
        // no GPU sampled: the server's identity has no GPUs (a log imported later does not change the manifest)
        assertThat(manifest.at("/config/server/engine").asText()).isEqualTo("simulator");
        assertThat(manifest.at("/config/server").has("gpus")).isFalse();
        assertThat(manifest.at("/config/server").has("gpu_count")).isFalse();
        java.time.Instant origin = java.time.Instant.parse(manifest.get("clock_origin").asText());
        java.time.Instant end = java.time.Instant.parse(manifest.get("end_time").asText());
        // a log as nvidia-smi -lms 50 would write on a host in UTC+9: one row per 50 ms across the whole run
        java.time.ZoneId tokyo = java.time.ZoneId.of("Asia/Tokyo");
        var ts = java.time.format.DateTimeFormatter.ofPattern("yyyy/MM/dd HH:mm:ss.SSS", java.util.Locale.ROOT);
        java.util.List<String> lines = new java.util.ArrayList<>();
        lines.add("timestamp, index, utilization.gpu [%], memory.used [MiB]");
        java.util.List<long[]> rows = new java.util.ArrayList<>(); // {t on the run clock, utilisation}
        for (int k = 0; origin.plusMillis(50L * k).isBefore(end); k++) {
            java.time.LocalDateTime local = java.time.LocalDateTime.ofInstant(origin.plusMillis(50L * k), tokyo);
            String stamp = ts.format(local); // millisecond resolution, as nvidia-smi prints
            long t = Duration.between(origin, java.time.LocalDateTime.parse(stamp, ts).atZone(tokyo).toInstant()).toNanos();
            int util = (k * 37) % 101;
            if (t >= 0) {
                rows.add(new long[] {t, util});
            }
            lines.add(stamp + ", 0, " + util + " %, 1024 MiB");
        }
        Path csv = runs.resolve("gpu.csv");
        Files.write(csv, lines);
        var imported = dev.kneepoint.telemetry.GpuLogImport.into(dir, csv, tokyo);
        assertThat(imported.problems()).isEmpty();
        assertThat(imported.imported()).isEqualTo(rows.size());

        Table steps = RunTables.load(dir).stepsWithTelemetry();
        String col = "gpu:gpu_util_pct{gpu=0,host=server}_mean";
        assertThat(steps.columnNames()).contains(col);
        for (int i = 0; i < r.steps().size(); i++) {
            var w = r.steps().get(i).window();
            double sum = 0;
            int n = 0;
            for (long[] row : rows) {
                if (row[0] >= w.startNanos() && row[0] < w.endNanos()) {
                    sum += row[1];
                    n++;
                }
            }
            // the same rows, in the same order: the step's mean is exactly the mean of the rows in its window
            assertThat(n).as("rows in step " + i).isGreaterThanOrEqualTo(5);
            assertThat(steps.doubleColumn(col).get(i)).as("step " + i).isEqualTo(sum / n);
        }
    }

    @Test
    void offWritesNoTelemetryAndTheStepTableStaysPlain() throws Exception {
        try (Simulator sim = Kneepoint.simulator("fast")) {
            Kneepoint.ladder(Kneepoint.target(sim), 1).inputTokens(16).outputTokens(8)
                    .stepDuration(Duration.ofMillis(300)).warmup(Duration.ZERO)
                    .telemetry(Telemetry.off()).outputDir(runs).name("off").run();
        }
        Path dir;
        try (Stream<Path> list = Files.list(runs)) {
            dir = list.findFirst().orElseThrow();
        }
        assertThat(dir.resolve("telemetry.jsonl")).doesNotExist();
        RunTables rt = RunTables.load(dir);
        assertThat(rt.telemetry().isEmpty()).isTrue();
        assertThat(rt.stepsWithTelemetry().columnNames()).isEqualTo(rt.steps().columnNames());
        assertThat(rt.telemetryWide().rowCount()).isZero();
    }

    @Test
    void invalidTelemetrySettingsAreReportedWithTheOtherProblems() {
        assertThatThrownBy(() -> Kneepoint.ladder(Kneepoint.target("http://localhost:1", "m"), 0)
                .telemetryInterval(Duration.ofMillis(5)).gpu(Gpu.dcgm("not a url")).run())
                .isInstanceOf(IllegalArgumentException.class)
                .hasMessageContaining("3 problems")
                .hasMessageContaining("concurrency must be >= 1")
                .hasMessageContaining("telemetry interval must be within 50 ms..60 s, got 5 ms")
                .hasMessageContaining("DCGM exporter URL must be an http(s) URL");
    }
}
