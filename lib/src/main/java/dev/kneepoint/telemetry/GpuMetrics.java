package dev.kneepoint.telemetry;

import dev.kneepoint.telemetry.TelemetrySample.Kind;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

/**
 * Pure parsers of GPU readings into telemetry samples of source {@code gpu}, one series per GPU (label
 * {@code gpu}): {@code gpu_util_pct}, {@code mem_used_bytes}, {@code mem_total_bytes} (nvidia-smi),
 * {@code mem_free_bytes} (DCGM), {@code power_w}, {@code temp_c}, {@code sm_clock_mhz}. A field that the
 * device does not report ({@code [N/A]}, {@code [Not Supported]}, empty) yields no sample, never a zero.
 * The GPU's name (nvidia-smi's {@code name}, DCGM's {@code modelName} label) is no sample: it goes to the run's
 * manifest ({@code config.server.gpus}).
 */
final class GpuMetrics {
    /** The nvidia-smi query fields, in the order {@link #parseCsvLine} expects them; {@code name} last. */
    public static final String QUERY = "index,utilization.gpu,memory.used,memory.total,power.draw,temperature.gpu,"
            + "clocks.sm,name";

    private static final double MIB = 1024.0 * 1024.0;

    private GpuMetrics() {}

    /**
     * Parses one line of {@code nvidia-smi --query-gpu=}{@link #QUERY}{@code --format=csv,noheader,nounits}
     * ({@link NvidiaSmiCsv#sampler()}; {@link NvidiaSmiCsv#ofHeader} reads the other forms).
     *
     * @throws IllegalArgumentException when the line has fewer than eight fields, no GPU index, or a value that is
     *         not a number or a not-available mark
     */
    public static List<TelemetrySample> parseCsvLine(String line, long tNanos) {
        return NvidiaSmiCsv.sampler().samples(line, tNanos);
    }

    /** The GPUs a DCGM exporter scrape reports: index ({@code gpu} label) to name ({@code modelName}, else empty). */
    public static Map<String, String> dcgmDevices(PromText.Exposition e) {
        Map<String, String> out = new LinkedHashMap<>();
        for (PromText.Sample s : e.samples()) {
            if (s.name().startsWith("DCGM_")) {
                out.merge(s.label("gpu").orElse("?"), s.label("modelName").orElse(""), (a, b) -> a.isEmpty() ? b : a);
            }
        }
        return out;
    }

    /**
     * Maps a DCGM exporter scrape: {@code DCGM_FI_DEV_GPU_UTIL} (%), {@code DCGM_FI_DEV_FB_USED} and
     * {@code DCGM_FI_DEV_FB_FREE} (MiB), {@code DCGM_FI_DEV_POWER_USAGE} (W), {@code DCGM_FI_DEV_GPU_TEMP} (C),
     * {@code DCGM_FI_DEV_SM_CLOCK} (MHz). Other fields are kept under their own name with the {@code gpu} label.
     */
    public static List<TelemetrySample> mapDcgm(PromText.Exposition e, long tNanos) {
        List<TelemetrySample> out = new ArrayList<>();
        for (PromText.Sample s : e.samples()) {
            if (!s.name().startsWith("DCGM_")) {
                continue;
            }
            String gpu = s.label("gpu").orElse("?");
            String name;
            double v = s.value();
            switch (s.name()) {
                case "DCGM_FI_DEV_GPU_UTIL" -> name = "gpu_util_pct";
                case "DCGM_FI_DEV_FB_USED" -> { name = "mem_used_bytes"; v *= MIB; }
                case "DCGM_FI_DEV_FB_FREE" -> { name = "mem_free_bytes"; v *= MIB; }
                case "DCGM_FI_DEV_POWER_USAGE" -> name = "power_w";
                case "DCGM_FI_DEV_GPU_TEMP" -> name = "temp_c";
                case "DCGM_FI_DEV_SM_CLOCK" -> name = "sm_clock_mhz";
                default -> name = s.name();
            }
            Kind kind = e.typeOf(s.name()).equals("counter") ? Kind.COUNTER : Kind.GAUGE;
            if (!Double.isNaN(v)) {
                out.add(new TelemetrySample(tNanos, "gpu", name, Map.of("gpu", gpu), kind, v,
                        name.equals(s.name()) ? "" : s.name()));
            }
        }
        return out;
    }
}
