package dev.kneepoint.sweep;

import java.util.function.Supplier;

/**
 * Where a blocking {@link Sweep#run()} shows its progress while it runs: nowhere by default; the Jupyter kernel
 * installs a {@link Watcher} that shows a live display in the running cell, so that a sweep started from a cell
 * reports its progress without being wrapped in {@code watch(...)}. A sweep started with {@link Sweep#start()} is
 * not shown here (its handle is, when watched).
 */
public final class SweepWatch {
    /** Shows a running sweep's progress, polled from the supplier, until the display is closed. */
    @FunctionalInterface
    public interface Watcher {
        Display show(Supplier<SweepProgress> progress);
    }

    /** A progress display; {@link #close()} shows the final state and stops updating. */
    @FunctionalInterface
    public interface Display extends AutoCloseable {
        @Override
        void close();
    }

    private static final Display NONE = () -> {};
    private static volatile Watcher watcher;

    private SweepWatch() {}

    /** Installs {@code w} for every later blocking run of this JVM (null removes it). */
    public static void install(Watcher w) {
        watcher = w;
    }

    /** A display of {@code progress} from the installed watcher, or one that shows nothing; never throws. */
    static Display show(Supplier<SweepProgress> progress) {
        Watcher w = watcher;
        if (w == null) {
            return NONE;
        }
        try {
            Display d = w.show(progress);
            return d == null ? NONE : () -> {
                try {
                    d.close();
                } catch (RuntimeException e) {
                    // a display that fails to close must not cost the run its result
                }
            };
        } catch (RuntimeException e) {
            return NONE; // a display that fails to open must not stop the run
        }
    }
}
