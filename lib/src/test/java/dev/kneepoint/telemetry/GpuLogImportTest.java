package dev.kneepoint.telemetry;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Instant;
import java.time.LocalDateTime;
import java.time.ZoneId;
import java.time.format.DateTimeFormatter;
import java.util.List;
import java.util.Locale;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** A GPU log from another host lands on the run's clock: zone, origin, run bounds, bad rows, double import. */
class GpuLogImportTest {
    private static final DateTimeFormatter TS = DateTimeFormatter.ofPattern("yyyy/MM/dd HH:mm:ss.SSS", Locale.ROOT);
    private static final ZoneId PARIS = ZoneId.of("Europe/Paris");
    private static final String HEADER = "timestamp, index, utilization.gpu [%], memory.used [MiB], power.draw [W]";

    @TempDir
    Path dir;

    private void manifest(String extra) throws IOException {
        Files.writeString(dir.resolve("manifest.json"), "{\"format_version\":1,\"run_id\":\"r\",\"complete\":true,"
                + "\"start_time\":\"2026-07-14T08:00:00.040Z\"," + extra + "\"end_time\":\"2026-07-14T08:00:10Z\"}");
    }

    /** The GPU host's local time in Paris (UTC+2 in July) of an instant. */
    private static String paris(String instant) {
        return TS.format(LocalDateTime.ofInstant(Instant.parse(instant), PARIS));
    }

    @Test
    void rowsLandOnTheRunClockFromTheClockOriginInTheGpuHostsZone() throws IOException {
        manifest("\"clock_origin\":\"2026-07-14T08:00:00.000250Z\",");
        Path csv = dir.resolve("gpu.csv");
        Files.write(csv, List.of(HEADER,
                paris("2026-07-14T07:59:59.900Z") + ", 0, 5 %, 100 MiB, 70.00 W",     // before the run: left out
                paris("2026-07-14T08:00:00.500Z") + ", 0, 96 %, 19818 MiB, 631.95 W",
                paris("2026-07-14T08:00:01.750Z") + ", 1, [N/A], 55 MiB, 78.28 W",     // MIG: no utilisation
                paris("2026-07-14T08:00:02.000Z") + ", 0, 97 %, 19818 GiB, 600.00 W",  // wrong unit: a problem
                "garbage, 0, 1 %, 1 MiB, 1 W",                                         // no timestamp: a problem
                paris("2026-07-14T08:00:11.000Z") + ", 0, 5 %, 100 MiB, 70.00 W"));    // after the end: left out

        GpuLogImport.Result r = GpuLogImport.into(dir, csv, PARIS);

        assertThat(r.rows()).isEqualTo(6);
        assertThat(r.imported()).isEqualTo(2);
        assertThat(r.outsideRun()).isEqualTo(2);
        assertThat(r.samples()).isEqualTo(3 + 2);
        assertThat(r.alignedOn()).isEqualTo("clock_origin");
        assertThat(r.problems()).hasSize(2);
        assertThat(r.problems().get(0)).startsWith("line 5: ").contains("memory.used").contains("19818 GiB");
        assertThat(r.problems().get(1)).startsWith("line 6: no readable timestamp");
        TelemetryData t = TelemetryLoader.load(dir);
        assertThat(t.problems()).isEmpty();
        // 08:00:00.500 local-Paris row is 499.750 ms after the origin 08:00:00.000250Z: exact, the zone applied
        List<TelemetrySample> util = t.series("gpu:gpu_util_pct{gpu=0,host=server}");
        assertThat(util).extracting(TelemetrySample::tNanos).containsExactly(499_750_000L);
        assertThat(util).extracting(TelemetrySample::value).containsExactly(96.0);
        assertThat(t.series("gpu:mem_used_bytes{gpu=1,host=server}")).extracting(TelemetrySample::tNanos).containsExactly(1_749_750_000L);
        assertThat(t.series("gpu:mem_used_bytes{gpu=1,host=server}")).extracting(TelemetrySample::value).containsExactly(55.0 * 1048576);
        assertThat(t.keys()).doesNotContain("gpu:gpu_util_pct{gpu=1,host=server}");
        assertThat(t.status("gpu", "imported")).get().extracting(TelemetryStatus::reason).asString()
                .contains("gpu.csv").contains("2 of 6 rows").contains("Europe/Paris");

        long size = Files.size(dir.resolve(TelemetryLoader.FILE));
        assertThatThrownBy(() -> GpuLogImport.into(dir, csv, PARIS)).isInstanceOf(IllegalArgumentException.class)
                .hasMessageContaining("imported into").hasMessageContaining("double");
        assertThat(Files.size(dir.resolve(TelemetryLoader.FILE))).as("nothing written by a refused import").isEqualTo(size);
    }

    @Test
    void aRunWithoutClockOriginAlignsOnItsStartTime() throws IOException {
        manifest("");
        Path csv = dir.resolve("gpu.csv");
        Files.write(csv, List.of(HEADER, TS.format(LocalDateTime.parse("2026-07-14T08:00:01.040")) + ", 0, 50 %, 1 MiB, 1 W"));
        GpuLogImport.Result r = GpuLogImport.into(dir, csv, ZoneId.of("UTC"));
        assertThat(r.alignedOn()).isEqualTo("start_time");
        assertThat(TelemetryLoader.load(dir).series("gpu:gpu_util_pct{gpu=0,host=server}")).extracting(TelemetrySample::tNanos)
                .containsExactly(1_000_000_000L);
    }

    @Test
    void logsThatCannotBePlacedAreRefusedBeforeAnythingIsWritten() throws IOException {
        manifest("");
        Path noHeader = dir.resolve("a.csv");
        Files.write(noHeader, List.of("0, 96, 75210, 81559, 584.21, 58, 1980"));
        assertThatThrownBy(() -> GpuLogImport.into(dir, noHeader, PARIS)).hasMessageContaining("no header line")
                .hasMessageContaining("--format=csv");
        Path noTimestamp = dir.resolve("b.csv");
        Files.write(noTimestamp, List.of("index, utilization.gpu [%]", "0, 96 %"));
        assertThatThrownBy(() -> GpuLogImport.into(dir, noTimestamp, PARIS)).hasMessageContaining("no timestamp column")
                .hasMessageContaining("--query-gpu=timestamp,index");
        assertThat(dir.resolve(TelemetryLoader.FILE)).doesNotExist();
        assertThatThrownBy(() -> GpuLogImport.into(dir.resolve("nope"), noTimestamp, PARIS))
                .hasMessageContaining("not a run directory");
        assertThatThrownBy(() -> GpuLogImport.into(dir, noTimestamp, PARIS, "a,b")).hasMessageContaining("host label 'a,b'");
    }
}
