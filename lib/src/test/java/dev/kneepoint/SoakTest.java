package dev.kneepoint;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.fail;

import dev.kneepoint.analysis.Knee;
import dev.kneepoint.analysis.KneeReport;
import dev.kneepoint.client.TargetConfig;
import dev.kneepoint.io.RunLoader;
import dev.kneepoint.metrics.Outcome;
import dev.kneepoint.metrics.RequestRecord;
import dev.kneepoint.metrics.RunResult;
import dev.kneepoint.metrics.StepResult;
import dev.kneepoint.scenario.DriftReport;
import dev.kneepoint.scenario.MetricDrift;
import dev.kneepoint.sim.SimStats;
import dev.kneepoint.sim.Simulator;
import dev.kneepoint.sweep.SweepHandle;
import java.lang.management.ManagementFactory;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.concurrent.TimeUnit;
import java.util.function.ToIntFunction;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.api.io.TempDir;

/**
 * The soak benchmark (docs/PERFORMANCE.md "Soak"): a long closed-loop step at the knee of the embedded simulator
 * (client, load layer, aggregator and run directory all in this JVM), with nothing lost and nothing drifting.
 *
 * <ol>
 *   <li><b>The load is found, not guessed.</b> A short concurrency ladder ({@link #LADDER}, 4 s a step) against
 *       the same simulator first; {@link Knee#analyze} names its knee and the soak runs at the knee's concurrency.
 *       Without an SLO that is also the recommended operating point (the top of the efficient zone) and the
 *       latency-first one, so the three coincide; the knee is chosen by name because it is what the issue asks
 *       for: the heaviest load at which the server still answers in proportion (the most requests in flight, the
 *       most state in the client, before queueing takes over). No knee: the test fails with the ladder's method
 *       text. The ladder also warms the JIT and the client, so the soak runs without preflight and client
 *       warm-up: every request the simulator receives during it is a measured one.</li>
 *   <li><b>Samples</b> at evenly spaced instants (one per 15 s, at least 12): heap used after a full GC, threads
 *       (platform and virtual), open file descriptors and sockets, and the simulator's served count.</li>
 *   <li><b>Flat over time</b>: the halves of the run must look alike in heap, threads, descriptors, sockets,
 *       throughput and medians, and the product's drift test ({@link dev.kneepoint.scenario.SoakDrift}, first third
 *       against last third of ~30 intervals) must flag nothing in throughput, TTFT, ITL and e2e latency (medians and
 *       throughput at its default 10 %, p99s at 30 %: {@link SoakFigures#drift} says why).</li>
 *   <li><b>Nothing lost</b>: every request the simulator received has a record in {@code requests.jsonl}, ids are
 *       unique, none failed, and the simulator served exactly the OK ones (plus at most the ones the drain cut).</li>
 * </ol>
 *
 * <p>Default 180 s: the 3-minute CI version (surefire runs it with the rest). {@code -Dkneepoint.soak.seconds=1800}
 * is the 30-minute benchmark. The figures go to {@code target/soak-report.txt}.
 */
class SoakTest {
    static final int[] LADDER = {1, 2, 4, 8, 16, 32, 64, 128};
    static final Duration LADDER_STEP = Duration.ofSeconds(4);
    /**
     * Warm-up of the soak step, out of the measured window: its 0.5 s ramp-up, the first connections, and the closed
     * loop settling. The ramp starts the users evenly; users that finish in one engine step come back together, so
     * over the first ~15 s they bunch up on the engine's steps and TTFT rises to its steady level (measured in the
     * full suite at 64 users: TTFT p50 7.4 and 8.0 ms in the 6 s intervals from 5 s and 11 s, 8.5-9.4 ms from then
     * on), which a drift test starting at 5 s read as TTFT drift (+11 % p50 twice, +30 % p99 once, in six full-suite
     * runs).
     */
    static final Duration WARMUP = Duration.ofSeconds(20);

    @TempDir
    Path runs;

    record Sample(double atS, long heapBytes, int threads, int fds, int sockets, long served) {
    }

