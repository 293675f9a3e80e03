package dev.kneepoint.cli;

import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.DirectoryStream;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.HashMap;
import java.util.Locale;
import java.util.Map;
import java.util.TreeMap;
import java.util.stream.Collectors;

/**
 * CPU time of this process's OS threads grouped by name (Linux {@code /proc/self/task}), for
 * {@code kneepoint bench}: shows where the client's CPU goes (carrier threads, the scheduler thread,
 * JIT compilers, GC, OkHttp's and okio's helper threads). Empty on systems without {@code /proc}.
 */
final class ThreadCpu {
    /** Clock ticks per second of {@code /proc/.../stat} (USER_HZ, 100 on Linux). */
    private static final double TICK_NANOS = 1e9 / 100;

    private final Map<String, long[]> byTid;

    private ThreadCpu(Map<String, long[]> byTid) {
        this.byTid = byTid;
    }

    /** A snapshot of every thread's user+system ticks. */
    static ThreadCpu snapshot() {
        Map<String, long[]> m = new HashMap<>();
        Path tasks = Path.of("/proc/self/task");
        if (!Files.isDirectory(tasks)) {
            return new ThreadCpu(m);
        }
        try (DirectoryStream<Path> ds = Files.newDirectoryStream(tasks)) {
            for (Path t : ds) {
                try {
                    String stat = Files.readString(t.resolve("stat"), StandardCharsets.UTF_8);
                    int open = stat.indexOf('(');
                    int close = stat.lastIndexOf(')');
                    String name = group(stat.substring(open + 1, close));
                    String[] f = stat.substring(close + 2).split(" ");
                    // fields after the name: state(0) ... utime(11) stime(12)
                    long ticks = Long.parseLong(f[11]) + Long.parseLong(f[12]);
                    m.put(t.getFileName() + " " + name, new long[] {ticks});
                } catch (IOException | RuntimeException e) {
                    // the thread ended meanwhile
                }
            }
        } catch (IOException e) {
            return new ThreadCpu(m);
        }
        return new ThreadCpu(m);
    }

    /** Thread names with their numbering removed, so that pools group together. */
    static String group(String comm) {
        String g = comm.replaceAll("[#\\-]?\\d+$", "").replaceAll("\\d+", "N").strip();
        return g.isEmpty() ? comm : g;
    }

    /** CPU ms per group between {@code earlier} and this snapshot, largest first, as one line. */
    String since(ThreadCpu earlier, double windowS) {
        Map<String, Double> ms = new TreeMap<>();
        byTid.forEach((key, v) -> {
            long[] before = earlier.byTid.get(key);
            long d = v[0] - (before == null ? 0 : before[0]);
            if (d > 0) {
                ms.merge(key.substring(key.indexOf(' ') + 1), d * TICK_NANOS / 1e6, Double::sum);
            }
        });
        return ms.entrySet().stream().sorted((a, b) -> Double.compare(b.getValue(), a.getValue()))
                .map(e -> String.format(Locale.ROOT, "%s %.0f ms (%.1f%%)", e.getKey(), e.getValue(),
                        e.getValue() / 10 / windowS))
                .collect(Collectors.joining(", "));
    }
}
