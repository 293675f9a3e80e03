package dev.kneepoint.cli;

import java.io.PrintStream;
import java.util.Locale;
import java.util.concurrent.Executors;
import java.util.concurrent.ScheduledExecutorService;
import java.util.concurrent.ScheduledFuture;
import java.util.concurrent.TimeUnit;
import java.util.function.LongSupplier;

/**
 * The running step's progress bar on a terminal, redrawn in place a few times a second:
 * {@code c=16 #2 [==========>         ] 52%  4 s left in the step, about 1.2 min in the run}. {@link ConsoleProgress}
 * draws it only when the output is a terminal (else its plain lines are all there is) and clears it before each of
 * its lines, so the bar never mixes into the log.
 */
final class TerminalBar {
    /** Redraws per second. */
    static final int HZ = 4;
    private static final int BAR = 24;

    private final PrintStream out;
    private final LongSupplier nanoClock;
    private final int width;
    /** One daemon thread redraws every bar of the process (a serve-sweep makes one bar per configuration). */
    private static final ScheduledExecutorService TICKER = Executors.newSingleThreadScheduledExecutor(r -> {
        Thread t = new Thread(r, "kneepoint-progress-bar");
        t.setDaemon(true);
        return t;
    });
    private ScheduledFuture<?> drawing;
    private boolean shown;

    TerminalBar(PrintStream out, LongSupplier nanoClock, int width) {
        this.out = out;
        this.nanoClock = nanoClock;
        this.width = width;
    }

    /**
     * Whether the process runs on a terminal worth drawing on: a console that is a terminal (from JDK 22 on
     * {@code System.console()} exists with redirected streams too, so its {@code isTerminal()} decides), and not a
     * dumb one.
     */
    static boolean available() {
        java.io.Console c = System.console();
        if (c == null || "dumb".equals(System.getenv("TERM"))) {
            return false;
        }
        try {
            return (Boolean) java.io.Console.class.getMethod("isTerminal").invoke(c);
        } catch (ReflectiveOperationException e) {
            return true; // JDK 21: a console is a terminal
        }
    }

    /** The terminal's width from {@code COLUMNS}, else 100. */
    static int columns() {
        try {
            return Math.max(40, Integer.parseInt(System.getenv().getOrDefault("COLUMNS", "100")));
        } catch (NumberFormatException e) {
            return 100;
        }
    }

    /**
     * Starts drawing the bar of step {@code label}, planned to last {@code plannedNanos} (≤ 0: unknown, no bar, the
     * time spent only), with {@code afterS} seconds of planned steps after it (NaN: unknown).
     */
    synchronized void start(String label, long plannedNanos, double afterS) {
        stopDrawing();
        long t0 = nanoClock.getAsLong();
        drawing = TICKER.scheduleAtFixedRate(() -> draw(render(label, t0, plannedNanos, afterS)), 0, 1000 / HZ,
                TimeUnit.MILLISECONDS);
    }

    /** Stops drawing and erases the bar, so that the next line starts on a clean one. */
    synchronized void clear() {
        stopDrawing();
        if (shown) {
            out.print("\r" + " ".repeat(width - 1) + "\r");
            out.flush();
            shown = false;
        }
    }

    private void stopDrawing() {
        if (drawing != null) {
            drawing.cancel(false);
            drawing = null;
        }
    }

    private synchronized void draw(String line) {
        if (drawing == null) {
            return; // cleared between the tick's start and here
        }
        out.print("\r" + line);
        out.flush();
        shown = true;
    }

    private String render(String label, long t0, long plannedNanos, double afterS) {
        double elapsed = (nanoClock.getAsLong() - t0) / 1e9;
        return line(label, elapsed, plannedNanos / 1e9, afterS, width);
    }

    /**
     * One frame: the label, a bar of the step's planned time (past it the bar stays full: the step drains its
     * requests), the seconds left in the step and the run; cut to {@code width - 1} characters.
     */
    static String line(String label, double elapsedS, double plannedS, double afterS, int width) {
        StringBuilder b = new StringBuilder(label).append(' ');
        if (plannedS > 0) {
            double f = Math.min(1, elapsedS / plannedS);
            int full = (int) Math.round(f * BAR);
            b.append('[').append("=".repeat(full)).append(full < BAR ? ">" : "").append(" ".repeat(Math.max(0, BAR - full - 1)))
                    .append("] ").append(String.format(Locale.ROOT, "%3.0f%%", 100 * f));
            double left = Math.max(0, plannedS - elapsedS);
            b.append(left > 0 ? String.format(Locale.ROOT, "  %s left in the step", time(left))
                    : "  draining in-flight requests");
            if (!Double.isNaN(afterS)) {
                b.append(", about ").append(time(left + afterS)).append(" in the run");
            }
        } else {
            b.append(String.format(Locale.ROOT, "%s so far", time(elapsedS)));
        }
        String s = b.toString();
        return s.length() < width ? s : s.substring(0, width - 1);
    }

    private static String time(double s) {
        return s < 90 ? String.format(Locale.ROOT, "%.0f s", s) : String.format(Locale.ROOT, "%.1f min", s / 60);
    }
}
