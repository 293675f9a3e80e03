package dev.kneepoint.kernel;

import dev.kneepoint.metrics.StepProgress;
import java.util.Optional;
import java.util.function.Supplier;

/**
 * What notebook cells call to talk to the notebook (statically imported by the startup script):
 * show a value now, update a shown value in place, and show a live progress display.
 *
 * <pre>{@code
 * var handle = Kneepoint.sweep(target).start();
 * live(handle::progress);          // updated in place until the cell ends (or close() it)
 * var result = handle.await();
 * }</pre>
 */
public final class Notebook {

    /** The kernel side; set once the kernel runs. */
    interface Host {
        String display(Object value);

        void updateDisplay(String displayId, Object value);

        LiveProgress live(Supplier<Optional<StepProgress>> progress);
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
        return host().live(progress);
    }
}
