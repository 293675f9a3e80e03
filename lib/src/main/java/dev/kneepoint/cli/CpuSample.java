package dev.kneepoint.cli;

import java.lang.management.ManagementFactory;
import java.lang.management.ThreadMXBean;
import java.util.LinkedHashMap;
import java.util.Locale;
import java.util.Map;

/**
 * CPU time of this process, in total and per group of platform threads, for the benchmarks' CPU-per-token
 * figures (wall-clock figures are unreliable on a shared machine; CPU time is not). Groups: the NIO
 * transport's selector ({@code kneepoint-nio}), the simulator's engine and acceptor ({@code kneepoint-sim-*}),
 * the virtual-thread carriers ({@code ForkJoinPool-*}: the simulator's per-connection writers and the
 * client's request threads share them), GC and JIT, and the rest.
 */
record CpuSample(long processNanos, Map<String, Long> groupNanos) {
    static final String[] GROUPS = {"client-nio", "sim-engine", "vthread-carriers", "gc+jit", "other"};

    static CpuSample take() {
        ThreadMXBean mx = ManagementFactory.getThreadMXBean();
        Map<String, Long> g = new LinkedHashMap<>();
        for (String name : GROUPS) {
            g.put(name, 0L);
        }
        for (var info : mx.dumpAllThreads(false, false)) {
            long cpu = mx.getThreadCpuTime(info.getThreadId());
            if (cpu > 0) {
                g.merge(group(info.getThreadName()), cpu, Long::sum);
            }
        }
        // JVM-internal threads (GC workers, compilers) are not Java threads: the remainder of process time
        long process = ((com.sun.management.OperatingSystemMXBean) ManagementFactory.getOperatingSystemMXBean())
                .getProcessCpuTime();
        long javaThreads = g.values().stream().mapToLong(Long::longValue).sum();
        g.merge("gc+jit", Math.max(0, process - javaThreads), Long::sum);
        return new CpuSample(process, g);
    }

    private static String group(String name) {
        if (name.startsWith("kneepoint-nio")) {
            return "client-nio";
        }
        if (name.startsWith("kneepoint-sim")) {
            return "sim-engine";
        }
        if (name.startsWith("ForkJoinPool")) {
            return "vthread-carriers";
        }
        if (name.startsWith("C1 ") || name.startsWith("C2 ") || name.startsWith("G1 ") || name.startsWith("GC ")) {
            return "gc+jit";
        }
        return "other";
    }

    /** Microseconds of CPU per token between {@code before} and this sample, per group and in total. */
    String perToken(CpuSample before, double tokens) {
        StringBuilder s = new StringBuilder(String.format(Locale.ROOT, "%.1f", (processNanos - before.processNanos) / 1e3 / tokens));
        s.append(" (");
        boolean first = true;
        for (String name : GROUPS) {
            if (!first) {
                s.append(", ");
            }
            first = false;
            s.append(name).append(' ').append(String.format(Locale.ROOT, "%.1f",
                    (groupNanos.get(name) - before.groupNanos.get(name)) / 1e3 / tokens));
        }
        return s.append(')').toString();
    }
}
