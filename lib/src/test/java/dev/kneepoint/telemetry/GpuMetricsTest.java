package dev.kneepoint.telemetry;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.stream.Stream;
import org.junit.jupiter.api.Assumptions;
import org.junit.jupiter.api.Test;

class GpuMetricsTest {
    @Test
    void csvLineGivesSevenFieldsAsSixSeriesWithMiBInBytes() {
        List<TelemetrySample> s = GpuMetrics.parseCsvLine("0, 96, 75210, 81559, 584.21, 58, 1980", 9L);
        assertThat(s).extracting(TelemetrySample::name).containsExactly("gpu_util_pct", "mem_used_bytes",
                "mem_total_bytes", "power_w", "temp_c", "sm_clock_mhz");
        assertThat(s).extracting(TelemetrySample::value).containsExactly(96.0, 75210.0 * 1048576, 81559.0 * 1048576,
                584.21, 58.0, 1980.0);
        assertThat(s).allMatch(x -> x.labels().get("gpu").equals("0") && x.source().equals("gpu") && x.tNanos() == 9L);
    }

    @Test
    void notAvailableFieldsAreMissingNotZero() {
        List<TelemetrySample> s = GpuMetrics.parseCsvLine("1, [N/A], 1, 81559, [N/A], 32, 345", 0L);
        assertThat(s).extracting(TelemetrySample::name).containsExactly("mem_used_bytes", "mem_total_bytes", "temp_c",
                "sm_clock_mhz");
        assertThat(GpuMetrics.parseCsvLine("1, 0, [Not Supported], 81559, 70.44, 32, 345", 0L))
                .extracting(TelemetrySample::name).doesNotContain("mem_used_bytes").contains("gpu_util_pct");
    }

    @Test
    void aLineOfTheWrongShapeIsRejectedWithTheExpectedFields() {
        assertThatThrownBy(() -> GpuMetrics.parseCsvLine("NVIDIA-SMI has failed because it couldn't communicate", 0L))
                .isInstanceOf(IllegalArgumentException.class).hasMessageContaining("index,utilization.gpu");
    }

    /**
     * Output recorded from a real nvidia-smi by {@code bench/device/gpu-record.sh} ({@code nvidia-smi-real*.csv}
     * in fixtures/gpu, provenance in fixtures/PROVENANCE.md): every line parses, GPU indexes are small integers and
     * memory used never exceeds the total. Skipped, saying so, until such a recording is committed.
     */
    @Test
    void recordedRealOutputParses() throws IOException {
        Path dir = Path.of("src/test/resources/fixtures/gpu");
        List<Path> files;
        try (Stream<Path> s = Files.list(dir)) {
            files = s.filter(f -> f.getFileName().toString().matches("nvidia-smi-real(-load)?\\.csv")).sorted().toList();
        }
        Assumptions.assumeFalse(files.isEmpty(), "no real nvidia-smi recording yet: run bench/device/gpu-record.sh "
                + "on a GPU machine and commit its nvidia-smi-real*.csv here");
        int lines = 0;
        for (Path f : files) {
            for (String line : Files.readAllLines(f)) {
                if (line.isBlank() || line.startsWith("#")) {
                    continue;
                }
                List<TelemetrySample> s = GpuMetrics.parseCsvLine(line, 0L);
                assertThat(s).as(f + ": " + line).isNotEmpty();
                assertThat(Integer.parseInt(s.get(0).labels().get("gpu"))).isBetween(0, 63);
                double used = s.stream().filter(x -> x.name().equals("mem_used_bytes")).mapToDouble(TelemetrySample::value)
                        .findFirst().orElse(0);
                double total = s.stream().filter(x -> x.name().equals("mem_total_bytes")).mapToDouble(TelemetrySample::value)
                        .findFirst().orElse(Double.MAX_VALUE);
                assertThat(used).as(f + ": " + line).isLessThanOrEqualTo(total);
                lines++;
            }
        }
        assertThat(lines).as("recorded lines").isPositive();
    }
}
