package dev.kneepoint.plot;

import java.awt.BasicStroke;
import java.awt.Color;
import java.awt.Font;
import java.util.Locale;
import java.util.TimeZone;
import org.knowm.xchart.AnnotationText;
import org.knowm.xchart.XYChart;
import org.knowm.xchart.XYSeries;
import org.knowm.xchart.style.Styler;
import org.knowm.xchart.style.XYStyler;
import org.knowm.xchart.style.markers.Marker;
import org.knowm.xchart.style.markers.SeriesMarkers;

/** The one deterministic look of every Kneepoint chart: fixed palette, fonts, locale and sizes. */
final class ChartStyle {
    /** Default chart size, pixels. */
    static final int WIDTH = 900;
    static final int HEIGHT = 560;
    /** What a legend entry takes beside its name: the series' line and marker, and the gaps (XChart's layout). */
    private static final int LEGEND_ENTRY_PX = 60;

    /** Colour-blind-safe palette (Okabe–Ito), in series order. */
    static final Color[] PALETTE = {new Color(0, 114, 178), new Color(213, 94, 0), new Color(0, 158, 115),
        new Color(204, 121, 167), new Color(230, 159, 0), new Color(86, 180, 233), new Color(240, 228, 66),
        new Color(0, 0, 0)};
    static final Color ZONE = new Color(0, 158, 115);
    static final Color KNEE = new Color(213, 94, 0);
    static final Color GREY = new Color(120, 120, 120);

    private ChartStyle() {}

    static XYChart chart(String title, String xTitle, String yTitle, int width, int height) {
        XYChart c = new XYChart(width, height);
        c.setTitle(title);
        c.setXAxisTitle(xTitle);
        c.setYAxisTitle(yTitle);
        XYStyler s = c.getStyler();
        s.setLocale(Locale.ROOT);
        // Without a pattern XChart prints interval midpoints like 7.287500000000001.
        s.setXAxisDecimalPattern("#,##0.##");
        s.setTimezone(TimeZone.getTimeZone("UTC"));
        s.setChartBackgroundColor(Color.WHITE);
        s.setPlotBackgroundColor(Color.WHITE);
        s.setPlotBorderVisible(true);
        s.setPlotGridLinesColor(new Color(225, 225, 225));
        // Below the plot, so the plot keeps the chart's whole width (beside it, the legend took a fifth of a
        // notebook column); one row while the entries fit the width, one entry a row otherwise (fitLegend).
        s.setLegendPosition(Styler.LegendPosition.OutsideS);
        s.setLegendLayout(Styler.LegendLayout.Horizontal);
        s.setLegendBorderColor(Color.WHITE);
        s.setSeriesColors(PALETTE);
        Marker[] markers = new Marker[PALETTE.length];
        java.util.Arrays.fill(markers, SeriesMarkers.CIRCLE);
        s.setSeriesMarkers(markers);
        s.setMarkerSize(7);
        s.setChartTitleFont(new Font(Font.SANS_SERIF, Font.BOLD, 15));
        s.setAxisTitleFont(new Font(Font.SANS_SERIF, Font.PLAIN, 13));
        s.setAxisTickLabelsFont(new Font(Font.SANS_SERIF, Font.PLAIN, 11));
        s.setLegendFont(new Font(Font.SANS_SERIF, Font.PLAIN, 12));
        s.setAnnotationTextFont(new Font(Font.SANS_SERIF, Font.PLAIN, 11));
        s.setAnnotationTextFontColor(new Color(60, 60, 60));
        s.setDefaultSeriesRenderStyle(XYSeries.XYSeriesRenderStyle.Line);
        s.setToolTipsEnabled(false);
        s.setAntiAlias(true);
        return c;
    }

    /**
     * A legend below the plot in one row when its entries fit the chart's width, else one entry a row (XChart does
     * not wrap a row: the entries past the edge were cut off). Charts styled otherwise are left alone. Called by
     * {@link ChartFiles} as a chart is drawn, once its series are known.
     */
    static void fitLegend(org.knowm.xchart.internal.chartpart.Chart<?, ?> chart) {
        if (!(chart instanceof XYChart c) || c.getStyler().getLegendPosition() != Styler.LegendPosition.OutsideS) {
            return;
        }
        java.awt.Graphics2D g = new java.awt.image.BufferedImage(1, 1, java.awt.image.BufferedImage.TYPE_INT_RGB)
                .createGraphics();
        int width = 0;
        try {
            java.awt.FontMetrics m = g.getFontMetrics(c.getStyler().getLegendFont());
            for (XYSeries series : c.getSeriesMap().values()) {
                if (series.isShowInLegend()) {
                    width += m.stringWidth(series.getName()) + LEGEND_ENTRY_PX;
                }
            }
        } finally {
            g.dispose();
        }
        c.getStyler().setLegendLayout(width <= c.getWidth() - 2 * c.getStyler().getChartPadding()
                ? Styler.LegendLayout.Horizontal : Styler.LegendLayout.Vertical);
    }

    /** A marker-only series drawn on top, e.g. the knee. */
    static XYSeries points(XYChart c, String name, double[] x, double[] y, Color color, Marker marker) {
        XYSeries s = c.addSeries(name, x, y);
        s.setXYSeriesRenderStyle(XYSeries.XYSeriesRenderStyle.Scatter);
        s.setMarker(marker);
        s.setMarkerColor(color);
        s.setFillColor(color);
        s.setLineColor(color);
        return s;
    }

