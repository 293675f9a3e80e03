package dev.kneepoint.cli;

import dev.kneepoint.sweep.Sweep;
import dev.kneepoint.telemetry.Gpu;
import dev.kneepoint.telemetry.Telemetry;
import java.time.Duration;
import java.util.Locale;
import picocli.CommandLine.Option;

/**
 * What a sweep samples beside its load (docs/TELEMETRY.md): the server's Prometheus endpoint, the host and the
 * GPUs, or nothing. Defaults: {@link Telemetry#defaults()}'s interval and GPU source ({@link OptionDefaults}).
 */
final class TelemetryOptions {
    @Option(names = "--no-telemetry", description = "Sample no server /metrics, host or GPU telemetry")
    boolean noTelemetry;

    @Option(names = "--metrics-url", description = "Server Prometheus endpoint (default: <url>/metrics)")
    String metricsUrl;

    @Option(names = "--telemetry-interval", description = "Telemetry sampling interval (default: ${DEFAULT-VALUE})")
    Duration telemetryInterval;

    @Option(names = "--gpu", description = "GPU telemetry: auto, nvidia-smi, off, or a DCGM exporter URL (default: ${DEFAULT-VALUE})")
    String gpu;

    /** {@code sweep} with this telemetry; returns it. */
    Sweep applyTo(Sweep sweep) {
        if (noTelemetry) {
            return sweep.telemetry(Telemetry.off());
        }
        sweep.telemetryInterval(telemetryInterval).gpu(parseGpu(gpu));
        Given.set(metricsUrl, sweep::metricsUrl);
        return sweep;
    }

    /** {@code --gpu}'s value as a source: a name of {@link #gpuName}, else a DCGM exporter URL. */
    static Gpu parseGpu(String value) {
        return switch (value.toLowerCase(Locale.ROOT)) {
            case "auto" -> Gpu.auto();
            case "nvidia-smi" -> Gpu.nvidiaSmi();
            case "off", "none" -> Gpu.off();
            default -> Gpu.dcgm(value);
        };
    }

    /** The {@code --gpu} value that {@link #parseGpu} reads as {@code source}. */
    static String gpuName(Gpu source) {
        return switch (source) {
            case Gpu.Auto a -> "auto";
            case Gpu.NvidiaSmi n -> "nvidia-smi";
            case Gpu.Off o -> "off";
            case Gpu.Dcgm d -> d.url();
        };
    }
}
