package dev.kneepoint.plot;

import java.util.ArrayList;
import java.util.List;
import java.util.Objects;
import org.knowm.xchart.XYChart;
import org.knowm.xchart.XYSeries;
import org.knowm.xchart.style.Styler;
import org.knowm.xchart.style.markers.SeriesMarkers;
import tech.tablesaw.api.Table;

/**
 * Builder of a time-series chart from {@link dev.kneepoint.analysis.Tables#timeSeries}: x = interval
 * midpoint (s on the run clock). Each axis group holds columns of one unit: by default
 * {@code output_tokens_per_s} on the left, {@code in_flight_mean} on a first right axis and
 * {@code ttft_p99_ms, itl_p99_ms} on a second right axis; {@link Overlay}s (telemetry) get an axis each.
 */
public final class TimeSeriesPlot extends ChartBuilder<TimeSeriesPlot> {
    private final Table table;
    private final List<List<String>> groups = new ArrayList<>();
    private final List<List<Overlay>> overlays = new ArrayList<>();

    private TimeSeriesPlot(Table table) {
        this.table = Objects.requireNonNull(table, "table");
        title("Time series");
    }

    /** A builder with no axes yet; {@link #build()} uses the defaults when none is added. */
    public static TimeSeriesPlot of(Table timeSeries) {
        return new TimeSeriesPlot(timeSeries);
    }

    /** Adds an axis holding these columns (same unit); the first axis added is on the left. */
    public TimeSeriesPlot axis(String... columns) {
        groups.add(List.of(columns));
        return this;
    }

    /** Adds a telemetry overlay on its own right-hand axis. */
    public TimeSeriesPlot overlay(Overlay o) {
        overlays.add(List.of(Objects.requireNonNull(o, "overlay")));
        return this;
    }

    /** Adds telemetry overlays of one unit sharing one right-hand axis (e.g. server running and waiting). */
    public TimeSeriesPlot overlayGroup(Overlay... group) {
        if (group.length > 0) {
            overlays.add(List.of(group));
        }
        return this;
    }

    @Override
    public XYChart build() {
        List<List<String>> g = groups.isEmpty()
                ? List.of(List.of("output_tokens_per_s"), List.of("in_flight_mean"), List.of("ttft_p99_ms", "itl_p99_ms"))
                : groups;
        // The default title, "Time series", was set when this builder was made.
        XYChart c = chart(null, "time (s)", Units.axis(g.get(0).get(0)));
        double[] start = table.doubleColumn("t_start_s").asDoubleArray();
        double[] end = table.doubleColumn("t_end_s").asDoubleArray();
        double[] mid = new double[start.length];
        for (int i = 0; i < mid.length; i++) {
            mid[i] = (start[i] + end[i]) / 2;
        }
        int group = 0;
        for (List<String> cols : g) {
            List<String> drawn = new ArrayList<>();
            for (String col : cols) {
                double[][] f = ChartStyle.finite(mid, table.numberColumn(col).asDoubleArray());
                if (f[0].length == 0) {
                    continue;
                }
                add(c, col, f, group);
                drawn.add(col);
            }
            name(c, group, Units.axis(drawn.isEmpty() ? cols : drawn));
            group++;
        }
        for (List<Overlay> os : overlays) {
            boolean any = false;
            for (Overlay o : os) {
                double[][] f = ChartStyle.finite(o.timeS(), o.values());
                if (f[0].length > 0) {
                    add(c, o.name(), f, group);
                    any = true;
                }
            }
            if (any) {
                Overlay o = os.get(0);
                String title = os.size() == 1 ? o.name() : os.stream().map(Overlay::name)
                        .collect(java.util.stream.Collectors.joining(", "));
                name(c, group, title + (o.unit().isEmpty() ? "" : " (" + o.unit() + ")"));
                group++;
            }
        }
        ChartStyle.noDataIfEmpty(c);
        // Ticks at round seconds from the run's start (from the first midpoint they read 0.12, 1.62, 3.12 ...).
        double first = java.util.stream.Stream.concat(java.util.stream.Stream.of(mid),
                        overlays.stream().flatMap(List::stream).map(Overlay::timeS))
                .flatMapToDouble(java.util.Arrays::stream).filter(Double::isFinite).min().orElse(0);
        c.getStyler().setXAxisMin(Math.min(0, Math.floor(first)));
        return c;
    }

    private static void add(XYChart c, String name, double[][] f, int group) {
        XYSeries s = c.addSeries(name, f[0], f[1]);
        s.setMarker(SeriesMarkers.NONE);
        s.setYAxisGroup(group);
    }

    private static void name(XYChart c, int group, String title) {
        c.setYAxisGroupTitle(group, title);
        c.getStyler().setYAxisGroupPosition(group, group == 0 ? Styler.YAxisPosition.Left : Styler.YAxisPosition.Right);
    }
}
