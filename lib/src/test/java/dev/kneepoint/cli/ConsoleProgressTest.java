package dev.kneepoint.cli;

import static org.assertj.core.api.Assertions.assertThat;

import dev.kneepoint.metrics.StepInfo;
import dev.kneepoint.metrics.StepResult;
import dev.kneepoint.metrics.StepWindow;
import java.io.ByteArrayOutputStream;
import java.io.PrintStream;
import java.nio.charset.StandardCharsets;
import org.junit.jupiter.api.Test;

/** The CLI's step lines say how long the step takes, how long the run has left and how every request ended. */
class ConsoleProgressTest {
    static StepInfo step(int index, long warmupS, long durationS) {
        return new StepInfo(index, "c=" + (1 << index), StepInfo.CLOSED, 1 << index, Double.NaN, "", -1, "",
                warmupS * 1_000_000_000L, durationS < 0 ? -1 : durationS * 1_000_000_000L, durationS < 0 ? 100 : -1);
    }

    @Test
    void eachStepLineTellsTheTimeLeftInTheRun() {
        ByteArrayOutputStream buf = new ByteArrayOutputStream();
        ConsoleProgress p = new ConsoleProgress(new PrintStream(buf, true, StandardCharsets.UTF_8));
        p.stepStarting(step(1, 2, 10), 6);   // steps 2..6 of 12 s each
        p.stepStarting(step(5, 2, 10), 6);
        p.stepStarting(step(0, 0, 30), 9);   // 9 steps of 30 s: 4.5 min, rounded
        p.stepStarting(step(2, 0, -1), 3);   // bounded by a request count: no estimate
        assertThat(buf.toString(StandardCharsets.UTF_8).lines()).containsExactly(
                "[2/6] step c=2 (closed loop, ~12 s; about 60 s left in the run)",
                "[6/6] step c=32 (closed loop, ~12 s; about 12 s left in the run)",
                "[1/9] step c=1 (closed loop, ~30 s; about 5 min left in the run)",
                "[3/3] step c=4 (closed loop, ~0 s)");
    }

    @Test
    void aSweepThatPlansAsItGoesGivesItsBoundAndABoundOnTheTimeLeft() {
        ByteArrayOutputStream buf = new ByteArrayOutputStream();
        ConsoleProgress p = new ConsoleProgress(new PrintStream(buf, true, StandardCharsets.UTF_8), null);
        p.plansAtMost(12);
        p.stepStarting(step(0, 1, 2), 1);   // the search's first probe: one step planned so far, at most 12
        p.stepStarting(step(3, 1, 2), 4);
        assertThat(buf.toString(StandardCharsets.UTF_8).lines()).containsExactly(
                "[1/at most 12] step c=1 (closed loop, ~3 s; at most about 36 s left in the run)",
                "[4/at most 12] step c=8 (closed loop, ~3 s; at most about 27 s left in the run)");
    }

    @Test
    void eachEndedStepCountsEveryOutcomeClassTheNeutralCancelledOnesToo() {
        java.util.Map<String, Long> failures = new java.util.LinkedHashMap<>();
        failures.put("UNFINISHED", 2L);
        failures.put("TIMEOUT(idle)", 1L);
        StepResult result = StepResult.builder().info(step(3, 2, 10))
                .window(new StepWindow(0, 1_000_000_000L, 3_000_000_000L, true))
                .requestsOk(10).requestsFailed(3).cancelled(25).warmupRequests(4).failuresByClass(failures).build();
        ByteArrayOutputStream buf = new ByteArrayOutputStream();
        new ConsoleProgress(new PrintStream(buf, true, StandardCharsets.UTF_8)).stepMeasured(result);
        assertThat(buf.toString(StandardCharsets.UTF_8).lines()).containsExactly(
                "        ok 10 fail 3 (TIMEOUT(idle) 1, UNFINISHED 2) cancelled 25, warm-up 4"); // classes in label order
        StepResult quiet = StepResult.builder().info(step(0, 0, 1))
                .window(new StepWindow(0, 0, 1_000_000_000L, true)).requestsOk(5).build();
        assertThat(ConsoleProgress.outcomes(quiet)).isEqualTo("ok 5 fail 0 cancelled 0");
    }
}
