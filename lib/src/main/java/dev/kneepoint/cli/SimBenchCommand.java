package dev.kneepoint.cli;

import dev.kneepoint.Kneepoint;
import dev.kneepoint.client.TargetConfig;
import dev.kneepoint.load.ExecutedStep;
import dev.kneepoint.load.GateDecision;
import dev.kneepoint.load.LoadProgress;
import dev.kneepoint.metrics.RunResult;
import dev.kneepoint.metrics.StepInfo;
import dev.kneepoint.metrics.StepResult;
import dev.kneepoint.sim.SimConfig;
import dev.kneepoint.sim.SimStats;
import dev.kneepoint.sim.Simulator;
import java.time.Duration;
import java.util.List;
import java.util.Locale;
import java.util.concurrent.Callable;
import picocli.CommandLine.Command;
import picocli.CommandLine.Mixin;
import picocli.CommandLine.Option;

/**
 * {@code kneepoint bench-sim}: the simulator's figures of docs/PERFORMANCE.md, with Kneepoint's own client in
 * the same JVM. Each case tunes the engine so that one step serves every stream (step = streams / target
 * tokens per second, no prefill or per-sequence cost) and spreads a step's outputs over part of the step, as
 * a real server's front end does; emission lag (write time minus scheduled time) is reset after warm-up.
 */
@Command(name = "bench-sim", mixinStandardHelpOptions = true,
        description = "Measure the simulator with the client in the same JVM: tokens/s, streams, emission lag.")
final class SimBenchCommand implements Callable<Integer> {
    @Mixin
    BenchOptions bench;

    @Option(names = "--case", description = "Only this case, as STREAMS:TOKENS_PER_S:OUTPUT:SPREAD (e.g. 2000:50000:3000:0.8);"
            + " repeatable. Default: the three cases of docs/PERFORMANCE.md")
    List<String> only;

    private record Case(int streams, int tokensPerS, int outputTokens, double spread) {}

    @Override
    public Integer call() throws Exception {
        List<Case> cases = only == null ? List.of(new Case(2000, 50_000, 3000, 0.8), new Case(500, 50_000, 200, 0.8),
                new Case(2000, 50_000, 3000, 0.0)) : only.stream().map(SimBenchCommand::parseCase).toList();
        System.out.printf(Locale.ROOT, "transport %s, load average %.2f at start%n", bench.transport,
                java.lang.management.ManagementFactory.getOperatingSystemMXBean().getSystemLoadAverage());
        System.out.println("| streams | target tok/s | step ms | output | spread | emitted tok/s | received tok/s | conc mean | req/s"
                + " | emission lag p50 / p99 / max ms | client itl p50 / p99 ms | failures | GC count / ms | alloc B/token | CPU us/token total ("
                + String.join(", ", CpuSample.GROUPS) + ") | load avg at end |");
        System.out.println("|---|---|---|---|---|---|---|---|---|---|---|---|---|---|---|---|");
        for (Case c : cases) {
            System.out.println(run(c));
        }
        return 0;
    }

