package dev.kneepoint.kernel;

import dev.kneepoint.analysis.KneeReport;
import dev.kneepoint.kernel.render.ChartRenderer;
import dev.kneepoint.kernel.render.KneeRenderer;
import dev.kneepoint.kernel.render.ResultRenderer;
import dev.kneepoint.kernel.render.SpectrumRenderer;
import dev.kneepoint.kernel.render.TableRenderer;
import dev.kneepoint.metrics.Distribution;
import dev.kneepoint.metrics.RunResult;
import dev.kneepoint.metrics.StepProgress;
import dev.kneepoint.metrics.StepResult;
import dev.kneepoint.sweep.SweepHandle;
import io.github.spencerpark.jupyter.kernel.display.DisplayData;
import io.github.spencerpark.jupyter.kernel.display.Renderer;
import java.time.Duration;
import java.util.Locale;
import java.util.Optional;
import org.HdrHistogram.AbstractHistogram;
import org.knowm.xchart.internal.chartpart.Chart;
import tech.tablesaw.api.Table;

/**
 * Turns cell values into Jupyter display bundles: the kernel's renderers for Tablesaw tables, XChart
 * charts, Kneepoint results and HdrHistograms, and the base kernel's renderer (images, plain text) for
 * everything else. The library knows nothing of this; only this module knows both sides.
 */
public final class Displays {
    private final Renderer fallback;
    private final int maxTableRows;

    /**
     * @param fallback     renderer for values this class has no renderer for
     * @param maxTableRows rows of a table shown before the rest is summarized in a note
     */
    public Displays(Renderer fallback, int maxTableRows) {
        this.fallback = fallback;
        this.maxTableRows = maxTableRows;
    }

    /** The display bundle of a value (text/plain always, richer types where a renderer exists). */
    public DisplayData render(Object value) {
        return switch (value) {
            case null -> new DisplayData("null");
            case String s -> new DisplayData(s);
            case Table t -> bundle(TableRenderer.text(t, maxTableRows), TableRenderer.html(t, maxTableRows));
            case Chart<?, ?> c -> chart(c);
            case RunResult r -> bundle(String.format(Locale.ROOT, "RunResult[%s, %d steps%s]", r.runId(),
                    r.steps().size(), r.complete() ? "" : ", incomplete"), ResultRenderer.html(r));
            case StepResult s -> bundle(s.toString(), ResultRenderer.html(s));
            case KneeReport k -> bundle(KneeRenderer.text(k), KneeRenderer.html(k));
            case Distribution d -> bundle(d.toString(), ResultRenderer.html(d));
            case StepProgress p -> bundle(ResultRenderer.text(p), ResultRenderer.html(p));
            case SweepHandle h -> handle(h);
            case AbstractHistogram h -> bundle(SpectrumRenderer.text(h), SpectrumRenderer.html(h));
            default -> fallback.render(value);
        };
    }

    /** A sweep handle: its result once it ended, else a snapshot of its progress ({@code watch} shows it live). */
    private DisplayData handle(SweepHandle h) {
        if (h.isDone()) {
            try {
                Optional<RunResult> done = h.await(Duration.ZERO); // ended: collects the result, waits for nothing
                if (done.isPresent()) {
                    return render(done.get());
                }
            } catch (InterruptedException e) {
                Thread.currentThread().interrupt();
            }
        }
        String text = "SweepHandle[running" + h.progress().map(p -> ": " + ResultRenderer.text(p)).orElse("") + "]";
        String html = "<p><b>Sweep running</b> <small>(snapshot; <code>watch(handle)</code> shows it live)</small></p>\n"
                + h.progress().map(ResultRenderer::html).orElse(dev.kneepoint.kernel.render.Html.note("waiting for the first step…"));
        return bundle(text, html);
    }

    private static DisplayData bundle(String text, String html) {
        DisplayData d = new DisplayData(text);
        d.putHTML(html);
        return d;
    }

    private static DisplayData chart(Chart<?, ?> c) {
        DisplayData d = new DisplayData(c.getClass().getSimpleName() + "[" + c.getTitle() + ", "
                + c.getWidth() + "x" + c.getHeight() + "]");
        d.putData("image/png", ChartRenderer.pngBase64(c));
        d.putSVG(ChartRenderer.svg(c));
        return d;
    }
}
