package dev.kneepoint.cli;

import static org.assertj.core.api.Assertions.assertThat;

import dev.kneepoint.sim.SimConfig;
import dev.kneepoint.sim.Simulator;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.stream.Stream;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.api.io.TempDir;

/** {@code check} on a real run directory: a short two-step sweep against the embedded simulator. */
@Timeout(60)
class CheckCommandTest {
    @TempDir
    static Path out;

    static Path run;

    @BeforeAll
    static void runATinySweep() throws Exception {
        try (Simulator sim = Simulator.start(SimConfig.preset("fast"))) {
            Captured.run(() -> Main.execute("run", "--url", sim.url(), "--model", "sim-fast", "--concurrency", "1,2",
                    "--input-tokens", "32", "--output-tokens", "8", "--duration", "500ms", "--warmup", "100ms",
                    "--no-client-warmup", "--out", out.toString(), "--name", "check"), System.out, 0);
        }
        try (Stream<Path> dirs = Files.list(out)) {
            run = dirs.filter(d -> d.getFileName().toString().endsWith("-check")).findFirst().orElseThrow();
        }
    }

    private static String check(int expectedCode, String... args) throws Exception {
        String[] all = new String[args.length + 2];
        all[0] = "check";
        all[1] = run.toString();
        System.arraycopy(args, 0, all, 2, args.length);
        return Captured.run(() -> Main.execute(all), expectedCode == ExitCodes.BAD_INPUT ? System.err : System.out,
                expectedCode);
    }

    @Test
    void looseRequirementsPassWithEachOnesWorstStep() throws Exception {
        String printed = check(ExitCodes.MEASURED, "--require", "ttft_p99_ms <= 60s", "--require", "failure_rate<1%",
                "--require", "requests_ok>=1");
        assertThat(printed).containsPattern("ok   ttft_p99_ms <= 60000: worst [0-9.]+ \\(c=[12]\\) over 2 steps")
                .contains("ok   failure_rate < 0.01: worst 0 (c=").contains("ok   requests_ok >= 1: worst ")
                .contains("all 6 checks passed").doesNotContain("FAIL");
    }

    @Test
    void anImpossibleRequirementFailsOnEveryStepWithOneLineEach() throws Exception {
        String printed = check(ExitCodes.GATE_FAILED, "--require", "ttft_p99_ms<=0.001", "--require",
                "failure_rate<=0.5");
        assertThat(printed).containsPattern("FAIL c=1: ttft_p99_ms = [0-9.]+, required <= 0.001 \\(ttft_p99_ms<=0.001\\)")
                .containsPattern("FAIL c=2: ttft_p99_ms = [0-9.]+, required <= 0.001")
                .doesNotContain("failure_rate =")
                .endsWith("2 of 4 checks failed" + System.lineSeparator());
    }

    @Test
    void theStepFilterChecksOnlyTheChosenSteps() throws Exception {
        String printed = check(ExitCodes.GATE_FAILED, "--require", "ttft_p99_ms<=0.001", "--step", "c=2");
        assertThat(printed).contains("FAIL c=2: ttft_p99_ms").doesNotContain("c=1").contains("1 of 1 checks failed");
        assertThat(check(ExitCodes.MEASURED, "--require", "concurrency==2", "--step", "c=2"))
                .contains("ok   concurrency == 2: worst 2 (c=2) over 1 step").contains("all 1 checks passed");
        assertThat(check(ExitCodes.BAD_INPUT, "--require", "ttft_p99_ms<=500", "--step", "c=8"))
                .contains("kneepoint: no step c=8 in the run; its steps are c=1, c=2");
    }

    @Test
    void badExpressionsAndColumnsAreBadInputListedAllAtOnce() throws Exception {
        String err = check(ExitCodes.BAD_INPUT, "--require", "ttft_p99_ms=<500", "--require", "failure_rate<=5");
        assertThat(err).contains("kneepoint: requirement 'ttft_p99_ms=<500': '=<' is not an operator: write <=;"
                        + " expected <column><op><number>[unit]")
                .contains("e.g. ttft_p99_ms<=500ms")
                .contains("kneepoint: requirement 'failure_rate<=5': failure_rate is a fraction from 0 to 1");
        // Every problem at once: a bad expression, an unknown column and an unknown step label.
        assertThat(check(ExitCodes.BAD_INPUT, "--require", "ttft_p99<=500", "--require", "e2e_p50_ms<<1",
                "--step", "rate=10"))
                .contains("kneepoint: requirement 'ttft_p99<=500': unknown column 'ttft_p99' in the steps table;"
                        + " close: ttft_p99_ms")
                .contains("kneepoint: requirement 'e2e_p50_ms<<1': more than one operator")
                .contains("kneepoint: no step rate=10 in the run; its steps are c=1, c=2");
    }

    @Test
    void aMissingRunDirectoryOrNoRequirementIsBadInput() throws Exception {
        Path missing = out.resolve("no-such-run");
        assertThat(Captured.run(() -> Main.execute("check", missing.toString(), "--require", "ttft_p99_ms<=500"),
                System.err, ExitCodes.BAD_INPUT)).contains("kneepoint: RUN_DIR " + missing + " is not a directory");
        assertThat(Captured.run(() -> Main.execute("check", out.toString(), "--require", "ttft_p99_ms<=500"),
                System.err, ExitCodes.BAD_INPUT)).contains("kneepoint: Cannot load run " + out);
        assertThat(Captured.run(() -> Main.execute("check", missing.toString(), "--require", "x=1"),
                System.err, ExitCodes.BAD_INPUT)).contains("'=' is not an operator").contains("is not a directory");
        assertThat(check(ExitCodes.BAD_INPUT)).contains("Missing required option: '--require=EXPR'");
    }
}
