package dev.kneepoint.plot;

import dev.kneepoint.analysis.KneeReport;
import dev.kneepoint.analysis.OperatingPoints;
import dev.kneepoint.analysis.Tables;
import dev.kneepoint.metrics.RunResult;
import dev.kneepoint.metrics.StepResult;
import java.awt.Color;
import java.util.List;
import java.util.Objects;
import org.knowm.xchart.XYChart;
import org.knowm.xchart.XYSeries;
import org.knowm.xchart.style.markers.SeriesMarkers;

/**
 * Builder of the throughput-vs-interactivity view (docs/ANALYSIS.md "Throughput vs interactivity"): one point per
 * step, x = one user's output rate ({@code tok/s/user}, {@link Tables#userTokensPerS}), y = the system's output
 * tok/s, each labelled with its load; the knee and both {@link OperatingPoints} marked. Moving right is more
 * interactive, moving up more throughput: the curve shows what each user pays for the system's throughput.
 * A latency-first point that is not a measured step (an open loop's rate with headroom) is placed by linear
 * interpolation in load between the two steps around it.
 *
 * The <em>frontier</em> joins the steps no other step beats on both axes (Pareto-optimal): a step off it is
 * dominated, slower for each user and no more throughput. With {@link #perGpu(int)} the y axis is output tok/s per
 * GPU, the chart used to pick an operating point across deployments of different sizes.
 *
 * <p>Series names: {@code steps}, {@code frontier}, {@code knee}, {@code latency-first}, {@code throughput-first}.
 */
public final class InteractivityPlot extends ChartBuilder<InteractivityPlot> {
    private final RunResult run;
    private final KneeReport report;
    private int gpus = 1;

    private InteractivityPlot(RunResult run, KneeReport report) {
        this.run = Objects.requireNonNull(run, "run");
        this.report = Objects.requireNonNull(report, "report");
    }

    /** The view of {@code run}, with the knee and operating points of {@code report} (the same run's analysis). */
    public static InteractivityPlot of(RunResult run, KneeReport report) {
        return new InteractivityPlot(run, report);
    }

    /** The y axis as output tok/s per GPU, for a deployment of {@code gpus} (default 1: the system's tok/s). */
    public InteractivityPlot perGpu(int gpus) {
        if (gpus < 1) {
            throw new IllegalArgumentException("gpus must be >= 1, got " + gpus);
        }
        this.gpus = gpus;
        return this;
    }

    @Override
    public XYChart build() {
        List<StepResult> steps = run.steps();
        int n = steps.size();
        double[] x = new double[n];
        double[] y = new double[n];
        double[] load = new double[n];
        for (int i = 0; i < n; i++) {
            x[i] = Tables.userTokensPerS(steps.get(i));
            y[i] = steps.get(i).rates().outputTokensPerS() / gpus;
            load[i] = steps.get(i).info().load();
        }
        XYChart c = chart(ChartStyle.title(gpus == 1 ? "Throughput vs interactivity"
                        : "Throughput per GPU vs interactivity (Pareto)", report.runId(), null),
                "per-user output rate, tok/s/user (1000 / tpot p50)", gpus == 1 ? "system output tok/s (all users)"
                        : "output tok/s per GPU (" + gpus + " GPUs)");
        XYSeries line = ChartStyle.steps(c, x, y);
        double[][] front = frontier(line.getXData(), line.getYData());
        if (front[0].length >= 1) {
            XYSeries fr = c.addSeries("frontier", front[0], front[1]);
            fr.setLineColor(ChartStyle.ZONE);
            fr.setLineStyle(ChartStyle.dashed());
            fr.setMarker(SeriesMarkers.NONE);
        }
        mark(c, "knee", at(report.kneeStep(), x, y), ChartStyle.KNEE, SeriesMarkers.DIAMOND);
        OperatingPoints.Point lf = report.operatingPoints().latencyFirst();
        double[] lfAt = lf.named() ? interpolate(lf.load(), load, x, y) : null;
        mark(c, "latency-first", lfAt, ChartStyle.PALETTE[0], SeriesMarkers.CIRCLE);
        mark(c, "throughput-first", at(report.operatingPoints().throughputFirst().step(), x, y), Color.BLACK,
                SeriesMarkers.CROSS);
        ChartStyle.stepLabels(c, steps.stream().map(r -> r.info().label()).toList(), x, y, false);
        c.getStyler().setMarkerSize(9);
        c.getStyler().setYAxisDecimalPattern("#,##0");
        return c;
    }

    /**
     * The Pareto frontier of the points, in x order: those no other point matches or beats on both axes (equal on
     * one and better on the other, or better on both).
     */
    static double[][] frontier(double[] x, double[] y) {
        java.util.List<double[]> keep = new java.util.ArrayList<>();
        for (int i = 0; i < x.length; i++) {
            boolean dominated = false;
            for (int j = 0; j < x.length && !dominated; j++) {
                dominated = j != i && x[j] >= x[i] && y[j] >= y[i] && (x[j] > x[i] || y[j] > y[i]);
            }
            if (!dominated) {
                keep.add(new double[] {x[i], y[i]});
            }
        }
        keep.sort(java.util.Comparator.comparingDouble(p -> p[0]));
        return new double[][] {keep.stream().mapToDouble(p -> p[0]).toArray(),
                keep.stream().mapToDouble(p -> p[1]).toArray()};
    }

    private static void mark(XYChart c, String name, double[] p, Color color,
                             org.knowm.xchart.style.markers.Marker marker) {
        if (p != null && Double.isFinite(p[0]) && Double.isFinite(p[1])) {
            ChartStyle.points(c, name, new double[] {p[0]}, new double[] {p[1]}, color, marker);
        }
    }

    private double[] at(String label, double[] x, double[] y) {
        for (int i = 0; label != null && i < x.length; i++) {
            if (run.steps().get(i).info().label().equals(label)) {
                return new double[] {x[i], y[i]};
            }
        }
        return null;
    }

    /** (x, y) at {@code target} load, linear between the measured steps around it; null outside their range. */
    static double[] interpolate(double target, double[] load, double[] x, double[] y) {
        int below = -1;
        int above = -1;
        for (int i = 0; i < load.length; i++) {
            if (!Double.isFinite(x[i]) || !Double.isFinite(y[i])) {
                continue;
            }
            if (load[i] <= target && (below < 0 || load[i] > load[below])) {
                below = i;
            }
            if (load[i] >= target && (above < 0 || load[i] < load[above])) {
                above = i;
            }
        }
        if (below < 0 || above < 0) {
            return null;
        }
        if (below == above || load[above] == load[below]) {
            return new double[] {x[below], y[below]};
        }
        double w = (target - load[below]) / (load[above] - load[below]);
        return new double[] {x[below] + w * (x[above] - x[below]), y[below] + w * (y[above] - y[below])};
    }
}
