package dev.kneepoint.plot;

import dev.kneepoint.analysis.LatencyMetric;
import dev.kneepoint.metrics.Distribution;
import dev.kneepoint.metrics.RunResult;
import dev.kneepoint.metrics.StepResult;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import org.HdrHistogram.Histogram;
import org.HdrHistogram.HistogramIterationValue;
import org.knowm.xchart.XYChart;

/**
 * Builder of latency distribution charts from HdrHistograms, one series per distribution added:
 * <ul>
 *   <li>{@link #cdf()}: x = latency (ms), y = fraction of requests at or below it (0–1);</li>
 *   <li>{@link #spectrum()}: HdrHistogram's percentile spectrum: x = percentile on a log scale of
 *       {@code 1/(1−p)} (ticks labelled 0%, 90%, 99%, 99.9%, ...), y = latency (ms), so the tail is legible.</li>
 * </ul>
 * Points are HdrHistogram's percentile iteration (5 ticks per half distance), capped at {@code 1/(1−p) ≤ count}.
 */
public final class DistributionPlot extends ChartBuilder<DistributionPlot> {
    private final boolean spectrum;
    private final Map<String, Distribution> series = new LinkedHashMap<>();
    private String xTitle = "latency (ms)";

    private DistributionPlot(boolean spectrum) {
        this.spectrum = spectrum;
    }

    public static DistributionPlot cdf() {
        return new DistributionPlot(false);
    }

    public static DistributionPlot spectrum() {
        return new DistributionPlot(true);
    }

    /** Adds one series. */
    public DistributionPlot add(String name, Distribution d) {
        series.put(name, d);
        return this;
    }

    /** Adds one series per step of {@code run} for {@code metric}, and names the axis and title after them. */
    public DistributionPlot steps(RunResult run, LatencyMetric metric) {
        for (StepResult s : run.steps()) {
            add(s.info().label(), metric.of(s));
        }
        xTitle = metric.title() + " (ms)";
        if (!titled()) {
            title(ChartStyle.title(metric.title() + (spectrum ? " percentile spectrum" : " CDF"), run.runId(),
                    run.target()));
        }
        return this;
    }

    @Override
    public XYChart build() {
        XYChart c = spectrum ? chart("Latency percentile spectrum", "percentile", xTitle)
                : chart("Latency CDF", xTitle, "fraction of requests");
        for (Map.Entry<String, Distribution> e : series.entrySet()) {
            double[][] xy = points(e.getValue().histogram(), spectrum);
            if (xy[0].length > 0) {
                c.addSeries(e.getKey(), xy[0], xy[1]).setMarker(org.knowm.xchart.style.markers.SeriesMarkers.NONE);
            }
        }
        ChartStyle.noDataIfEmpty(c, 1);
        if (spectrum) {
            c.getStyler().setXAxisLogarithmic(true);
            c.getStyler().setXAxisLogarithmicDecadeOnly(true);
            c.getStyler().setxAxisTickLabelsFormattingFunction(DistributionPlot::percentileLabel);
        } else {
            c.getStyler().setYAxisMin(0.0);
            c.getStyler().setYAxisMax(1.0);
        }
        return c;
    }

    /** Spectrum x → percentile label: 1 → "0%", 10 → "90%", 1000 → "99.9%". */
    static String percentileLabel(double x) {
        double p = 100 * (1 - 1 / x);
        String s = String.format(Locale.ROOT, "%.6f", p).replaceAll("0+$", "");
        return (s.endsWith(".") ? s.substring(0, s.length() - 1) : s) + "%";
    }

    static double[][] points(Histogram h, boolean spectrum) {
        List<double[]> pts = new ArrayList<>();
        long n = h.getTotalCount();
        if (n == 0) {
            return new double[2][0];
        }
        for (HistogramIterationValue v : h.percentiles(5)) {
            double p = v.getPercentileLevelIteratedTo() / 100.0;
            double ms = v.getValueIteratedTo() / 1e6;
            if (spectrum) {
                double x = p >= 1 ? n : Math.min(n, 1 / (1 - p));
                pts.add(new double[] {Math.max(1, x), ms});
                if (p >= 1) {
                    break;
                }
            } else {
                pts.add(new double[] {ms, Math.min(1, p)});
            }
        }
        double[][] out = new double[2][pts.size()];
        for (int i = 0; i < pts.size(); i++) {
            out[0][i] = pts.get(i)[0];
            out[1][i] = pts.get(i)[1];
        }
        return out;
    }
}
