package dev.kneepoint.kernel;

import dev.kneepoint.kernel.render.ResultRenderer;
import dev.kneepoint.metrics.RunResult;
import dev.kneepoint.metrics.StepProgress;
import dev.kneepoint.sweep.Sweep;
import dev.kneepoint.sweep.SweepHandle;
import java.util.Optional;
import java.util.function.Supplier;

/**
 * What notebook cells call to talk to the notebook (statically imported by the startup script):
 * show a value now, update a shown value in place, and show a live progress display. A blocking
 * {@code Sweep.run()} in a cell shows its progress by itself (the kernel installs a
 * {@link dev.kneepoint.sweep.SweepWatch} watcher); {@code watch} is for sweeps started with {@code start()}.
 *
 * <pre>{@code
 * var result = watch(Kneepoint.ladder(target, 1, 2, 4, 8));   // live progress until the sweep ends
 * }</pre>
 */
public final class Notebook {

    /** The kernel side; set once the kernel runs. */
    interface Host {
        String display(Object value);

        void updateDisplay(String displayId, Object value);

        LiveProgress live(Supplier<Optional<StepProgress>> progress, Supplier<String> headline);
    }

    private static volatile Host host;

    private Notebook() {}

    static void attach(Host h) {
        host = h;
    }

    private static Host host() {
        Host h = host;
        if (h == null) {
            throw new IllegalStateException("Notebook display works only inside the Kneepoint Jupyter kernel");
        }
        return h;
    }

    /** Renders and shows a value now (tables, charts, results ...); returns its display id for updates. */
    public static String display(Object value) {
        return host().display(value);
    }

    /** Replaces what the display {@code displayId} shows with {@code value}. */
    public static void updateDisplay(String displayId, Object value) {
        host().updateDisplay(displayId, value);
    }

    /**
     * Shows a progress display (step, requests done/failed, tokens/s, p99 so far) polled from
     * {@code progress} twice a second and updated in place until it is closed or the cell ends.
     */
    public static LiveProgress live(Supplier<Optional<StepProgress>> progress) {
        return host().live(progress, () -> "");
    }

    /** A live display of a whole sweep: step N of M and the time left above the running step's snapshot. */
    static LiveProgress live(SweepHandle handle) {
        return host().live(handle::progress, () -> ResultRenderer.headline(handle.sweepProgress()));
    }

    /**
     * Starts the sweep and {@linkplain #watch(SweepHandle) watches} it: one call that shows live progress
     * and returns the result.
     */
    public static RunResult watch(Sweep sweep) {
        return watch(sweep.start());
    }

    /**
     * Shows a live progress display of a running sweep (current step, requests done/failed, output tokens/s,
     * TTFT p99 so far, in flight), updated in place until the sweep ends, and returns its result.
     * Interrupting the cell stops the sweep and returns what it measured: the partial result is kept in the
     * variable it is assigned to (the thread's interrupt flag stays set, as with {@code Sweep.run()}, so the
     * kernel still reports the cell as interrupted).
     */
    public static RunResult watch(SweepHandle handle) {
        try (LiveProgress ignored = live(handle)) {
            try {
                return handle.await();
            } catch (InterruptedException e) {
                handle.close(); // stops the sweep, waits for it and keeps what was measured
                Thread.currentThread().interrupt();
                return handle.result().orElseThrow(() -> new IllegalStateException("the sweep left no result"));
            }
        }
    }
}