    @Test
    @Timeout(value = 40, unit = TimeUnit.MINUTES) // 30 min soak + ~45 s ladder + sampling and read-back
    void steadyLoadAtTheKneeLosesNothingAndStaysFlat() throws Exception {
        long soakS = Long.getLong("kneepoint.soak.seconds", 180);
        int sampleCount = (int) Math.max(12, soakS / 15);
        try (Simulator sim = Kneepoint.simulator("fast")) {
            TargetConfig target = Kneepoint.target(sim);
            RunResult ladder = Kneepoint.ladder(target, LADDER).inputTokens(64).outputTokens(32)
                    .warmup(Duration.ofSeconds(1)).stepDuration(LADDER_STEP).outputDir(runs.resolve("ladder"))
                    .name("ladder").run();
            KneeReport knee = Knee.analyze(ladder);
            if (knee.knee().isEmpty()) {
                fail("No knee in the ladder " + java.util.Arrays.toString(LADDER) + " against the fast simulator: "
                        + "nothing to soak at. The analysis said:\n" + knee.method());
            }
            int users = (int) knee.kneeLoad();

            Resources before = Resources.take();
            SimStats simBefore = sim.stats();
            SweepHandle handle = Kneepoint.ladder(target, users).inputTokens(64).outputTokens(32)
                    .warmup(WARMUP).stepDuration(Duration.ofSeconds(soakS)).preflight(false).clientWarmup(false)
                    .outputDir(runs.resolve("soak")).name("soak").start();
            long t0 = System.nanoTime();
            long totalNanos = TimeUnit.SECONDS.toNanos(soakS) + WARMUP.toNanos();
            List<Sample> samples = new ArrayList<>();
            for (int i = 1; i <= sampleCount; i++) {
                long at = t0 + totalNanos * i / (sampleCount + 1);
                Thread.sleep(Math.max(0, (at - System.nanoTime()) / 1_000_000));
                System.gc();
                long heap = ManagementFactory.getMemoryMXBean().getHeapMemoryUsage().getUsed();
                Resources r = Resources.take();
                if (Boolean.getBoolean("kneepoint.soak.histo") && (i == 2 || i == sampleCount)) {
                    new ProcessBuilder(Path.of(System.getProperty("java.home"), "bin", "jcmd").toString(),
                            Long.toString(ProcessHandle.current().pid()), "GC.class_histogram")
                            .redirectOutput(Path.of("target", "histo-" + i + ".txt").toFile()).start().waitFor();
                }
                samples.add(new Sample((System.nanoTime() - t0) / 1e9, heap, r.allThreads(), r.fds(), r.sockets(),
                        sim.stats().requestsServed() - simBefore.requestsServed()));
            }
            RunResult result = handle.await();
            SimStats simAfter = sim.stats();
            assertThat(result.complete()).isTrue();
            StepResult step = result.steps().get(0);
            List<RequestRecord> records = RunLoader.load(result.directory().orElseThrow()).records();

            SoakFigures.Accounting books = SoakFigures.Accounting.of(records,
                    simAfter.requestsReceived() - simBefore.requestsReceived(),
                    simAfter.requestsServed() - simBefore.requestsServed());
            SoakFigures.Halves halves = SoakFigures.Halves.of(records);
            SoakFigures.Drift drift = SoakFigures.drift(records, step.window(), SoakFigures.driftInterval(soakS));
            List<Sample> first = samples.subList(0, sampleCount / 2);
            List<Sample> second = samples.subList(sampleCount / 2, sampleCount);
            double heapA = first.stream().mapToLong(Sample::heapBytes).average().orElseThrow() / 1e6;
            double heapB = second.stream().mapToLong(Sample::heapBytes).average().orElseThrow() / 1e6;
            SoakFigures.report(soakS, ladder, knee, users, before, samples, halves, heapA, heapB, drift, books);

            // Nothing lost. Preflight and client warm-up are off, so the simulator received only the soak's requests:
            // each must have exactly one record (ids unique), none may have failed, and the simulator served every
            // OK one. The only slack: a request the drain cut at the end (cancelled on the client) may have been
            // served a moment before the cut, so served - OK may be up to the cancelled count (0 in practice: the
            // closed loop drains within the default drain timeout).
            assertThat(books.failed()).as("failed records: %s", books.failedExamples()).isZero();
            assertThat(books.uniqueIds()).as("unique ids").isEqualTo(records.size());
            assertThat(records.size()).as("records vs requests the simulator received").isEqualTo(books.received());
            assertThat(books.served()).as("simulator served vs OK records (%d cancelled)", books.cancelled())
                    .isBetween(books.ok(), books.ok() + books.cancelled());
            assertThat(step.counts().requestsFailed()).isZero();

            // Heap after a full GC. Nothing in the live path grows with the step: the histograms are of fixed size
            // and the step's windowed facts are counted as records arrive (StepAggregator with a WindowPlan: only
            // the records at the frontier of time wait, a few hundred bytes). Measured: the halves' means differed
            // by +0.3 MB at 36 s (the first sample, at 3 s, is still settling) and by 0.0 at 180 s (16 users);
            // at the knee (64 users, 180 s) by +0.14, +0.08 and +0.02 MB in three runs, the spread within a half
            // <= 0.3 MB. So 2 MB is allowed, for what was allocated after the GC returned and the run directory's
            // writer queue: at ~560 req/s a leak of >= ~40 B per request fails at the CI length (~50,000 requests
            // between the halves' means), >= ~4 B per request at 30 minutes. (It used to allow 5 % + 4 MB + 8 B
            // per token event, when the step kept every token arrival until it ended.)
            assertThat(heapB).as("heap MB after GC, 2nd half vs 1st (%.2f)", heapA).isLessThan(heapA + 2);
            // Threads, descriptors and sockets: closed loop, so the in-flight count is constant (the users' streams
            // and their server-side connections); the second half may not hold more than the first ever did.
            // Threads: pools outside the load (OkHttp's dispatcher for telemetry scrapes, its task runner) may
            // start one for a moment, and a telemetry scrape may open a connection while its idle one closes (a
            // sample at 171 s saw 133 sockets and 211 descriptors, every other 132 and 210), so a single sample can
            // be one above; a leak grows with every request (~560/s), so the second half's median may not exceed
            // the first half's max, nor any sample exceed it by more than 2. Descriptors: the sockets plus what
            // stays open for the whole run (the JDK's jars and the run directory's files, opened before the first
            // sample), so the same rule catches a descriptor leaked per request, per file or per telemetry scrape.
            for (var resource : List.<Map.Entry<String, ToIntFunction<Sample>>>of(Map.entry("threads", Sample::threads),
                    Map.entry("sockets", Sample::sockets), Map.entry("open descriptors", Sample::fds))) {
                ToIntFunction<Sample> f = resource.getValue();
                assertThat(median(second, f)).as("%s, 2nd half median vs 1st half max", resource.getKey())
                        .isLessThanOrEqualTo(max(first, f));
                assertThat(max(second, f)).as("%s, 2nd half max vs 1st half max", resource.getKey())
                        .isLessThanOrEqualTo(max(first, f) + 2);
            }
            // Throughput and latency: same load, same engine, so the halves differ only by machine noise
            // (a shared CI box): +-30 % on throughput, 2x on medians still fails a client that slows down as it
            // accumulates state (it would show as a trend, not a wobble).
            SoakFigures.Half a = halves.first();
            SoakFigures.Half b = halves.second();
            assertThat(b.perS()).as("requests/s 2nd half vs 1st (%.1f)", a.perS()).isBetween(a.perS() * 0.7, a.perS() * 1.3);
            assertThat(b.ttftP50Ms()).as("TTFT p50 ms 2nd half vs 1st (%.2f)", a.ttftP50Ms()).isLessThan(a.ttftP50Ms() * 2 + 1);
            assertThat(b.e2eP50Ms()).as("e2e p50 ms 2nd half vs 1st (%.2f)", a.e2eP50Ms()).isLessThan(a.e2eP50Ms() * 2 + 1);
            // The product's drift test, first third against last third (SoakFigures.drift says which metrics and
            // why its thresholds are what they are): nothing may be flagged, and no failure burst.
            for (DriftReport d : drift.reports()) {
                for (MetricDrift m : d.metrics()) {
                    assertThat(m.drifted()).as("drift in %s:%n%s", m.metric(), d.text()).isFalse();
                }
                assertThat(d.bursts()).as("failure bursts").isEmpty();
            }
        }
    }

    private static int max(List<Sample> samples, ToIntFunction<Sample> f) {
        return samples.stream().mapToInt(f).max().orElseThrow();
    }

    private static int median(List<Sample> samples, ToIntFunction<Sample> f) {
        int[] v = samples.stream().mapToInt(f).sorted().toArray();
        return v[v.length / 2];
    }

    /** Whether a record's outcome is a failure (neither OK nor cancelled by the drain). */
    static boolean failed(RequestRecord r) {
        return !r.isOk() && !(r.outcome() instanceof Outcome.Cancelled);
    }
}
