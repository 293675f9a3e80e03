package dev.kneepoint.kernel.render;

import java.util.ArrayList;
import java.util.List;
import java.util.Locale;
import org.HdrHistogram.AbstractHistogram;

/**
 * HdrHistogram percentile spectra: values at the percentiles {@code 100·(1 − 2^-k)} (0, 50, 75, 87.5 ...),
 * the ticks HdrHistogram's own percentile distribution uses, up to the largest sample. Histograms hold
 * integer nanoseconds; the spectrum shows milliseconds.
 */
public final class SpectrumRenderer {
    private static final double NANOS_PER_MS = 1e6;

    private SpectrumRenderer() {}

    /** One spectrum point. */
    public record Point(double percentile, double valueMs, long countAtOrBelow) {}

    /** The spectrum: percentiles 0, 50, 75 ... while below 100 and the tail has samples, then the maximum. */
    public static List<Point> spectrum(AbstractHistogram h) {
        List<Point> out = new ArrayList<>();
        long total = h.getTotalCount();
        if (total == 0) {
            return out;
        }
        for (int k = 0; k <= 20; k++) {
            double pct = 100.0 * (1.0 - Math.pow(2, -k));
            if (k > 0 && total * Math.pow(2, -k) < 1) {
                break;
            }
            long v = k == 0 ? h.getMinValue() : h.getValueAtPercentile(pct);
            out.add(new Point(pct, v / NANOS_PER_MS, h.getCountBetweenValues(0, v)));
        }
        out.add(new Point(100.0, h.getMaxValue() / NANOS_PER_MS, total));
        return out;
    }

    /** The spectrum as an HTML table. */
    public static String html(AbstractHistogram h) {
        List<List<String>> rows = new ArrayList<>();
        for (Point p : spectrum(h)) {
            rows.add(List.of(String.format(Locale.ROOT, "%.5f", p.percentile()).replaceAll("0+$", "").replaceAll("\\.$", ""),
                    Html.num(p.valueMs()), Long.toString(p.countAtOrBelow())));
        }
        if (rows.isEmpty()) {
            return Html.note("Empty histogram (no samples).");
        }
        return Html.table(List.of("percentile", "value ms", "count ≤ value"), rows);
    }

    /** The spectrum as text lines. */
    public static String text(AbstractHistogram h) {
        StringBuilder b = new StringBuilder(String.format(Locale.ROOT, "%12s %14s %12s%n", "percentile", "value_ms", "count"));
        for (Point p : spectrum(h)) {
            b.append(String.format(Locale.ROOT, "%12.5f %14.3f %12d%n", p.percentile(), p.valueMs(), p.countAtOrBelow()));
        }
        return b.toString();
    }
}
