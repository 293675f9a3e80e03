package dev.kneepoint.plot;

import dev.kneepoint.analysis.LatencyMetric;
import dev.kneepoint.metrics.RunResult;
import dev.kneepoint.metrics.StepResult;
import java.util.Comparator;
import java.util.List;
import java.util.Locale;
import java.util.Objects;
import org.knowm.xchart.AnnotationLine;
import org.knowm.xchart.AnnotationText;
import org.knowm.xchart.XYChart;

/**
 * Builder of "latency percentiles vs load": x = load (concurrency or request rate), one series per
 * percentile ({@code p50}, {@code p90}, {@code p99} by default) of one latency distribution, with an
 * optional vertical line at the knee.
 */
public final class LoadPlot extends ChartBuilder<LoadPlot> {
    private final RunResult run;
    private LatencyMetric metric;
    private double[] percentiles = {50, 90, 99};
    private double kneeLoad = Double.NaN;
    private boolean logY;
    private boolean logX;

    private LoadPlot(RunResult run) {
        this.run = Objects.requireNonNull(run, "run");
    }

    public static LoadPlot of(RunResult run) {
        return new LoadPlot(run);
    }

    /** The distribution (default: {@code ttft_sched} for open loop, {@code ttft} for closed loop). */
    public LoadPlot metric(LatencyMetric m) { this.metric = m; return this; }

    public LoadPlot percentiles(double... p) { this.percentiles = p.clone(); return this; }

    /** Draws a dashed vertical line labelled "knee" at this load (NaN: none). */
    public LoadPlot knee(double load) { this.kneeLoad = load; return this; }

    public LoadPlot logLatency(boolean on) { this.logY = on; return this; }

    /** Logarithmic load axis, for ladders that double (default off). */
    public LoadPlot logLoad(boolean on) { this.logX = on; return this; }

    @Override
    public XYChart build() {
        // A run mixing closed and open steps (a rate sweep's probes, a rate ladder's baseline) plots its open
        // steps: a concurrency is not a point of a rate axis.
        boolean open = run.steps().stream().anyMatch(s -> s.info().isOpenLoop());
        List<StepResult> steps = run.steps().stream().filter(s -> Double.isFinite(s.info().load()))
                .filter(s -> s.info().isOpenLoop() == open)
                .sorted(Comparator.comparingDouble(s -> s.info().load())).toList();
        LatencyMetric m = metric != null ? metric : open ? LatencyMetric.TTFT_SCHED : LatencyMetric.TTFT;
        XYChart c = chart(ChartStyle.title(m.title() + " percentiles vs load", run.runId(), run.target()),
                Units.load(open), m.title() + " (ms)");
        double[] x = steps.stream().mapToDouble(s -> s.info().load()).toArray();
        double top = Double.NaN;
        for (double p : percentiles) {
            double[] y = steps.stream().mapToDouble(s -> m.of(s).percentile(p)).toArray();
            double[][] f = ChartStyle.finite(x, y);
            if (f[0].length > 0) {
                c.addSeries("p" + pct(p), f[0], f[1]);
                for (double v : f[1]) {
                    top = Double.isNaN(top) ? v : Math.max(top, v);
                }
            }
        }
        if (c.getSeriesMap().isEmpty()) {
            c.addSeries("no data", new double[] {0}, new double[] {0});
        }
        if (Double.isFinite(kneeLoad)) {
            c.addAnnotation(new AnnotationLine(kneeLoad, true, false));
            c.addAnnotation(new AnnotationText("knee", kneeLoad, Double.isNaN(top) ? 0 : top, false));
        }
        c.getStyler().setYAxisLogarithmic(logY);
        c.getStyler().setXAxisLogarithmic(logX);
        return c;
    }

    static String pct(double p) {
        return p == Math.rint(p) ? Long.toString((long) p) : String.format(Locale.ROOT, "%s", p);
    }
}
