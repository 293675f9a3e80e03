package dev.kneepoint.io;

import java.lang.management.ManagementFactory;
import java.lang.management.ThreadMXBean;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.List;
import java.util.Locale;
import java.util.function.Function;

/**
 * What reading back a crashed run's background costs ({@code bench/reference/performance-history.md},
 * "Reading back a crashed run's background: the second pass"): writes the {@link BackgroundSoak} run and its crashed copy, then loads each in turn, alternating,
 * and prints the median CPU time of the loading thread ({@link ThreadMXBean}) on one thread
 * ({@code RunLoader.streamOnOneThread}) and the median process CPU time with the default reader
 * ({@code RunLoader.stream}, parsing on a second thread). Run from the repository root after
 * {@code mvn -q -B -o test-compile -pl lib}:
 * {@code java -Xmx2g -cp lib/target/classes:lib/target/test-classes:$(cat /tmp/cp.txt)
 * dev.kneepoint.io.BackgroundReadBackCost [records] [reps]}.
 */
public final class BackgroundReadBackCost {
    private BackgroundReadBackCost() {}

    public static void main(String[] args) throws Exception {
        int records = args.length > 0 ? Integer.parseInt(args[0]) : 200_000;
        int reps = args.length > 1 ? Integer.parseInt(args[1]) : 7;
        Path tmp = Files.createTempDirectory("kneepoint-crashed-bg");
        Path complete = BackgroundSoak.write(tmp, records).dir();
        Path crashed = BackgroundSoak.crashedCopy(complete, tmp.resolve("crashed"));
        System.out.printf(Locale.ROOT, "%d background records, requests.jsonl %d bytes%n", records,
                Files.size(complete.resolve("requests.jsonl")));
        ThreadMXBean threads = ManagementFactory.getThreadMXBean();
        var os = (com.sun.management.OperatingSystemMXBean) ManagementFactory.getOperatingSystemMXBean();
        List<Function<Path, StreamedRun>> readers = List.of(d -> RunLoader.streamOnOneThread(d, r -> { }),
                d -> RunLoader.stream(d, r -> { }));
        String[] names = {"one thread, loading thread CPU", "default reader, process CPU"};
        for (int k = 0; k < readers.size(); k++) {
            List<Long> whole = new ArrayList<>();
            List<Long> crash = new ArrayList<>();
            for (int i = 0; i < reps + 2; i++) { // the first two of each: JIT warm-up, not counted
                for (Path dir : List.of(complete, crashed)) {
                    System.gc();
                    long t0 = k == 0 ? threads.getCurrentThreadCpuTime() : os.getProcessCpuTime();
                    StreamedRun run = readers.get(k).apply(dir);
                    long cpu = (k == 0 ? threads.getCurrentThreadCpuTime() : os.getProcessCpuTime()) - t0;
                    if (run.result().background().orElseThrow().requests() != records) {
                        throw new IllegalStateException("background of " + dir + " lost records");
                    }
                    if (i >= 2) {
                        (dir == complete ? whole : crash).add(cpu);
                    }
                }
            }
            long a = median(whole);
            long b = median(crash);
            System.out.printf(Locale.ROOT, "%s: complete %d ms (%s), crashed %d ms (%s), crashed/complete %.2f%n",
                    names[k], a / 1_000_000, ms(whole), b / 1_000_000, ms(crash), (double) b / a);
        }
    }

    private static long median(List<Long> xs) {
        List<Long> s = new ArrayList<>(xs);
        s.sort(Comparator.naturalOrder());
        return s.get(s.size() / 2);
    }

    private static String ms(List<Long> xs) {
        return xs.stream().map(x -> Long.toString(x / 1_000_000)).reduce((p, q) -> p + ", " + q).orElse("");
    }
}
