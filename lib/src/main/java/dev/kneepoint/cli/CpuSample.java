package dev.kneepoint.cli;

import java.lang.management.ManagementFactory;
import java.lang.management.ThreadMXBean;
import java.util.LinkedHashMap;
import java.util.Locale;
import java.util.Map;

/**
 * CPU time of this process, in total and per group of platform threads, for the benchmarks' CPU-per-token
 * figures (wall-clock figures are unreliable on a shared machine; CPU time is not). Groups: the NIO
 * transport's selector ({@code kneepoint-nio}), the simulator's engine (which also writes every stream's
 * chunks) and acceptor ({@code kneepoint-sim-*}), the virtual-thread carriers ({@code ForkJoinPool-*}: the
 * simulator's per-connection threads and the client's request threads share them), GC and JIT, and the rest.
 */
record CpuSample(long processNanos, Map<Long, Long> threadNanos, Map<Long, String> threadGroup) {
    static final String[] GROUPS = {"client-nio", "sim-engine", "vthread-carriers", "gc+jit", "other"};

    static CpuSample take() {
        ThreadMXBean mx = ManagementFactory.getThreadMXBean();
        Map<Long, Long> cpu = new LinkedHashMap<>();
        Map<Long, String> group = new LinkedHashMap<>();
        for (var info : mx.dumpAllThreads(false, false)) {
            long t = mx.getThreadCpuTime(info.getThreadId());
            if (t > 0) {
                cpu.put(info.getThreadId(), t);
                group.put(info.getThreadId(), group(info.getThreadName()));
            }
        }
        long process = ((com.sun.management.OperatingSystemMXBean) ManagementFactory.getOperatingSystemMXBean())
                .getProcessCpuTime();
        return new CpuSample(process, cpu, group);
    }

    /**
     * CPU per group between {@code before} and this sample: a thread born in between counts from zero, one
     * that ended in between is missing (its share lands in "gc+jit", the remainder of process time, which
     * also holds the JVM's internal GC and compiler threads).
     */
    private Map<String, Long> groupsSince(CpuSample before) {
        Map<String, Long> g = new LinkedHashMap<>();
        for (String name : GROUPS) {
            g.put(name, 0L);
        }
        long javaThreads = 0;
        for (var e : threadNanos.entrySet()) {
            long d = e.getValue() - before.threadNanos.getOrDefault(e.getKey(), 0L);
            g.merge(threadGroup.get(e.getKey()), d, Long::sum);
            javaThreads += d;
        }
        g.merge("gc+jit", Math.max(0, processNanos - before.processNanos - javaThreads), Long::sum);
        return g;
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
        Map<String, Long> g = groupsSince(before);
        StringBuilder s = new StringBuilder(String.format(Locale.ROOT, "%.1f", (processNanos - before.processNanos) / 1e3 / tokens));
        s.append(" (");
        boolean first = true;
        for (String name : GROUPS) {
            if (!first) {
                s.append(", ");
            }
            first = false;
            s.append(name).append(' ').append(String.format(Locale.ROOT, "%.1f",
                    g.get(name) / 1e3 / tokens));
        }
        return s.append(')').toString();
    }
}
