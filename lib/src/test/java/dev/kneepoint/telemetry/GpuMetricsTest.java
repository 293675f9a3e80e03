package dev.kneepoint.telemetry;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;

class GpuMetricsTest {
    @Test
    void csvLineGivesEightFieldsAsSixSeriesWithMiBInBytes() {
        List<TelemetrySample> s = GpuMetrics.parseCsvLine("0, 96, 75210, 81559, 584.21, 58, 1980, NVIDIA H100 80GB HBM3", 9L);
        assertThat(s).extracting(TelemetrySample::name).containsExactly("gpu_util_pct", "mem_used_bytes",
                "mem_total_bytes", "power_w", "temp_c", "sm_clock_mhz");
        assertThat(s).extracting(TelemetrySample::value).containsExactly(96.0, 75210.0 * 1048576, 81559.0 * 1048576,
                584.21, 58.0, 1980.0);
        assertThat(s).allMatch(x -> x.labels().get("gpu").equals("0") && x.source().equals("gpu") && x.tNanos() == 9L);
    }

    @Test
    void notAvailableFieldsAreMissingNotZero() {
        List<TelemetrySample> s = GpuMetrics.parseCsvLine("1, [N/A], 1, 81559, [N/A], 32, 345, NVIDIA H100 80GB HBM3", 0L);
        assertThat(s).extracting(TelemetrySample::name).containsExactly("mem_used_bytes", "mem_total_bytes", "temp_c",
                "sm_clock_mhz");
        assertThat(GpuMetrics.parseCsvLine("1, 0, [Not Supported], 81559, 70.44, 32, 345, NVIDIA H100 80GB HBM3", 0L))
                .extracting(TelemetrySample::name).doesNotContain("mem_used_bytes").contains("gpu_util_pct");
    }

    @Test
    void aDcgmScrapeNamesItsGpusByTheModelNameLabel() {
        assertThat(GpuMetrics.dcgmDevices(PromText.parse(Fixtures.metrics("dcgm"))))
                .containsExactly(Map.entry("0", "NVIDIA H100 80GB HBM3"), Map.entry("1", "NVIDIA H100 80GB HBM3"));
        // an exporter run without the modelName label: the GPUs still count, unnamed; other families are not GPUs
        String bare = "DCGM_FI_DEV_GPU_UTIL{gpu=\"0\"} 5\nDCGM_FI_DEV_GPU_UTIL{gpu=\"1\"} 7\nprocess_cpu_seconds_total 3\n";
        assertThat(GpuMetrics.dcgmDevices(PromText.parse(bare))).containsExactly(Map.entry("0", ""), Map.entry("1", ""));
    }

    @Test
    void aLineOfTheWrongShapeIsRejectedWithTheExpectedFields() {
        assertThatThrownBy(() -> GpuMetrics.parseCsvLine("NVIDIA-SMI has failed because it couldn't communicate", 0L))
                .isInstanceOf(IllegalArgumentException.class).hasMessageContaining("index,utilization.gpu");
    }
}
