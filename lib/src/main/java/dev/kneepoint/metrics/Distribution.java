package dev.kneepoint.metrics;

import java.util.Locale;
import org.HdrHistogram.Histogram;

/**
 * Summary statistics of one latency distribution, in milliseconds, computed from an HdrHistogram of
 * integer nanoseconds with 3 significant digits (METRICS.md "percentiles"). Every statistic is thus
 * exact to within 0.1% of the value (HdrHistogram's bucket width), and the mean and standard deviation
 * are computed from bucket midpoints.
 *
 * <p>An empty distribution has {@code count == 0} and NaN statistics. The histogram the statistics
 * come from is kept ({@link #histogram()}) for other percentiles, spectra and {@code .hlog} files; it is
 * a private copy that callers must not modify, and it is left out of {@link #toString()}.
 *
 * @param count     number of samples
 * @param mean      mean, ms
 * @param stddev    standard deviation, ms
 * @param min       smallest sample, ms
 * @param p50       median, ms
 * @param p90       90th percentile, ms
 * @param p95       95th percentile, ms
 * @param p99       99th percentile, ms
 * @param p999      99.9th percentile, ms
 * @param max       largest sample, ms
 * @param histogram the nanosecond histogram behind the numbers
 */
public record Distribution(long count, double mean, double stddev, double min, double p50, double p90,
                           double p95, double p99, double p999, double max, Histogram histogram) {

    private static final double NANOS_PER_MS = 1e6;

    /** Significant decimal digits of every Kneepoint histogram. */
    public static final int SIGNIFICANT_DIGITS = 3;

    /** A new, empty, auto-resizing nanosecond histogram with {@value #SIGNIFICANT_DIGITS} significant digits. */
    public static Histogram newHistogram() {
        return new Histogram(SIGNIFICANT_DIGITS);
    }

    /** Statistics of {@code nanos}; the histogram is copied, so the caller may keep recording into it. */
    public static Distribution of(Histogram nanos) {
        Histogram h = nanos.copy();
        if (h.getTotalCount() == 0) {
            return new Distribution(0, Double.NaN, Double.NaN, Double.NaN, Double.NaN, Double.NaN, Double.NaN,
                    Double.NaN, Double.NaN, Double.NaN, h);
        }
        return new Distribution(h.getTotalCount(), h.getMean() / NANOS_PER_MS,
                h.getStdDeviation() / NANOS_PER_MS, ms(h.getMinValue()),
                ms(h.getValueAtPercentile(50)), ms(h.getValueAtPercentile(90)), ms(h.getValueAtPercentile(95)),
                ms(h.getValueAtPercentile(99)), ms(h.getValueAtPercentile(99.9)), ms(h.getMaxValue()), h);
    }

    /** An empty distribution: count 0, NaN statistics. */
    public static Distribution empty() {
        return of(newHistogram());
    }

    /** Any percentile in (0, 100], ms, from the held histogram; NaN when empty. */
    public double percentile(double percentile) {
        if (!(percentile > 0 && percentile <= 100)) {
            throw new IllegalArgumentException("percentile must be in (0, 100], got " + percentile);
        }
        return count == 0 ? Double.NaN : ms(histogram.getValueAtPercentile(percentile));
    }

    private static double ms(long nanos) {
        return nanos / NANOS_PER_MS;
    }

    @Override
    public String toString() {
        if (count == 0) {
            return "Distribution[count=0]";
        }
        return String.format(Locale.ROOT,
                "Distribution[count=%d, mean=%.3f, p50=%.3f, p90=%.3f, p99=%.3f, p999=%.3f, max=%.3f ms]",
                count, mean, p50, p90, p99, p999, max);
    }
}