    private String run(Case c) throws InterruptedException {
        long stepNanos = 1_000_000_000L * c.streams() / c.tokensPerS();
        SimConfig config = SimConfig.presetBuilder("fast").maxNumSeqs(c.streams() * 2)
                .maxNumBatchedTokens(Math.max(2048, c.streams() * 4)).kvCapacityTokens(c.streams() * 4 * 3200)
                .maxModelLen(8192).stepOverheadNanos(stepNanos).prefillNanosPerToken(0).decodeNanosPerSeq(0)
                .attentionNanosPerContextToken(0).jitter(0)
                .emitNanosPerSeq(Math.round(stepNanos * c.spread() / c.streams())).build();
        System.err.printf(Locale.ROOT, "bench-sim: %d streams, %d tok/s target%n", c.streams(), c.tokensPerS());
        try (Simulator sim = Simulator.start(config)) {
            Duration warmup = Duration.ofSeconds(bench.warmupSeconds);
            int seconds = bench.seconds;
            Window[] w = new Window[2];
            java.util.concurrent.CountDownLatch stepStarted = new java.util.concurrent.CountDownLatch(1);
            java.util.concurrent.atomic.AtomicLong stepEndedNanos = new java.util.concurrent.atomic.AtomicLong(Long.MAX_VALUE);
            Thread sampler = Thread.ofVirtual().start(() -> {
                try {
                    // timed from the step's real start (the client warm-up before it takes a variable time), and
                    // ended half a second before the step's end: when the step ends its streams are cancelled and
                    // the client's selector thread may end, and its CPU would then be lost from the per-thread split
                    stepStarted.await();
                    Thread.sleep(warmup);
                    sim.resetEmissionLag();
                    w[0] = Window.take(sim);
                    Thread.sleep(Duration.ofSeconds(seconds).minusMillis(500));
                    w[1] = Window.take(sim);
                } catch (InterruptedException e) {
                    Thread.currentThread().interrupt();
                }
            });
            TargetConfig target = Kneepoint.targetBuilder().baseUrl(sim.url()).model(sim.config().modelName())
                    .transport(bench.transport).build();
            RunResult r = Kneepoint.ladder(target, c.streams()).inputTokens(8)
                    .outputTokens(c.outputTokens()).warmup(warmup).stepDuration(Duration.ofSeconds(seconds))
                    .drainTimeout(Duration.ZERO).outputDir(null).name("bench-sim")
                    .progress(new LoadProgress() {
                        @Override
                        public void stepStarting(StepInfo step, int stepCount) {
                            stepStarted.countDown();
                        }

                        @Override
                        public void stepEnded(ExecutedStep step, GateDecision decision) {
                            stepEndedNanos.set(System.nanoTime());
                        }
                    }).run();
            stepStarted.countDown(); // a run that failed before its step must not leave the sampler waiting
            sampler.join();
            if (w[0] == null || w[1] == null) {
                throw new IllegalStateException("bench-sim: the measured window was not taken (the step did not run"
                        + " its " + seconds + " s)");
            }
            if (w[1].nanos() > stepEndedNanos.get()) {
                System.err.println("bench-sim: warning: the machine delayed the window's end past the step's end;"
                        + " the per-thread CPU split may have lost the client's selector thread (see gc+jit)");
            }
            SimStats st = w[1].stats();
            long emittedTokens = st.tokensEmitted() - w[0].stats().tokensEmitted();
            double emittedPerS = emittedTokens / ((w[1].nanos() - w[0].nanos()) / 1e9);
            StepResult s = r.steps().get(0);
            System.err.printf(Locale.ROOT, "bench-sim: window %.1f s, ok %d, failed %d, cancelled %d, warm-up %d%n",
                    s.windowS(), s.counts().requestsOk(), s.counts().requestsFailed(), s.counts().cancelled(),
                    s.counts().warmupRequests());
            // per token the simulator wrote over the same span (it counts every token, also those of streams
            // that the step's end cancels, whose records a starved machine may lose)
            String cpuPerToken = w[1].cpu().perToken(w[0].cpu(), emittedTokens);
            return String.format(Locale.ROOT,
                    "| %d | %d | %.0f | %d | %.0f%% | %.0f | %.0f | %.0f | %.1f | %.3f / %.2f / %.1f | %.1f / %.1f | %d | %d / %d | %.0f | %s | %.2f |",
                    c.streams(), c.tokensPerS(), stepNanos / 1e6, c.outputTokens(), c.spread() * 100,
                    emittedPerS, s.rates().outputTokensPerS(), s.rates().concurrencyMean(), s.rates().requestsPerS(),
                    ms(st.emissionLagP50()), ms(st.emissionLagP99()), ms(st.emissionLagMax()), s.latency().itl().p50(),
                    s.latency().itl().p99(), s.counts().requestsFailed(),
                    w[1].gcCount() - w[0].gcCount(), w[1].gcMillis() - w[0].gcMillis(),
                    (w[1].allocated() - w[0].allocated()) / (double) Math.max(1, emittedTokens), cpuPerToken,
                    java.lang.management.ManagementFactory.getOperatingSystemMXBean().getSystemLoadAverage());
        }
    }

    /**
     * What the figures of one case are computed from, at the start and at the end of its measured window: the
     * simulator's stats (emission lag since its reset, tokens written), CPU per thread group, garbage
     * collections and their accumulated time over all collectors (for G1's young and mixed collections,
     * stop-the-world, the pause time that stalls every thread, the engine's included), and the bytes
     * allocated by the live platform threads (the client's selector and the engine among them).
     */
    private record Window(long nanos, SimStats stats, CpuSample cpu, long gcCount, long gcMillis, long allocated) {
        static Window take(Simulator sim) {
            long count = 0;
            long ms = 0;
            for (var b : java.lang.management.ManagementFactory.getGarbageCollectorMXBeans()) {
                count += Math.max(0, b.getCollectionCount());
                ms += Math.max(0, b.getCollectionTime());
            }
            long allocated = ((com.sun.management.ThreadMXBean) java.lang.management.ManagementFactory.getThreadMXBean())
                    .getTotalThreadAllocatedBytes();
            return new Window(System.nanoTime(), sim.stats(), CpuSample.take(), count, ms, allocated);
        }
    }

    private static Case parseCase(String text) {
        String[] p = text.split(":");
        if (p.length != 4) {
            throw new IllegalArgumentException("--case needs STREAMS:TOKENS_PER_S:OUTPUT:SPREAD, e.g. 2000:50000:3000:0.8; got '"
                    + text + "'");
        }
        return new Case(Integer.parseInt(p[0]), Integer.parseInt(p[1]), Integer.parseInt(p[2]), Double.parseDouble(p[3]));
    }

    private static double ms(Duration d) {
        return d.toNanos() / 1e6;
    }
}
