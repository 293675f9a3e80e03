package dev.kneepoint.plot;

import dev.kneepoint.analysis.SloCapacity;
import java.util.List;
import java.util.Objects;
import org.knowm.xchart.AnnotationText;
import org.knowm.xchart.XYChart;
import org.knowm.xchart.XYSeries;
import org.knowm.xchart.style.markers.SeriesMarkers;

/**
 * Builder of an SLO capacity search's chart (docs/ANALYSIS.md "SLO capacity search"): each probe's attainment (the
 * share of its requests within the SLO set) against its load, with its 95 % Wilson interval as a vertical bar,
 * passing probes and failing ones in two colours, the target as a dashed line and the bracket's two ends labelled.
 * The capacity lies between the highest passing and the lowest failing probe.
 *
 * <p>Series names: {@code passes}, {@code fails}, {@code target}; the intervals are unnamed in the legend.
 */
public final class SloSearchPlot extends ChartBuilder<SloSearchPlot> {
    private final SloCapacity capacity;

    private SloSearchPlot(SloCapacity capacity) {
        this.capacity = Objects.requireNonNull(capacity, "capacity");
    }

    /** The chart of {@code capacity}'s probes. */
    public static SloSearchPlot of(SloCapacity capacity) {
        return new SloSearchPlot(capacity);
    }

    @Override
    public XYChart build() {
        List<SloCapacity.Probe> probes = capacity.probes();
        String unit = capacity.dimension().equals(SloCapacity.CONCURRENCY) ? "users (concurrency)" : "request rate, req/s";
        XYChart c = chart("SLO capacity search: " + pct(capacity.target()) + "% of requests within the SLO set",
                unit, "attainment, % of requests within the SLO set");
        double lo = 100;
        double maxLoad = 0;
        for (SloCapacity.Probe p : probes) {
            if (Double.isFinite(p.attainment())) {
                lo = Math.min(lo, 100 * p.low());
                maxLoad = Math.max(maxLoad, p.load());
                XYSeries bar = c.addSeries("interval " + p.step(), new double[] {p.load(), p.load()},
                        new double[] {100 * p.low(), 100 * p.high()});
                bar.setLineColor(ChartStyle.GREY);
                bar.setLineStyle(new java.awt.BasicStroke(2f)); // solid: XChart's default cycles dashes by series
                bar.setMarker(SeriesMarkers.NONE);
                bar.setShowInLegend(false);
            }
        }
        points(c, "passes", probes, true, ChartStyle.ZONE);
        points(c, "fails", probes, false, ChartStyle.KNEE);
        XYSeries target = c.addSeries("target", new double[] {0, Math.max(1, maxLoad) * 1.05},
                new double[] {100 * capacity.target(), 100 * capacity.target()});
        target.setLineColor(java.awt.Color.BLACK);
        target.setLineStyle(ChartStyle.dashed());
        target.setMarker(SeriesMarkers.NONE);
        double yMin = Math.max(0, Math.floor(Math.min(lo, 100 * capacity.target()) / 5) * 5 - 5);
        // The bracket's ends, named in the plot's upper right, under the target line: the passing probes sit at the
        // top left and the failing ones fall away to the right, so that corner is free (next to the points, the
        // labels ran into the neighbouring probes and the target line).
        double line = 0.06 * (101 - yMin);
        double y = 100 * capacity.target() - line;
        for (SloCapacity.Probe end : new SloCapacity.Probe[] {capacity.maxPassing(), capacity.minFailing()}) {
            if (end != null && Double.isFinite(end.attainment())) {
                String what = end == capacity.maxPassing() ? "highest passing " : "lowest failing ";
                c.addAnnotation(new AnnotationText(what + end.step(), 0.78 * Math.max(1, maxLoad) * 1.05, y, false));
                y -= line;
            }
        }
        c.getStyler().setYAxisMin(yMin);
        c.getStyler().setYAxisMax(101.0);
        c.getStyler().setXAxisMin(0.0);
        c.getStyler().setMarkerSize(9);
        return c;
    }

    private static void points(XYChart c, String name, List<SloCapacity.Probe> probes, boolean passing,
                               java.awt.Color color) {
        List<SloCapacity.Probe> these = probes.stream()
                .filter(p -> p.passes() == passing && Double.isFinite(p.attainment())).toList();
        if (these.isEmpty()) {
            return;
        }
        ChartStyle.points(c, name, these.stream().mapToDouble(SloCapacity.Probe::load).toArray(),
                these.stream().mapToDouble(p -> 100 * p.attainment()).toArray(), color,
                passing ? SeriesMarkers.CIRCLE : SeriesMarkers.DIAMOND);
    }

    private static String pct(double fraction) {
        double v = 100 * fraction;
        return v == Math.rint(v) ? Long.toString((long) v) : Double.toString(v);
    }
}