    /**
     * Adds the line series {@code name} of the points whose x and y are both finite ({@link #finite}), or nothing when
     * none is. Returns the series, or null when none was added.
     */
    static XYSeries finiteLine(XYChart c, String name, double[] x, double[] y) {
        double[][] f = finite(x, y);
        return f[0].length > 0 ? c.addSeries(name, f[0], f[1]) : null;
    }

    /**
     * The grey line {@code steps} through a run's steps, in step order (the marks of the knee and the like go on top):
     * their finite points, or the origin alone when none is finite.
     */
    static XYSeries steps(XYChart c, double[] x, double[] y) {
        double[][] f = finite(x, y);
        if (f[0].length == 0) {
            f = new double[][] {{0}, {0}};
        }
        XYSeries s = c.addSeries("steps", f[0], f[1]);
        s.setLineColor(GREY);
        s.setMarkerColor(GREY);
        return s;
    }

    /** A {@code no data} point at (0, 0) when the chart has no series (XChart cannot draw a chart without one). */
    static void noDataIfEmpty(XYChart c) {
        noDataIfEmpty(c, 0);
    }

    /** A {@code no data} point at ({@code x}, 0) when the chart has no series; x = 1 suits a logarithmic axis. */
    static void noDataIfEmpty(XYChart c, double x) {
        if (c.getSeriesMap().isEmpty()) {
            c.addSeries("no data", new double[] {x}, new double[] {0});
        }
    }

    /**
     * Each step's label just above its point (annotations are centred on their position, so on the point they hide
     * it); a label whose point lies close to the previous labelled one goes below instead, so the two stay apart; the
     * highest point's, which the plot's top edge would cut, goes beside it, on the side away from the middle. Points
     * that are not finite get no label. With {@code logY} the offsets are even steps of the log axis.
     */
    static void stepLabels(XYChart c, java.util.List<String> labels, double[] x, double[] y, boolean logY) {
        double[][] at = labelPositions(x, y, logY);
        for (int i = 0; i < x.length; i++) {
            if (Double.isFinite(at[0][i])) {
                c.addAnnotation(new AnnotationText(labels.get(i), at[0][i], at[1][i], false));
            }
        }
    }

    /** Where {@link #stepLabels} puts each point's label, in data coordinates; NaN for a point without one. */
    static double[][] labelPositions(double[] x, double[] y, boolean logY) {
        double[] yAxis = logY ? java.util.Arrays.stream(y).map(v -> v > 0 ? Math.log10(v) : Double.NaN).toArray() : y;
        double[][] f = finite(x, yAxis);
        double dx = range(f[0]);
        double dy = range(f[1]);
        double top = java.util.Arrays.stream(f[1]).max().orElse(0);
        double middleX = java.util.Arrays.stream(f[0]).min().orElse(0) + dx / 2;
        double[][] at = new double[2][x.length];
        double lastX = Double.NaN;
        double lastY = Double.NaN;
        boolean lastBelow = false;
        for (int i = 0; i < x.length; i++) {
            at[0][i] = Double.NaN;
            at[1][i] = Double.NaN;
            if (!Double.isFinite(x[i]) || !Double.isFinite(yAxis[i])) {
                continue;
            }
            boolean near = Math.abs(x[i] - lastX) < 0.06 * dx && Math.abs(yAxis[i] - lastY) < 0.06 * dy;
            boolean atTop = yAxis[i] > top - 0.04 * dy; // above it, the label would run into the plot's top edge
            boolean below = !atTop && near && !lastBelow;
            double atY = atTop ? yAxis[i] : yAxis[i] + (below ? -0.035 : 0.035) * dy;
            at[0][i] = atTop ? x[i] + (x[i] > middleX ? -0.06 : 0.06) * dx : x[i];
            at[1][i] = logY ? Math.pow(10, atY) : atY;
            lastX = x[i];
            lastY = yAxis[i];
            lastBelow = below;
        }
        return at;
    }

    /** The span of the values, or a positive stand-in when they are all equal (an offset still moves the label). */
    private static double range(double[] v) {
        double lo = Double.POSITIVE_INFINITY;
        double hi = Double.NEGATIVE_INFINITY;
        for (double d : v) {
            lo = Math.min(lo, d);
            hi = Math.max(hi, d);
        }
        return hi > lo ? hi - lo : Math.max(1, Math.abs(hi));
    }

    static BasicStroke dashed() {
        return new BasicStroke(1.5f, BasicStroke.CAP_BUTT, BasicStroke.JOIN_MITER, 10f, new float[] {6f, 4f}, 0f);
    }

    /** "Throughput vs latency: run-1 (vllm @ http://...)". */
    static String title(String what, String runId, String target) {
        return what + ": " + runId + (target == null || target.isBlank() ? "" : " (" + target + ")");
    }

    /** Removes NaN/infinite points (XChart cannot draw them) keeping x and y aligned. */
    static double[][] finite(double[] x, double[] y) {
        int n = 0;
        for (int i = 0; i < x.length; i++) {
            n += Double.isFinite(x[i]) && Double.isFinite(y[i]) ? 1 : 0;
        }
        double[][] out = new double[2][n];
        int k = 0;
        for (int i = 0; i < x.length; i++) {
            if (Double.isFinite(x[i]) && Double.isFinite(y[i])) {
                out[0][k] = x[i];
                out[1][k++] = y[i];
            }
        }
        return out;
    }
}
