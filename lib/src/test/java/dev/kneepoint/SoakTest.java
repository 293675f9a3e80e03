package dev.kneepoint;

import static org.assertj.core.api.Assertions.assertThat;

import dev.kneepoint.io.RunLoader;
import dev.kneepoint.metrics.RequestRecord;
import dev.kneepoint.metrics.RunResult;
import dev.kneepoint.sim.Simulator;
import dev.kneepoint.sweep.SweepHandle;
import java.lang.management.ManagementFactory;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.Locale;
import java.util.concurrent.TimeUnit;
import java.util.stream.Stream;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.api.io.TempDir;

/**
 * A bounded soak: one closed-loop step at steady load against the embedded simulator (client, load layer,
 * aggregator and run directory all in this JVM), sampled every {@code soak/12}: heap used after a full GC,
 * threads (platform and virtual) and open sockets. The two halves must look alike: no heap, thread or
 * socket growth, the same throughput and latency. CI runs it for 36 s; {@code -Dkneepoint.soak.seconds=600}
 * turns it into the long benchmark of docs/PERFORMANCE.md ("Soak"). The figures go to
 * {@code target/soak-report.txt}.
 */
class SoakTest {
    private static final int USERS = 16;
    private static final int SAMPLES = 12;

    @TempDir
    Path runs;

    private record Sample(double atS, long heapBytes, int threads, int sockets, long served) {
    }

    @Test
    @Timeout(value = 30, unit = TimeUnit.MINUTES)
    void steadyLoadLeavesHeapThreadsSocketsAndLatencyFlat() throws Exception {
        long soakS = Long.getLong("kneepoint.soak.seconds", 36);
        try (Simulator sim = Kneepoint.simulator("fast")) {
            Resources before = Resources.take();
            SweepHandle handle = Kneepoint.ladder(Kneepoint.target(sim), USERS).inputTokens(64).outputTokens(32)
                    .stepDuration(Duration.ofSeconds(soakS)).warmup(Duration.ZERO).outputDir(runs).name("soak").start();
            long t0 = System.nanoTime();
            List<Sample> samples = new ArrayList<>();
            for (int i = 1; i <= SAMPLES; i++) {
                long at = t0 + TimeUnit.SECONDS.toNanos(soakS) * i / (SAMPLES + 1);
                Thread.sleep(Math.max(0, (at - System.nanoTime()) / 1_000_000));
                System.gc();
                long heap = ManagementFactory.getMemoryMXBean().getHeapMemoryUsage().getUsed();
                Resources r = Resources.take();
                if (Boolean.getBoolean("kneepoint.soak.histo") && (i == 2 || i == SAMPLES)) {
                    new ProcessBuilder(Path.of(System.getProperty("java.home"), "bin", "jcmd").toString(),
                            Long.toString(ProcessHandle.current().pid()), "GC.class_histogram")
                            .redirectOutput(Path.of("target", "histo-" + i + ".txt").toFile()).start().waitFor();
                }
                samples.add(new Sample((System.nanoTime() - t0) / 1e9, heap, r.allThreads(), r.sockets(),
                        sim.stats().requestsServed()));
            }
            RunResult result = handle.await();
            assertThat(result.complete()).isTrue();
            assertThat(result.steps().get(0).counts().requestsFailed()).isZero();

            Path dir;
            try (Stream<Path> list = Files.list(runs)) {
                dir = list.filter(Files::isDirectory).findFirst().orElseThrow();
            }
            List<RequestRecord> records = RunLoader.load(dir).records();
            // halves of the run after its first sixth (JIT warm-up: the first second's p99 is several times the
            // rest's), by completion time
            long first0 = records.stream().mapToLong(r -> r.timing().dispatchNanos()).min().orElseThrow();
            long end = records.stream().mapToLong(r -> r.timing().endNanos()).max().orElseThrow();
            long start = first0 + (end - first0) / 6;
            long mid = start + (end - start) / 2;
            Half a = Half.of(records.stream()
                            .filter(r -> r.timing().endNanos() >= start && r.timing().endNanos() < mid).toList(),
                    (mid - start) / 1e9);
            Half b = Half.of(records.stream().filter(r -> r.timing().endNanos() >= mid).toList(), (end - mid) / 1e9);

            List<Sample> first = samples.subList(0, SAMPLES / 2);
            List<Sample> second = samples.subList(SAMPLES / 2, SAMPLES);
            double heapA = first.stream().mapToLong(Sample::heapBytes).average().orElseThrow() / 1e6;
            double heapB = second.stream().mapToLong(Sample::heapBytes).average().orElseThrow() / 1e6;
            report(soakS, samples, a, b, heapA, heapB, before);


            // Heap after a full GC. Nothing in the live path grows with the step: the histograms are of fixed size
            // and the step's windowed facts are counted as records arrive (StepAggregator with a WindowPlan: only
            // the records at the frontier of time wait, a few hundred bytes). Measured: the halves' means differed
            // by +0.3 MB at 36 s (the first sample, at 3 s, is still settling) and by 0.0 at 180 s; the spread
            // within a half was < 1 MB. So 2 MB is allowed, for what was allocated after the GC returned and the
            // run directory's writer queue: a leak of >= ~600 B per request fails at the CI length (~3,500
            // requests between the halves' means), >= ~35 B per request at 10 minutes. (It used to allow 5 % +
            // 4 MB + 8 B per token event, when the step kept every token arrival until it ended.)
            assertThat(heapB).as("heap MB after GC, 2nd half vs 1st (%.2f)", heapA).isLessThan(heapA + 2);
            // Threads and sockets: closed loop, so the in-flight count is constant (USERS streams and their
            // server-side connections); the second half may not hold more than the first ever did.
            // Threads: pools outside the load (OkHttp's dispatcher for telemetry scrapes, its task runner) may
            // start one for a moment, so a single sample can be one above; a leak grows with every request, so
            // the second half's median may not exceed the first half's max, nor any sample exceed it by more than 2.
            assertThat(median(second, Sample::threads)).as("threads, 2nd half median vs 1st half max")
                    .isLessThanOrEqualTo(max(first, Sample::threads));
            assertThat(max(second, Sample::threads)).as("threads, 2nd half max vs 1st half max")
                    .isLessThanOrEqualTo(max(first, Sample::threads) + 2);
            assertThat(max(second, Sample::sockets)).as("sockets, 2nd half vs 1st half max")
                    .isLessThanOrEqualTo(max(first, Sample::sockets));
            // Throughput and latency: same load, same engine, so the halves differ only by machine noise
            // (a shared CI box): +-30 % on throughput, 2x on medians still fails a client that slows down as it
            // accumulates state (it would show as a trend, not a wobble).
            assertThat(b.perS).as("requests/s 2nd half vs 1st (%.1f)", a.perS).isBetween(a.perS * 0.7, a.perS * 1.3);
            assertThat(b.ttftP50Ms).as("TTFT p50 ms 2nd half vs 1st (%.2f)", a.ttftP50Ms).isLessThan(a.ttftP50Ms * 2 + 1);
            assertThat(b.e2eP50Ms).as("e2e p50 ms 2nd half vs 1st (%.2f)", a.e2eP50Ms).isLessThan(a.e2eP50Ms * 2 + 1);
        }
    }

