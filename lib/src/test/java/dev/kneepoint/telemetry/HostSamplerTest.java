package dev.kneepoint.telemetry;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assumptions.assumeThat;

import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.Map;
import java.util.concurrent.atomic.AtomicLong;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

class HostSamplerTest {
    @TempDir
    Path proc;

    private void write(String stat, long netRx) throws Exception {
        Files.writeString(proc.resolve("stat"), stat + "\nintr 1 2 3\nctxt 99\n");
        Files.writeString(proc.resolve("meminfo"), "MemTotal:       16000000 kB\nMemFree:         1000000 kB\n"
                + "MemAvailable:    4000000 kB\n");
        Files.writeString(proc.resolve("loadavg"), "1.50 0.80 0.40 2/345 6789\n");
        Files.createDirectories(proc.resolve("net"));
        Files.writeString(proc.resolve("net/dev"), """
                Inter-|   Receive                                                |  Transmit
                 face |bytes    packets errs drop fifo frame compressed multicast|bytes    packets errs drop fifo colls carrier compressed
                    lo: 999999    10    0    0    0     0          0         0 999999    10    0    0    0     0       0          0
                  eth0: %d   100    0    0    0     0          0         0  2000   20    0    0    0     0       0          0
                """.formatted(netRx));
    }

    private static double value(List<TelemetrySample> s, String name, Map<String, String> labels) {
        return s.stream().filter(x -> x.name().equals(name) && x.labels().equals(labels)).findFirst()
                .orElseThrow(() -> new AssertionError("no " + name + labels + " in " + s)).value();
    }

    @Test
    void cpuUtilisationIsTheBusyShareBetweenTwoSamples() throws Exception {
        AtomicLong cpu = new AtomicLong(0);
        HostSampler h = new HostSampler(proc.resolve("missing"), false, cpu::get);
        assertThat(h.usesProc()).isFalse();

        write("cpu  100 0 100 700 100 0 0 0 0 0\ncpu0 50 0 50 350 50 0 0 0 0 0\ncpu1 50 0 50 350 50 0 0 0 0 0", 1000);
        h = new HostSampler(proc, true, cpu::get);
        assertThat(h.usesProc()).isTrue();
        List<TelemetrySample> first = h.sample(0);
        // the first sample has no differences yet: no CPU utilisation, but memory, load and network
        assertThat(first).noneMatch(x -> x.name().equals("cpu_util_pct") || x.name().equals("process_cpu_cores"));
        assertThat(value(first, "mem_total_bytes", Map.of())).isEqualTo(16_000_000.0 * 1024);
        assertThat(value(first, "mem_used_bytes", Map.of())).isEqualTo(12_000_000.0 * 1024);
        assertThat(value(first, "load_avg_1m", Map.of())).isEqualTo(1.5);
        assertThat(value(first, "net_rx_bytes_total", Map.of())).isEqualTo(1000.0); // lo excluded

        write("cpu  250 0 150 1000 100 0 0 0 0 0\ncpu0 150 0 100 400 50 0 0 0 0 0\ncpu1 100 0 50 600 50 0 0 0 0 0", 5000);
        cpu.set(500_000_000L);
        List<TelemetrySample> second = h.sample(1_000_000_000L);
        // all: total 1000 -> 1500, idle+iowait 800 -> 1100: busy = 1 - 300/500 = 40 %
        assertThat(value(second, "cpu_util_pct", Map.of())).isCloseTo(40.0, org.assertj.core.data.Offset.offset(1e-9));
        // cpu0: total 500 -> 700, idle 400 -> 450: busy = 1 - 50/200 = 75 %; cpu1: 500 -> 800, idle 400 -> 650: 1 - 250/300
        assertThat(value(second, "cpu_util_pct", Map.of("cpu", "0"))).isCloseTo(75.0, org.assertj.core.data.Offset.offset(1e-9));
        assertThat(value(second, "cpu_util_pct", Map.of("cpu", "1"))).isCloseTo(100.0 / 6, org.assertj.core.data.Offset.offset(1e-9));
        // 0.5 s of CPU in 1 s of run clock
        assertThat(value(second, "process_cpu_cores", Map.of())).isEqualTo(0.5);
        assertThat(value(second, "net_rx_bytes_total", Map.of())).isEqualTo(5000.0);
    }

    @Test
    void theRealHostGivesPlausibleValuesOnLinux() throws Exception {
        assumeThat(Files.isReadable(Path.of("/proc/stat"))).as("Linux /proc").isTrue();
        HostSampler h = HostSampler.system(false);
        h.sample(0);
        long spin = System.nanoTime();
        var threads = java.lang.management.ManagementFactory.getThreadMXBean();
        long cpu0 = threads.getCurrentThreadCpuTime();
        double x = 0;
        while (threads.getCurrentThreadCpuTime() - cpu0 < 50_000_000L) { // 50 ms of this thread's CPU, however loaded
            x += Math.sqrt(x + 1);
        }
        long wall = System.nanoTime() - spin;
        List<TelemetrySample> s = h.sample(wall);
        assertThat(x).isPositive();
        assertThat(value(s, "cpu_util_pct", Map.of())).isBetween(0.0, 100.0);
        double total = value(s, "mem_total_bytes", Map.of());
        assertThat(total).isGreaterThan(256.0 * 1024 * 1024); // any machine that runs this has more than 256 MiB
        assertThat(value(s, "mem_used_bytes", Map.of())).isBetween(0.0, total);
        assertThat(value(s, "load_avg_1m", Map.of())).isGreaterThanOrEqualTo(0.0);
        // cores x interval = the process's CPU seconds: at least this thread's 50 ms (less 10 ms for the kernel's
        // tick-granular accounting), and no more than every core for the whole interval
        double cores = value(s, "process_cpu_cores", Map.of());
        assertThat(cores * wall / 1e9).isGreaterThanOrEqualTo(0.04);
        assertThat(cores).isLessThanOrEqualTo(Runtime.getRuntime().availableProcessors() + 0.5);
    }
}
