package dev.kneepoint.kernel;

import dev.kneepoint.kernel.render.Html;
import dev.kneepoint.kernel.render.ResultRenderer;
import dev.kneepoint.metrics.StepProgress;
import io.github.spencerpark.jupyter.kernel.display.DisplayData;
import java.util.Locale;
import java.util.Objects;
import java.util.Optional;
import java.util.function.LongSupplier;
import java.util.function.Supplier;

/**
 * A progress display updated in place while a cell runs: one {@code display_data} with a display id, then
 * {@code update_display_data} messages each time the polled snapshot changes. It polls a
 * {@code Supplier<Optional<StepProgress>>} (a sweep handle's {@code progress()}) on its own daemon thread,
 * started by {@link #start()} and stopped by {@link #close()}, which publishes a final "done" state.
 * The kernel closes every display still open when the cell ends, so no thread outlives its cell.
 */
public final class LiveProgress implements AutoCloseable {

    /** Where the display goes: the kernel publishes on IOPub, tests record. */
    public interface Sink {
        /** Shows a new display with this id. */
        void show(String displayId, DisplayData data);

        /** Replaces the content of the display with this id. */
        void update(String displayId, DisplayData data);
    }

    private final Supplier<Optional<StepProgress>> source;
    private final Supplier<String> headline;
    private final Sink sink;
    private final String displayId;
    private final long periodMillis;
    private final LongSupplier nanoTime;
    private final long startNanos;
    private final Object publishLock = new Object();
    private String lastHtml;
    private Optional<StepProgress> lastProgress = Optional.empty();
    private boolean shown;
    private volatile boolean closed;
    private Thread poller;

    /**
     * @param source       the progress to show; empty before the first step starts
     * @param sink         where display messages go
     * @param displayId    the display's id (unique per display)
     * @param periodMillis how often to poll
     * @param nanoTime     clock for the elapsed time shown
     */
    public LiveProgress(Supplier<Optional<StepProgress>> source, Sink sink, String displayId, long periodMillis,
                        LongSupplier nanoTime) {
        this(source, () -> "", sink, displayId, periodMillis, nanoTime);
    }

    /**
     * A display that also shows where the whole sweep is ({@code headline}, e.g. "step 3 of 6 (c=16), about 14 s
     * left"), polled with the step's snapshot.
     */
    public LiveProgress(Supplier<Optional<StepProgress>> source, Supplier<String> headline, Sink sink, String displayId,
                        long periodMillis, LongSupplier nanoTime) {
        this.source = Objects.requireNonNull(source, "source");
        this.headline = Objects.requireNonNull(headline, "headline");
        this.sink = Objects.requireNonNull(sink, "sink");
        this.displayId = Objects.requireNonNull(displayId, "displayId");
        if (periodMillis <= 0) {
            throw new IllegalArgumentException("periodMillis must be > 0, got " + periodMillis);
        }
        this.periodMillis = periodMillis;
        this.nanoTime = nanoTime;
        this.startNanos = nanoTime.getAsLong();
    }

    /** The display's id. */
    public String displayId() {
        return displayId;
    }

    /** Shows the display and starts polling. */
    public LiveProgress start() {
        poll();
        poller = Thread.ofPlatform().daemon().name("kneepoint-progress-" + displayId).start(this::loop);
        return this;
    }

    private void loop() {
        try {
            while (!closed) {
                Thread.sleep(periodMillis);
                if (!closed) {
                    poll();
                }
            }
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
        }
    }

    /** Takes one snapshot and publishes it when it differs from the last one; returns whether it did. */
    public boolean poll() {
        return publish(false);
    }

    private boolean publish(boolean done) {
        Optional<StepProgress> p;
        try {
            p = source.get();
        } catch (RuntimeException e) {
            p = Optional.empty();
        }
        synchronized (publishLock) {
            // A finished sweep reports no progress: keep showing its last step.
            p = p.isPresent() ? p : lastProgress;
            lastProgress = p;
        }
        double elapsedS = (nanoTime.getAsLong() - startNanos) / 1e9;
        String state = done ? "done" : "running";
        String where;
        try {
            where = done ? "" : headline.get();
        } catch (RuntimeException e) {
            where = "";
        }
        String html = "<div class=\"kneepoint-progress\"><p><b>" + state + "</b> <small>"
                + String.format(Locale.ROOT, "%.1f s", elapsedS) + "</small>"
                + (where.isEmpty() ? "" : " " + Html.escape(where)) + "</p>\n"
                + p.map(ResultRenderer::html).orElse(Html.note("waiting for the first step…")) + "</div>";
        String text = state + String.format(Locale.ROOT, " %.1f s: ", elapsedS) + (where.isEmpty() ? "" : where + ": ")
                + p.map(ResultRenderer::text).orElse("waiting for the first step");
        synchronized (publishLock) {
            String withoutClock = html.replaceFirst("<small>[^<]*</small>", "");
            if (shown && withoutClock.equals(lastHtml) && !done) {
                return false;
            }
            DisplayData d = new DisplayData(text);
            d.putHTML(html);
            if (!shown) {
                sink.show(displayId, d);
                shown = true;
            } else {
                sink.update(displayId, d);
            }
            lastHtml = withoutClock;
            return true;
        }
    }

    /** Stops polling and publishes the final state once; idempotent. */
    @Override
    public void close() {
        if (closed) {
            return;
        }
        closed = true;
        Thread t = poller;
        if (t != null) {
            t.interrupt();
            try {
                t.join(1000);
            } catch (InterruptedException e) {
                Thread.currentThread().interrupt();
            }
        }
        publish(true);
    }

    /** Whether {@link #close()} was called. */
    public boolean isClosed() {
        return closed;
    }
}
