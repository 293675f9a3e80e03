package dev.kneepoint.analysis;

import java.util.Arrays;
import java.util.SplittableRandom;
import org.HdrHistogram.Histogram;
import org.HdrHistogram.HistogramIterationValue;

/**
 * Bootstrap confidence intervals for the difference of a percentile between two samples held as
 * HdrHistograms, without materialising resamples.
 *
 * <p>Resampling n values with replacement from the empirical distribution F and taking the nearest-rank
 * p-th percentile gives the k-th order statistic, k = ⌈p·n⌉, of the resample. By inverse-transform
 * sampling that is {@code F⁻¹(U₍ₖ₎)} where {@code U₍ₖ₎ ~ Beta(k, n − k + 1)} is the k-th order statistic of
 * n uniforms. So one Beta draw per sample and replicate is an exact bootstrap replicate of the
 * percentile; the interval is the percentile-bootstrap interval of the differences (b − a).
 */
final class Bootstrap {
    private final long[] values;
    private final long[] cumulative;
    private final long n;

    Bootstrap(Histogram h) {
        int size = 0;
        for (HistogramIterationValue v : h.recordedValues()) {
            size++;
        }
        values = new long[size];
        cumulative = new long[size];
        long total = 0;
        int i = 0;
        for (HistogramIterationValue v : h.recordedValues()) {
            total += v.getCountAtValueIteratedTo();
            values[i] = v.getValueIteratedTo();
            cumulative[i++] = total;
        }
        n = total;
    }

    long count() {
        return n;
    }

    /** The value of rank r (1-based) in the sorted sample. */
    long valueAtRank(long r) {
        int i = Arrays.binarySearch(cumulative, r);
        return values[i >= 0 ? i : -i - 1];
    }

    /** One bootstrap replicate of the nearest-rank percentile. */
    long replicate(double percentile, SplittableRandom rnd) {
        long k = Math.max(1, (long) Math.ceil(percentile / 100.0 * n));
        double u = beta(k, n - k + 1, rnd);
        return valueAtRank(Math.min(n, Math.max(1, (long) Math.ceil(u * n))));
    }

    /**
     * Percentile-bootstrap interval of {@code p(b) − p(a)} in the histograms' unit, at two-sided
     * {@code confidence}, from {@code resamples} replicates; {@code [NaN, NaN]} when either is empty.
     */
    static double[] differenceCi(Histogram a, Histogram b, double percentile, double confidence, int resamples,
                                 long seed) {
        Bootstrap ba = new Bootstrap(a);
        Bootstrap bb = new Bootstrap(b);
        if (ba.n == 0 || bb.n == 0) {
            return new double[] {Double.NaN, Double.NaN};
        }
        SplittableRandom rnd = new SplittableRandom(seed);
        double[] d = new double[resamples];
        for (int i = 0; i < resamples; i++) {
            d[i] = bb.replicate(percentile, rnd) - ba.replicate(percentile, rnd);
        }
        Arrays.sort(d);
        double alpha = (1 - confidence) / 2;
        return new double[] {quantile(d, alpha), quantile(d, 1 - alpha)};
    }

    private static double quantile(double[] sorted, double q) {
        int i = (int) Math.floor(q * (sorted.length - 1));
        double f = q * (sorted.length - 1) - i;
        return i + 1 < sorted.length ? sorted[i] * (1 - f) + sorted[i + 1] * f : sorted[i];
    }

    /** Beta(a, b) as X / (X + Y) with X ~ Gamma(a), Y ~ Gamma(b). */
    static double beta(double a, double b, SplittableRandom rnd) {
        double x = gamma(a, rnd);
        double y = gamma(b, rnd);
        return x / (x + y);
    }

    /** Marsaglia–Tsang gamma variate with shape {@code a ≥ 1} (all shapes here are integers ≥ 1). */
    static double gamma(double a, SplittableRandom rnd) {
        double d = a - 1.0 / 3;
        double c = 1 / Math.sqrt(9 * d);
        while (true) {
            double x;
            double v;
            do {
                x = gaussian(rnd);
                v = 1 + c * x;
            } while (v <= 0);
            v = v * v * v;
            double u = rnd.nextDouble();
            if (u < 1 - 0.0331 * x * x * x * x || Math.log(u) < 0.5 * x * x + d * (1 - v + Math.log(v))) {
                return d * v;
            }
        }
    }

    private static double gaussian(SplittableRandom rnd) {
        double u;
        double v;
        double s;
        do {
            u = 2 * rnd.nextDouble() - 1;
            v = 2 * rnd.nextDouble() - 1;
            s = u * u + v * v;
        } while (s >= 1 || s == 0);
        return u * Math.sqrt(-2 * Math.log(s) / s);
    }
}
