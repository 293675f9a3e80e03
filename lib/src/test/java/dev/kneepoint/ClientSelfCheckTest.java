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
            r = Kneepoint.rateLadder(target, 20).arrival("constant").inputTokens(16).outputTokens(16)
                    .stepDuration(Duration.ofSeconds(2)).warmup(Duration.ZERO).outputDir(runs).name("starved").run();
        } finally {
            for (Thread t : starvers) {
                t.join();
            }
        }
        StepResult s = r.steps().get(0);
        ClientCheck c = s.clientCheck();
        System.out.println("STARVED " + c + " lag " + s.scheduleLag() + " ok " + s.requestsOk());
        assertThat(c.health().measured()).isTrue();
        assertThat(s.clientBound()).isTrue();
    }

    @Test
    void aCalmStepIsNotFlaggedUnderThresholdsThatAllowForASharedMachine() {
        ClientThresholds shared = ClientCheck.thresholds().build();
        RunResult r = Kneepoint.rateLadder(target, 5).arrival("constant").inputTokens(16).outputTokens(16)
                .stepDuration(Duration.ofMillis(1500)).warmup(Duration.ofMillis(300)).outputDir(null)
                .clientCheck(shared).run();
        StepResult s = r.steps().get(0);
        ClientCheck c = s.clientCheck();
        System.out.println("CALM " + c + " lag " + s.scheduleLag() + " ok " + s.requestsOk() + " samples " + c.health().probeSamples() + " span " + c.health().spanNanos());
    }
}
