package dev.kneepoint.plot;

import dev.kneepoint.analysis.LatencyMetric;
import dev.kneepoint.metrics.RunResult;
import dev.kneepoint.metrics.StepResult;
import dev.kneepoint.metrics.Trials;
import java.util.Comparator;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.Objects;
import org.knowm.xchart.AnnotationLine;
import org.knowm.xchart.AnnotationText;
import org.knowm.xchart.XYChart;

/**
 * Builder of "latency percentiles vs load": x = load (concurrency or request rate), one series per
 * percentile ({@code p50}, {@code p90}, {@code p99} by default) of one latency distribution, with an
 * optional vertical line at the knee. On a logarithmic load axis the series' x values are log2 of the loads (the
 * ticks read the loads).
 */
public final class LoadPlot extends ChartBuilder<LoadPlot> {
    private final RunResult run;
    private LatencyMetric metric;
    private double[] percentiles = {50, 90, 99};
    private double kneeLoad = Double.NaN;
    private boolean logY;
    /** Null: logarithmic when the ladder grows geometrically ({@link #geometric}). */
    private Boolean logX;

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

    /**
     * Logarithmic load axis (default: on when the ladder grows geometrically, e.g. doubles 1, 2, 4, ... 256, where a
     * linear axis crowds the low loads into its left edge; off for an even ladder).
     */
    public LoadPlot logLoad(boolean on) { this.logX = on; return this; }

    @Override
    public XYChart build() {
        // A run mixing closed and open steps (a rate sweep's probes, a rate ladder's baseline) plots its open
        // steps: a concurrency is not a point of a rate axis.
        boolean open = run.steps().stream().anyMatch(s -> s.info().isOpenLoop());
        // A repeated load is one point (its trials pooled), with a bar of the 95 % interval across its trials.
        Map<String, List<StepResult>> trials = Trials.trialsOf(run);
        List<StepResult> steps = Trials.pooled(run).steps().stream().filter(s -> Double.isFinite(s.info().load()))
                .filter(s -> s.info().isOpenLoop() == open)
                .sorted(Comparator.comparingDouble(s -> s.info().load())).toList();
        LatencyMetric m = metric != null ? metric : open ? LatencyMetric.TTFT_SCHED : LatencyMetric.TTFT;
        double[] loads = steps.stream().mapToDouble(s -> s.info().load()).toArray();
        boolean log = logX != null ? logX : geometric(loads);
        XYChart c = chart(ChartStyle.title(m.title() + " percentiles vs load", run.runId(), run.target()),
                log ? Units.load(open).replace(")", ", log scale)") : Units.load(open), m.title() + " (ms)");
        // A log axis is drawn as log2(load) on a linear one, ticked at the loads measured (1, 4, 16, 64 ...): XChart's
        // own log axis labels decades only (1, 10, 100), which names none of a doubling ladder's steps.
        double[] x = log ? java.util.Arrays.stream(loads).map(LoadPlot::log2).toArray() : loads;
        boolean withBars = false;
        double top = Double.NaN;
        for (double p : percentiles) {
            double[] y = steps.stream().mapToDouble(s -> m.of(s).percentile(p)).toArray();
            double[][] f = ChartStyle.finite(x, y);
            if (f[0].length > 0 && !trials.isEmpty()) {
                double[] bars = steps.stream().mapToDouble(s -> halfInterval(trials.get(s.info().label()), m, p))
                        .toArray();
                double[][] fb = finiteWithBars(x, y, bars);
                c.addSeries("p" + pct(p) + " ±95% CI", fb[0], fb[1], fb[2]); // the bar: across the load's trials
                withBars = true;
            } else if (f[0].length > 0) {
                c.addSeries("p" + pct(p), f[0], f[1]);
            }
            for (double v : f[1]) {
                top = Double.isNaN(top) ? v : Math.max(top, v);
            }
        }
        ChartStyle.noDataIfEmpty(c);
        if (Double.isFinite(kneeLoad)) {
            double at = log ? log2(kneeLoad) : kneeLoad;
            c.addAnnotation(new AnnotationLine(at, true, false));
            c.addAnnotation(new AnnotationText("knee", at, Double.isNaN(top) ? 0 : top, false));
        }
        c.getStyler().setYAxisLogarithmic(logY);
        if (log) {
            c.setCustomXAxisTickLabelsFormatter(v -> loadLabel(Math.pow(2, v)));
        }
        if (withBars && !logY) {
            // A latency is never below 0: a wide interval of few trials is cut at the axis, not drawn below it.
            c.getStyler().setYAxisMin(0.0);
        }
        c.getStyler().setErrorBarsColorSeriesColor(true);
        return c;
    }

    private static double log2(double load) {
        return load > 0 ? Math.log(load) / Math.log(2) : Double.NaN;
    }

    /** A load as its tick reads: up to 3 significant digits, no trailing zeros (1, 16, 512, 22.5, 0.5). */
    static String loadLabel(double load) {
        if (!Double.isFinite(load)) {
            return "";
        }
        return new java.math.BigDecimal(load).round(new java.math.MathContext(3)).stripTrailingZeros().toPlainString();
    }

    /** Whether the chart's load axis is logarithmic (drawn as log2 of the load, ticked at the loads). */
    static boolean logLoadAxis(XYChart c) {
        return c.getXAxisTitle().endsWith(", log scale)");
    }

    /**
     * Whether positive loads grow geometrically over a wide range: at least 3 distinct loads spanning a factor of 8 or
     * more, each at least 1.5 times the one before (a doubling ladder, 1-8-64, powers of ten).
     */
    static boolean geometric(double[] loads) {
        if (java.util.Arrays.stream(loads).anyMatch(d -> !(d > 0) || Double.isInfinite(d))) {
            return false; // a zero load has no place on a log axis
        }
        double[] v = java.util.Arrays.stream(loads).sorted().distinct().toArray();
        if (v.length < 3 || v[v.length - 1] / v[0] < 8) {
            return false;
        }
        for (int i = 1; i < v.length; i++) {
            if (v[i] / v[i - 1] < 1.5) {
                return false;
            }
        }
        return true;
    }

    /** Half the 95 % interval of the mean of percentile {@code p} across a load's trials (0: not repeated). */
    private static double halfInterval(List<StepResult> trials, LatencyMetric m, double p) {
        if (trials == null) {
            return 0;
        }
        double h = Trials.Stat.of(trials.stream().map(s -> m.of(s).percentile(p)).toList()).halfWidth();
        return Double.isFinite(h) ? h : 0;
    }

    /** The points whose x and y are finite, with their bars. */
    private static double[][] finiteWithBars(double[] x, double[] y, double[] bars) {
        int[] keep = java.util.stream.IntStream.range(0, x.length)
                .filter(i -> Double.isFinite(x[i]) && Double.isFinite(y[i])).toArray();
        return new double[][] {java.util.Arrays.stream(keep).mapToDouble(i -> x[i]).toArray(),
                java.util.Arrays.stream(keep).mapToDouble(i -> y[i]).toArray(),
                java.util.Arrays.stream(keep).mapToDouble(i -> bars[i]).toArray()};
    }

    static String pct(double p) {
        return p == Math.rint(p) ? Long.toString((long) p) : String.format(Locale.ROOT, "%s", p);
    }
}
