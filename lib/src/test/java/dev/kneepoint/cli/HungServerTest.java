package dev.kneepoint.cli;

import static org.assertj.core.api.Assertions.assertThat;

import dev.kneepoint.Kneepoint;
import dev.kneepoint.metrics.RunResult;
import dev.kneepoint.metrics.StepResult;
import dev.kneepoint.sim.FaultConfig;
import dev.kneepoint.sim.FaultKind;
import dev.kneepoint.sim.SimConfig;
import dev.kneepoint.sim.Simulator;
import java.io.ByteArrayOutputStream;
import java.io.PrintStream;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.Map;
import java.util.stream.Stream;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.api.io.TempDir;

/**
 * A hung server (every stream stalls mid-way and sends nothing more) is never a silent success: the stall inside a
 * step ends as {@code TIMEOUT(idle)} under a short idle timeout, or, when the drain ends first, as
 * {@code UNFINISHED}; either way {@code summary.json}, the summary table and the console count failures, not zero.
 */
@Timeout(60)
class HungServerTest {
    @TempDir
    Path out;

    /** Every stream stalls after half its tokens for far longer than any step here lasts. */
    private static Simulator hungServer() {
        FaultConfig faults = FaultConfig.builder().probability(FaultKind.STREAM_STALL, 1.0)
                .faultDuration(Duration.ofSeconds(40)).build();
        return Simulator.start(SimConfig.presetBuilder("fast").seed(3).faults(faults).build());
    }

    @Test
    void aStallInsideAStepIsAnIdleTimeoutOnTheConsoleTheTableAndTheSummary() throws Exception {
        ByteArrayOutputStream stdout = new ByteArrayOutputStream();
        ByteArrayOutputStream stderr = new ByteArrayOutputStream();
        int code;
        try (Simulator sim = hungServer()) {
            PrintStream oldOut = System.out;
            PrintStream oldErr = System.err;
            try {
                System.setOut(new PrintStream(stdout, true, StandardCharsets.UTF_8));
                System.setErr(new PrintStream(stderr, true, StandardCharsets.UTF_8));
                code = Main.execute("run", "--url", sim.url(), "--model", "sim-fast", "--concurrency", "2",
                        "--input-tokens", "16", "--output-tokens", "8", "--duration", "400ms", "--warmup", "0s",
                        "--timeout-idle", "300ms", "--no-client-warmup", "--out", out.toString(), "--name", "hung");
            } finally {
                System.setOut(oldOut);
                System.setErr(oldErr);
            }
        }
        String console = stderr.toString(StandardCharsets.UTF_8);
        String report = stdout.toString(StandardCharsets.UTF_8);
        // The preflight passed (tokens came back before the stall); the step then had no OK request: exit 4.
        assertThat(code).as(console).isEqualTo(ExitCodes.NO_SUCCESS);
        // Each of the 2 users sends once (its request stalls past the 400 ms window) or twice: >= 2 idle timeouts.
        assertThat(console).containsPattern("ok 0 fail (\\d+) \\(TIMEOUT\\(idle\\) \\1\\) cancelled 0");
        assertThat(report).contains("failures in c=2: {TIMEOUT(idle)=");
        Path dir;
        try (Stream<Path> dirs = Files.list(out)) {
            dir = dirs.filter(Files::isDirectory).findFirst().orElseThrow();
        }
        StepResult step = Kneepoint.load(dir).step("c=2");
        assertThat(step.counts().requestsFailed()).isGreaterThanOrEqualTo(2);
        assertThat(step.counts().requestsOk()).isZero();
        assertThat(step.counts().failuresByClass()).containsOnlyKeys("TIMEOUT(idle)");
    }

    @Test
    void aStallTheDrainCutsIsUnfinishedAFailureThatStabilitySees() throws Exception {
        ByteArrayOutputStream console = new ByteArrayOutputStream();
        RunResult run;
        try (Simulator sim = hungServer()) {
            // The default timeouts (idle 20 s) outlast this sweep's 300 ms drain: the drain ends the stalled streams.
            run = Kneepoint.sweep(Kneepoint.target(sim)).concurrency(2).inputTokens(16).outputTokens(8)
                    .stepDuration(Duration.ofMillis(300)).warmup(Duration.ZERO).drainTimeout(Duration.ofMillis(300))
                    .clientWarmup(false).outputDir(out).name("drained")
                    .progress(new ConsoleProgress(new PrintStream(console, true, StandardCharsets.UTF_8))).run();
        }
        // One request per user, each stalled until the drain gave up on it.
        assertThat(console.toString(StandardCharsets.UTF_8)).contains("ok 0 fail 2 (UNFINISHED 2) cancelled 0");
        StepResult step = run.step("c=2");
        assertThat(step.counts().failuresByClass()).isEqualTo(Map.of("UNFINISHED", 2L));
        assertThat(step.rates().failureRate()).isEqualTo(1.0);
        // Read back from the run directory: requests.jsonl and summary.json say the same.
        StepResult loaded = Kneepoint.load(run.directory().orElseThrow()).step("c=2");
        assertThat(loaded.counts().requestsFailed()).isEqualTo(2);
        assertThat(loaded.counts().failuresByClass()).isEqualTo(Map.of("UNFINISHED", 2L));
        assertThat(Files.readString(run.directory().orElseThrow().resolve("requests.jsonl")))
                .contains("\"outcome\":\"UNFINISHED\"");
        // The report's readings see the failures: STABILITY attributes them instead of "No step fails".
        String report = dev.kneepoint.report.RunReport.write(run.directory().orElseThrow());
        assertThat(report).doesNotContain("No step fails").contains("failing steps: c=2 100.0% {UNFINISHED=2}");
    }
}
