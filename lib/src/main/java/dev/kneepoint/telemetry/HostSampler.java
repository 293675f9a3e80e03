package dev.kneepoint.telemetry;

import dev.kneepoint.telemetry.TelemetrySample.Kind;
import java.io.IOException;
import java.lang.management.ManagementFactory;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.function.LongSupplier;

/**
 * Samples the host (source {@code host}): {@code cpu_util_pct} (all cores; with per-core on, also one series per
 * core, label {@code cpu}), {@code mem_used_bytes} (total less available), {@code mem_total_bytes},
 * {@code load_avg_1m}, {@code net_rx_bytes_total} and {@code net_tx_bytes_total} (all interfaces but
 * {@code lo}, counters), and {@code process_cpu_cores}: CPU seconds per second of this JVM, the client itself.
 *
 * <p>On Linux it reads {@code /proc/stat}, {@code /proc/meminfo}, {@code /proc/loadavg} and
 * {@code /proc/net/dev}; elsewhere it falls back to the JVM's {@code OperatingSystemMXBean} (no network, no
 * per-core). Utilisations are differences between two samples, so the first sample has none. Not thread-safe:
 * one sampler thread calls {@link #sample}.
 */
final class HostSampler {
    private final Path proc;
    private final boolean perCore;
    private final LongSupplier processCpuNanos;
    private final Map<String, long[]> lastCpu = new HashMap<>();
    private long lastProcCpu = -1;
    private long lastProcT;

    /** On this machine's {@code /proc}, or the JVM fallback where there is none. */
    static HostSampler system(boolean perCore) {
        return new HostSampler(Path.of("/proc"), perCore, processCpu());
    }

    /** On a given proc root (tests), with an injected process-CPU source (nanoseconds, -1 when unknown). */
    HostSampler(Path procRoot, boolean perCore, LongSupplier processCpuNanos) {
        this.proc = procRoot != null && Files.isReadable(procRoot.resolve("stat")) ? procRoot : null;
        this.perCore = perCore;
        this.processCpuNanos = processCpuNanos;
    }

    /** True when reading /proc (else the JVM fallback). */
    boolean usesProc() {
        return proc != null;
    }

    private static LongSupplier processCpu() {
        var os = ManagementFactory.getOperatingSystemMXBean();
        if (os instanceof com.sun.management.OperatingSystemMXBean sun) {
            return sun::getProcessCpuTime;
        }
        return () -> -1;
    }

    /** One sample at {@code tNanos} (run clock). */
    List<TelemetrySample> sample(long tNanos) throws IOException {
        List<TelemetrySample> out = new ArrayList<>();
        if (proc != null) {
            cpu(tNanos, out);
            memory(tNanos, out);
            load(tNanos, out);
            network(tNanos, out);
        } else {
            fallback(tNanos, out);
        }
        long cpu = processCpuNanos.getAsLong();
        if (cpu >= 0) {
            if (lastProcCpu >= 0 && tNanos > lastProcT) {
                out.add(gauge(tNanos, "process_cpu_cores", Map.of(), (cpu - lastProcCpu) / (double) (tNanos - lastProcT)));
            }
            lastProcCpu = cpu;
            lastProcT = tNanos;
        }
        return out;
    }

    private void cpu(long t, List<TelemetrySample> out) throws IOException {
        for (String line : Files.readAllLines(proc.resolve("stat"))) {
            if (!line.startsWith("cpu")) {
                continue;
            }
            String[] f = Fields.split(line.trim(), Fields.WHITESPACE, 0);
            String id = f[0];
            if (!id.equals("cpu") && !perCore) {
                continue;
            }
            long total = 0;
            for (int i = 1; i < Math.min(f.length, 9); i++) { // user..steal; guest is inside user already
                total += Long.parseLong(f[i]);
            }
            long idle = Long.parseLong(f[4]) + (f.length > 5 ? Long.parseLong(f[5]) : 0); // idle + iowait
            long[] prev = lastCpu.put(id, new long[] {total, idle});
            if (prev != null && total > prev[0]) {
                double busy = 1.0 - (idle - prev[1]) / (double) (total - prev[0]);
                Map<String, String> labels = id.equals("cpu") ? Map.of() : Map.of("cpu", id.substring(3));
                out.add(gauge(t, "cpu_util_pct", labels, 100 * busy));
            }
        }
    }

    private void memory(long t, List<TelemetrySample> out) throws IOException {
        long total = -1;
        long available = -1;
        for (String line : Files.readAllLines(proc.resolve("meminfo"))) {
            if (line.startsWith("MemTotal:")) {
                total = kib(line);
            } else if (line.startsWith("MemAvailable:")) {
                available = kib(line);
            }
        }
        if (total > 0) {
            out.add(gauge(t, "mem_total_bytes", Map.of(), total));
            if (available >= 0) {
                out.add(gauge(t, "mem_used_bytes", Map.of(), total - available));
            }
        }
    }

    private static long kib(String line) {
        String[] f = Fields.split(line.trim(), Fields.WHITESPACE, 0);
        return Long.parseLong(f[1]) * 1024;
    }

    private void load(long t, List<TelemetrySample> out) throws IOException {
        Path p = proc.resolve("loadavg");
        if (Files.isReadable(p)) {
            String[] f = Fields.split(Files.readString(p).trim(), Fields.WHITESPACE, 0);
            out.add(gauge(t, "load_avg_1m", Map.of(), Double.parseDouble(f[0])));
        }
    }

    private void network(long t, List<TelemetrySample> out) throws IOException {
        Path p = proc.resolve("net/dev");
        if (!Files.isReadable(p)) {
            return;
        }
        long rx = 0;
        long tx = 0;
        for (String line : Files.readAllLines(p)) {
            int colon = line.indexOf(':');
            if (colon < 0 || line.substring(0, colon).trim().equals("lo")) {
                continue;
            }
            String[] f = Fields.split(line.substring(colon + 1).trim(), Fields.WHITESPACE, 0);
            if (f.length >= 9) {
                rx += Long.parseLong(f[0]);
                tx += Long.parseLong(f[8]);
            }
        }
        out.add(new TelemetrySample(t, "host", "net_rx_bytes_total", Map.of(), Kind.COUNTER, rx, ""));
        out.add(new TelemetrySample(t, "host", "net_tx_bytes_total", Map.of(), Kind.COUNTER, tx, ""));
    }

    private static void fallback(long t, List<TelemetrySample> out) {
        var os = ManagementFactory.getOperatingSystemMXBean();
        double load = os.getSystemLoadAverage();
        if (load >= 0) {
            out.add(gauge(t, "load_avg_1m", Map.of(), load));
        }
        if (os instanceof com.sun.management.OperatingSystemMXBean sun) {
            double cpu = sun.getCpuLoad();
            if (cpu >= 0) {
                out.add(gauge(t, "cpu_util_pct", Map.of(), 100 * cpu));
            }
            long total = sun.getTotalMemorySize();
            out.add(gauge(t, "mem_total_bytes", Map.of(), total));
            out.add(gauge(t, "mem_used_bytes", Map.of(), total - sun.getFreeMemorySize()));
        }
    }

    private static TelemetrySample gauge(long t, String name, Map<String, String> labels, double v) {
        return TelemetrySample.of(t, "host", name, labels, Kind.GAUGE, v);
    }
}
