package dev.kneepoint.cli;

import static org.assertj.core.api.Assertions.assertThat;

import java.io.ByteArrayOutputStream;
import java.io.PrintStream;
import java.nio.charset.StandardCharsets;
import java.util.concurrent.atomic.AtomicLong;
import org.junit.jupiter.api.Test;

/** The terminal's progress bar: what a frame says, and that it is drawn in place and erased before a line. */
class TerminalBarTest {
    @Test
    void aFrameShowsTheShareOfTheStepAndTheTimeLeft() {
        assertThat(TerminalBar.line("c=16 #2", 6, 12, 60, 120))
                .isEqualTo("c=16 #2 [============>           ]  50%  6 s left in the step, about 66 s in the run");
        // Past its planned time the step drains: the bar stays full.
        assertThat(TerminalBar.line("c=1", 14, 12, Double.NaN, 120))
                .isEqualTo("c=1 [========================] 100%  draining in-flight requests");
        // A step bounded by a count has no planned time: only the time spent.
        assertThat(TerminalBar.line("rate=4", 95, -1, Double.NaN, 120)).isEqualTo("rate=4 1.6 min so far");
        // Never wider than the terminal (one column short, so the cursor does not wrap).
        assertThat(TerminalBar.line("c=16 #2", 6, 12, 60, 40)).hasSize(39);
    }

    @Test
    void theBarIsDrawnInPlaceAndErasedBeforeTheNextLine() throws Exception {
        ByteArrayOutputStream bytes = new ByteArrayOutputStream();
        PrintStream out = new PrintStream(bytes, true, StandardCharsets.UTF_8);
        AtomicLong now = new AtomicLong();
        TerminalBar bar = new TerminalBar(out, now::get, 80);
        bar.start("c=4", 10_000_000_000L, 0);
        now.set(5_000_000_000L);
        long deadline = System.nanoTime() + 5_000_000_000L;
        while (!bytes.toString(StandardCharsets.UTF_8).contains("50%") && System.nanoTime() < deadline) {
            Thread.sleep(20); // the ticker draws 4 times a second
        }
        bar.clear();
        out.println("next line");
        String s = bytes.toString(StandardCharsets.UTF_8);
        assertThat(s).startsWith("\rc=4 [").contains(" 50%  5 s left in the step");
        assertThat(s).endsWith("\r" + " ".repeat(79) + "\rnext line" + System.lineSeparator());
        // Cleared: no frame after the line.
        Thread.sleep(2 * 1000 / TerminalBar.HZ);
        assertThat(bytes.toString(StandardCharsets.UTF_8)).isEqualTo(s);
    }
}
