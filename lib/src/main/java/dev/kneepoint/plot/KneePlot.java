package dev.kneepoint.plot;

import dev.kneepoint.analysis.KneeReport;
import java.util.Objects;
import org.knowm.xchart.XYChart;
import org.knowm.xchart.style.markers.SeriesMarkers;
import tech.tablesaw.api.Table;

/**
 * Builder of the throughput–latency curve: one point per step (x = throughput T, y = latency L, as the
 * {@link KneeReport} defined them), the efficient zone highlighted, the knee and the recommended operating
 * point marked, each point labelled with its step.
 *
 * <p>Series names: {@code steps}, {@code efficient zone}, {@code knee}, {@code recommended}.
 */
public final class KneePlot extends ChartBuilder<KneePlot> {
    private final KneeReport report;
    private boolean labels = true;
    private boolean logY;

    private KneePlot(KneeReport report) {
        this.report = Objects.requireNonNull(report, "report");
    }

    public static KneePlot of(KneeReport report) {
        return new KneePlot(report);
    }

    /** Label each point with its step (default on). */
    public KneePlot labels(boolean on) { this.labels = on; return this; }

    /** Logarithmic latency axis (default off). */
    public KneePlot logLatency(boolean on) { this.logY = on; return this; }

    @Override
    public XYChart build() {
        Table s = report.steps();
        String tCol = report.throughputColumn();
        String lCol = report.latencyColumn();
        XYChart c = chart(ChartStyle.title("Throughput vs latency", report.runId(), null), Units.axis(tCol),
                Units.axis(lCol));
        double[] x = s.doubleColumn(tCol).asDoubleArray();
        double[] y = s.doubleColumn(lCol).asDoubleArray();
        ChartStyle.steps(c, x, y);
        double[][] zone = select(s, x, y, report.efficientZone());
        if (zone[0].length > 0) {
            ChartStyle.points(c, "efficient zone", zone[0], zone[1], ChartStyle.ZONE, SeriesMarkers.CIRCLE);
        }
        if (report.kneeStep() != null) {
            double[][] k = select(s, x, y, java.util.List.of(report.kneeStep()));
            if (k[0].length > 0) {
                ChartStyle.points(c, "knee", k[0], k[1], ChartStyle.KNEE, SeriesMarkers.DIAMOND);
            }
        }
        if (report.recommendedStep() != null) {
            double[][] r = select(s, x, y, java.util.List.of(report.recommendedStep()));
            if (r[0].length > 0) {
                ChartStyle.points(c, "recommended", r[0], r[1], java.awt.Color.BLACK, SeriesMarkers.CROSS);
            }
        }
        if (labels) {
            ChartStyle.stepLabels(c, s.stringColumn("step").asList(), x, y, logY);
        }
        c.getStyler().setYAxisLogarithmic(logY);
        c.getStyler().setMarkerSize(9);
        return c;
    }

    private static double[][] select(Table s, double[] x, double[] y, java.util.List<String> labels) {
        java.util.List<Integer> idx = new java.util.ArrayList<>();
        for (int i = 0; i < s.rowCount(); i++) {
            if (labels.contains(s.stringColumn("step").get(i))) {
                idx.add(i);
            }
        }
        double[] xs = idx.stream().mapToDouble(i -> x[i]).toArray();
        double[] ys = idx.stream().mapToDouble(i -> y[i]).toArray();
        return ChartStyle.finite(xs, ys);
    }
}
