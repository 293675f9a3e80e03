package dev.kneepoint.cli;

import dev.kneepoint.load.ExecutedStep;
import dev.kneepoint.load.GateDecision;
import dev.kneepoint.load.LoadResult;
import dev.kneepoint.metrics.ClientHealth;
import dev.kneepoint.metrics.StepInfo;
import dev.kneepoint.metrics.StepResult;
import dev.kneepoint.sweep.SweepListener;
import dev.kneepoint.sweep.SweepProgress;
import java.io.PrintStream;
import java.time.Duration;
import java.util.Locale;

/**
 * Prints one line per step start and end on a stream (stderr), so the summary on stdout stays clean; each ended step's
 * line counts every outcome class, the neutral cancelled ones too ({@link #outcomes}). On a terminal the running
 * step also has a progress bar with the time left in it and in the run ({@link TerminalBar}), erased before each line.
 */
final class ConsoleProgress implements SweepListener {
    private final PrintStream out;
    /** The bar on a terminal, else null. */
    private final TerminalBar bar;
    /** The most steps a sweep that plans as it goes runs ({@link #plansAtMost}); 0 for a ladder given in advance. */
    private volatile int atMost;

    /** Plain lines, plus the bar when stderr is a terminal. */
    ConsoleProgress(PrintStream out) {
        this(out, TerminalBar.available() ? new TerminalBar(out, System::nanoTime, TerminalBar.columns()) : null);
    }

    ConsoleProgress(PrintStream out, TerminalBar bar) {
        this.out = out;
        this.bar = bar;
    }

    /** Erases the bar before a line is printed. */
    private void line() {
        if (bar != null) {
            bar.clear();
        }
    }

    @Override
    public void plansAtMost(int steps) {
        atMost = steps;
    }

    @Override
    public void stepStarting(StepInfo step, int stepCount) {
        double seconds = (step.warmupNanos() + Math.max(0, step.durationNanos())) / 1e9;
        // The steps of a sweep share their timing, so this one's length estimates every one left; a sweep that
        // plans as it goes has at most its bound left, so its estimate is a bound too.
        int steps = SweepProgress.bound(stepCount, atMost);
        String about = atMost > 0 ? "at most about" : "about";
        double left = step.durationNanos() < 0 ? Double.NaN : seconds * (steps - step.index());
        line();
        out.printf(Locale.ROOT, "[%d/%s%d] step %s (%s loop, ~%.0f s%s)%n", step.index() + 1, atMost > 0 ? "at most " : "",
                steps, step.label(), step.mode(), seconds, Double.isNaN(left) ? ""
                        : left < 90 ? String.format(Locale.ROOT, "; %s %.0f s left in the run", about, left)
                        : String.format(Locale.ROOT, "; %s %.0f min left in the run", about, left / 60));
        if (bar != null) {
            bar.start(step.label(), step.durationNanos() < 0 ? -1 : step.warmupNanos() + step.durationNanos(),
                    Double.isNaN(left) ? Double.NaN : left - seconds);
        }
    }

    @Override
    public void stepEnded(ExecutedStep step, GateDecision decision) {
        line();
        ClientHealth c = step.client();
        if (c.measured()) {
            out.printf(Locale.ROOT, "        client: cpu %.0f%% of %d cores, gc pauses %.1f%%, probe delay p99 %.1f ms%n",
                    100 * c.cpuFraction(), c.processors(), 100 * c.gcPauseFraction(), c.probeP99Ms());
        }
        if (decision instanceof GateDecision.Stop stop) {
            out.println("        ladder stops: " + stop.reason());
        } else if (decision instanceof GateDecision.Extend extend) {
            out.println("        ladder adds " + extend.more().size() + " steps"
                    + (extend.note().isEmpty() ? "" : ": " + extend.note()));
        }
    }

    @Override
    public void stepMeasured(StepResult result) {
        line();
        out.println("        " + outcomes(result));
    }

    /**
     * {@code ok 10 fail 3 (UNFINISHED 2, TIMEOUT(idle) 1) cancelled 0}: every measured request in one of the three, the
     * failures by class, warm-up requests after them when there were some.
     */
    static String outcomes(StepResult result) {
        StepResult.Counts c = result.counts();
        StringBuilder sb = new StringBuilder("ok ").append(c.requestsOk()).append(" fail ").append(c.requestsFailed());
        if (!c.failuresByClass().isEmpty()) {
            StringBuilder classes = new StringBuilder();
            c.failuresByClass().forEach((label, n) -> classes.append(classes.isEmpty() ? "" : ", ").append(label)
                    .append(' ').append(n));
            sb.append(" (").append(classes).append(')');
        }
        sb.append(" cancelled ").append(c.cancelled());
        if (c.warmupRequests() > 0) {
            sb.append(", warm-up ").append(c.warmupRequests());
        }
        return sb.toString();
    }

    @Override
    public void pausing(Duration pause) {
        line();
        out.printf(Locale.ROOT, "        pause %.1f s%n", pause.toNanos() / 1e9);
    }

    @Override
    public void runEnded(LoadResult result) {
        line();
        out.println("run ended: " + result.reason());
    }
}
