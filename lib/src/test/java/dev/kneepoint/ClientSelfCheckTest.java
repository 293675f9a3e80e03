package dev.kneepoint;

import static org.assertj.core.api.Assertions.assertThat;

import dev.kneepoint.client.TargetConfig;
import dev.kneepoint.io.RunLoader;
import dev.kneepoint.metrics.ClientCheck;
import dev.kneepoint.metrics.ClientThresholds;
import dev.kneepoint.metrics.RunResult;
import dev.kneepoint.metrics.StepResult;
import dev.kneepoint.sim.Simulator;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.stream.Stream;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * The client self-check end to end against the embedded simulator: a load generator starved in its own JVM is
 * caught (client_bound, with evidence), a calm one is not.
 */
class ClientSelfCheckTest {
    private static Simulator sim;
    private static TargetConfig target;

    @TempDir
    Path runs;

    @BeforeAll
    static void startSimulator() {
        sim = Kneepoint.simulator("fast");
        target = Kneepoint.target(sim);
    }

    @AfterAll
    static void stopSimulator() {
        sim.close();
    }

    /**
     * Starves the JVM for {@code millis}: as many spinning threads as cores + 2 (the CPU), and one thread forcing a
     * full, stop-the-world collection of a ~1.5 M-object live set every 20 ms (the pauses, which stop the
     * scheduler, the probe and the request threads alike). Returns the threads; each ends by itself.
     */
    private static List<Thread> starve(long millis) {
        long until = System.nanoTime() + millis * 1_000_000L;
        List<Thread> threads = new ArrayList<>();
        for (int i = 0; i < Runtime.getRuntime().availableProcessors() + 2; i++) {
            threads.add(Thread.ofPlatform().daemon(true).name("starve-cpu-" + i).start(() -> {
                long x = 0;
                while (System.nanoTime() < until) {
                    x += x * 31 + 7;
                }
                if (x == 42) {
                    Thread.onSpinWait(); // keeps the loop from being optimised away
                }
            }));
        }
        threads.add(Thread.ofPlatform().daemon(true).name("starve-gc").start(() -> {
            Object[] live = new Object[1_500_000];
            for (int i = 0; i < live.length; i++) {
                live[i] = new int[] {i};
            }
            while (System.nanoTime() < until) {
                System.gc();
                try {
                    Thread.sleep(20);
                } catch (InterruptedException e) {
                    return;
                }
            }
            live[0] = null;
        }));
        return threads;
    }

    @Test
    void aStarvedClientIsFlaggedWithEvidenceAndTheRunDirectoryKeepsIt() throws Exception {
        List<Thread> starvers = starve(2_200);
        RunResult r;
        try {
            // No tokenizer calibration: the starvation is timed for the step, and nothing may run before it.
            r = Kneepoint.rateLadder(target, 20).arrival("constant").inputTokens(16).outputTokens(16).calibrate(false)
                    .stepDuration(Duration.ofSeconds(2)).warmup(Duration.ZERO).outputDir(runs).name("starved").run();
        } finally {
            for (Thread t : starvers) {
                t.join();
            }
        }
        StepResult s = r.steps().get(0);
        ClientCheck c = s.clientCheck();
        assertThat(c.health().measured()).isTrue();
        assertThat(s.clientBound()).as("%s", c).isTrue();
        // Forced full collections every 20 ms pause the JVM for a large share of the window (41% on the loaded
        // 2-core development machine): far above 5% wherever a full collection of 1.5 M objects takes >= 1 ms.
        assertThat(c.signal(ClientCheck.GC).crossed()).as("%s", c).isTrue();
        // Each pause (tens of ms) stops the scheduler and the probe alike, so both blow up (530 and 480 ms p99
        // there) past their limits of 5 ms (20 req/s: 5% of 50 ms is below the floor) and 10 ms.
        assertThat(c.signal(ClientCheck.LAG).crossed()).as("%s", c).isTrue();
        assertThat(c.signal(ClientCheck.PROBE).crossed()).as("%s", c).isTrue();
        assertThat(c.evidence()).anyMatch(e -> e.startsWith("gc_pause_pct "));
        // Not asserted: client_cpu_pct. The spinning threads only reach 85% of the cores when the machine is
        // otherwise idle; on the shared development machine the JVM got 17%.

        // The run directory keeps the health (steps.jsonl), so the reloaded run reaches the same verdict.
        Path dir;
        try (Stream<Path> list = Files.list(runs)) {
            dir = list.findFirst().orElseThrow();
        }
        StepResult reloaded = RunLoader.load(dir).result().steps().get(0);
        assertThat(reloaded.clientCheck().health()).isEqualTo(c.health());
        assertThat(reloaded.clientCheck().evidence()).isEqualTo(c.evidence());
        assertThat(Files.readString(dir.resolve("summary.json"))).contains("\"client_bound\" : true");
    }

    /**
     * A calm step (5 req/s) is not flagged. Judged with thresholds that allow for a shared machine: the defaults
     * judge the host too, and on a CI machine loaded by other jobs a calm client does wake late (probe p99 ~100 ms,
     * schedule lag p99 ~60 ms during the JIT's first seconds were seen on the development machine), which is right
     * to report but is not what this test is about. What it checks is that the measurement itself does not make a
     * calm step look starved: the window excludes warm-up and drain, GC counts pauses only, CPU is per core, and
     * the probe records delays, not times; each of those mistakes would cross these limits by orders of magnitude.
     */
    @Test
    void aCalmStepIsNotFlaggedUnderThresholdsThatAllowForASharedMachine() {
        ClientThresholds shared = ClientCheck.thresholds().scheduleLagFloorMs(1_000).probeDelayP99Ms(1_000)
                .cpuFraction(1.0).gcPauseFraction(0.25).build();
        RunResult r = Kneepoint.rateLadder(target, 5).arrival("constant").inputTokens(16).outputTokens(16)
                .stepDuration(Duration.ofMillis(1500)).warmup(Duration.ofMillis(300)).outputDir(null)
                .clientCheck(shared).run();
        StepResult s = r.steps().get(0);
        ClientCheck c = s.clientCheck();
        assertThat(c.limits()).isEqualTo(shared);
        assertThat(s.clientBound()).as("%s", c).isFalse();
        assertThat(c.health().measured()).isTrue();
        // The span is the 1.5 s window, less the probe's first wake-up delay (up to 0.5 s on a loaded machine).
        assertThat(c.health().spanNanos()).isBetween(1_000_000_000L, 1_500_000_000L);
        // One probe sample per period (20 ms), missed wake-ups filled in: at least one per period of the span, and at
        // most one per period of the window (the span is shorter when the first wake-up came late; its fill-ins count).
        long period = c.health().probePeriodNanos();
        assertThat(period).isEqualTo(20_000_000L);
        assertThat(c.health().probeSamples()).isBetween(c.health().spanNanos() / period - 2,
                s.window().lengthNanos() / period + 2);
        assertThat(c.value(ClientCheck.CPU)).isBetween(0.0, 100.0);
    }
}
