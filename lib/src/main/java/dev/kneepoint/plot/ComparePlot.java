package dev.kneepoint.plot;

import dev.kneepoint.analysis.KneeOptions;
import dev.kneepoint.analysis.KneeReport;
import java.util.List;
import org.knowm.xchart.XYChart;
import org.knowm.xchart.style.markers.SeriesMarkers;
import tech.tablesaw.api.Table;

/**
 * Builder of a run-comparison overlay: each analysed run's throughput–latency curve (the T and L its
 * {@link KneeReport} was computed with), one series per run, plus each run's knee as a marker series
 * {@code <run> knee}. It draws what {@link dev.kneepoint.analysis.Knee#analyze} found; analyse the runs with
 * the options you want first.
 */
public final class ComparePlot extends ChartBuilder<ComparePlot> {
    private final List<KneeReport> reports;

    private ComparePlot(List<KneeReport> reports) {
        this.reports = List.copyOf(reports);
    }

    /** The curves of {@code reports}, one per analysed run, in this order. */
    public static ComparePlot of(List<KneeReport> reports) {
        return new ComparePlot(reports);
    }

    @Override
    public XYChart build() {
        String tCol = reports.isEmpty() ? KneeOptions.Throughput.OUTPUT_TOKENS.column() : reports.get(0).throughputColumn();
        String lCol = reports.isEmpty() ? "latency_ms" : reports.get(0).latencyColumn();
        String runs = String.join(" vs ", reports.stream().map(KneeReport::runId).toList());
        XYChart c = chart("Run comparison: " + runs, Units.axis(tCol), Units.axis(lCol));
        int i = 0;
        for (KneeReport k : reports) {
            Table s = k.steps();
            // Each run's line and its knee marker in the run's own colour (the automatic cycle would count the
            // marker series too, so the second run's knee got the third colour's neighbour).
            java.awt.Color colour = ChartStyle.PALETTE[i % ChartStyle.PALETTE.length];
            org.knowm.xchart.XYSeries line = ChartStyle.finiteLine(c, k.runId(),
                    s.doubleColumn(k.throughputColumn()).asDoubleArray(), s.doubleColumn(k.latencyColumn()).asDoubleArray());
            if (line != null) {
                line.setLineColor(colour);
                line.setMarkerColor(colour);
            }
            if (k.kneeStep() != null) {
                Table kn = s.where(s.stringColumn("step").isEqualTo(k.kneeStep()));
                double[][] p = ChartStyle.finite(kn.doubleColumn(k.throughputColumn()).asDoubleArray(),
                        kn.doubleColumn(k.latencyColumn()).asDoubleArray());
                if (p[0].length > 0) {
                    ChartStyle.points(c, k.runId() + " knee", p[0], p[1], colour, SeriesMarkers.DIAMOND);
                }
            }
            i++;
        }
        ChartStyle.noDataIfEmpty(c);
        return c;
    }
}