    private static int max(List<Sample> samples, java.util.function.ToIntFunction<Sample> f) {
        return samples.stream().mapToInt(f).max().orElseThrow();
    }

    private static int median(List<Sample> samples, java.util.function.ToIntFunction<Sample> f) {
        int[] v = samples.stream().mapToInt(f).sorted().toArray();
        return v[v.length / 2];
    }

    private record Half(int n, double perS, double ttftP50Ms, double e2eP50Ms, double e2eP99Ms) {
        static Half of(List<RequestRecord> rs, double seconds) {
            List<RequestRecord> ok = rs.stream().filter(RequestRecord::isOk).toList();
            return new Half(ok.size(), ok.size() / seconds,
                    pct(ok.stream().mapToLong(r -> r.timing().firstTokenNanos() - r.timing().dispatchNanos())
                            .toArray(), 0.5),
                    pct(ok.stream().mapToLong(r -> r.timing().endNanos() - r.timing().dispatchNanos()).toArray(), 0.5),
                    pct(ok.stream().mapToLong(r -> r.timing().endNanos() - r.timing().dispatchNanos()).toArray(),
                            0.99));
        }

        private static double pct(long[] v, double q) {
            Arrays.sort(v);
            return v.length == 0 ? Double.NaN : v[(int) Math.min(v.length - 1, Math.floor(q * v.length))] / 1e6;
        }
    }

    private static void report(long soakS, List<Sample> samples, Half a, Half b, double heapA, double heapB,
                               Resources before) throws Exception {
        StringBuilder s = new StringBuilder();
        s.append(String.format(Locale.ROOT, "soak %d s, %d users, fast simulator in-process; cores %d%n", soakS, USERS,
                Runtime.getRuntime().availableProcessors()));
        s.append(String.format(Locale.ROOT, "before: threads %d, sockets %d%n", before.allThreads(), before.sockets()));
        for (Sample x : samples) {
            s.append(String.format(Locale.ROOT, "t=%6.1f s heap %7.2f MB threads %4d sockets %4d served %d%n",
                    x.atS(), x.heapBytes() / 1e6, x.threads(), x.sockets(), x.served()));
        }
        s.append(String.format(Locale.ROOT, "heap after GC: 1st half %.2f MB, 2nd half %.2f MB%n", heapA, heapB));
        for (Half h : List.of(a, b)) {
            s.append(String.format(Locale.ROOT, "half: %d OK, %.1f req/s, ttft p50 %.2f ms, e2e p50 %.2f ms, p99 %.2f ms%n",
                    h.n, h.perS, h.ttftP50Ms, h.e2eP50Ms, h.e2eP99Ms));
        }
        Path out = Path.of("target", "soak-report.txt");
        Files.createDirectories(out.getParent());
        Files.writeString(out, s);
    }
}
