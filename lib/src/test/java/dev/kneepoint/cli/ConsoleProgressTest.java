package dev.kneepoint.cli;

import static org.assertj.core.api.Assertions.assertThat;

import dev.kneepoint.metrics.StepInfo;
import java.io.ByteArrayOutputStream;
import java.io.PrintStream;
import java.nio.charset.StandardCharsets;
import org.junit.jupiter.api.Test;

/** The CLI's step lines say how long the step takes and how long the run has left. */
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
}
