package dev.kneepoint.scenario;

import java.util.Arrays;

/** The two tests the drift report uses: Mann–Whitney U (normal approximation) and a Poisson upper tail. */
final class Stats {
    private Stats() {}

    /** Result of a two-sided Mann–Whitney U test of {@code a} against {@code b}. */
    record MannWhitney(double u, double z, double pValue, double rankBiserial) {}

    /**
     * Two-sided Mann–Whitney U test, normal approximation with tie correction and continuity correction.
     * {@code u} is U of {@code b} (the number of pairs where b exceeds a, ties counting one half);
     * {@code rankBiserial = 2U/(n_a n_b) − 1}, in [-1, 1], positive when {@code b} tends to be larger.
     */
    static MannWhitney mannWhitney(double[] a, double[] b) {
        int na = a.length;
        int nb = b.length;
        int n = na + nb;
        double[] all = new double[n];
        System.arraycopy(a, 0, all, 0, na);
        System.arraycopy(b, 0, all, na, nb);
        Integer[] order = new Integer[n];
        for (int i = 0; i < n; i++) {
            order[i] = i;
        }
        Arrays.sort(order, (x, y) -> Double.compare(all[x], all[y]));
        double[] rank = new double[n];
        double tieSum = 0;
        for (int i = 0; i < n; ) {
            int j = i;
            while (j + 1 < n && all[order[j + 1]] == all[order[i]]) {
                j++;
            }
            double r = (i + j) / 2.0 + 1;
            for (int k = i; k <= j; k++) {
                rank[order[k]] = r;
            }
            double t = j - i + 1;
            tieSum += t * t * t - t;
            i = j + 1;
        }
        double rankB = 0;
        for (int i = na; i < n; i++) {
            rankB += rank[i];
        }
        double u = rankB - nb * (nb + 1) / 2.0;
        double mean = na * (double) nb / 2.0;
        double var = na * (double) nb / 12.0 * ((n + 1) - tieSum / ((double) n * (n - 1)));
        double z = var <= 0 ? 0 : (u - mean - Math.signum(u - mean) * 0.5) / Math.sqrt(var);
        if (var > 0 && Math.abs(u - mean) <= 0.5) {
            z = 0;
        }
        double p = var <= 0 ? 1.0 : Math.min(1.0, 2 * normalUpperTail(Math.abs(z)));
        return new MannWhitney(u, z, p, 2 * u / (na * (double) nb) - 1);
    }

    /** Hodges–Lehmann shift: the median of all pairwise differences {@code b[j] − a[i]}. */
    static double hodgesLehmann(double[] a, double[] b) {
        double[] d = new double[a.length * b.length];
        int k = 0;
        for (double x : a) {
            for (double y : b) {
                d[k++] = y - x;
            }
        }
        return median(d);
    }

    static double median(double[] values) {
        if (values.length == 0) {
            return Double.NaN;
        }
        double[] v = values.clone();
        Arrays.sort(v);
        int m = v.length / 2;
        return v.length % 2 == 1 ? v[m] : (v[m - 1] + v[m]) / 2;
    }

    /** P(Z > z) for a standard normal Z, from {@link #erfc}. */
    static double normalUpperTail(double z) {
        return 0.5 * erfc(z / Math.sqrt(2));
    }

    /** Complementary error function, Numerical Recipes' Chebyshev fit (fractional error below 1.2e-7). */
    static double erfc(double x) {
        double z = Math.abs(x);
        double t = 1 / (1 + 0.5 * z);
        double r = t * Math.exp(-z * z - 1.26551223 + t * (1.00002368 + t * (0.37409196 + t * (0.09678418
                + t * (-0.18628806 + t * (0.27886807 + t * (-1.13520398 + t * (1.48851587
                + t * (-0.82215223 + t * 0.17087277)))))))));
        return x >= 0 ? r : 2 - r;
    }

    /** P(X >= k) for X ~ Poisson(lambda), summed term by term from k (exact enough for k > lambda). */
    static double poissonUpperTail(long k, double lambda) {
        if (k <= 0) {
            return 1.0;
        }
        if (lambda <= 0) {
            return 0.0;
        }
        if (k <= lambda) {
            double below = 0;
            double logTerm = -lambda;
            for (long j = 0; j < k; j++) {
                below += Math.exp(logTerm);
                logTerm += Math.log(lambda) - Math.log(j + 1);
            }
            return Math.max(0, 1 - below);
        }
        double logTerm = -lambda + k * Math.log(lambda) - logFactorial(k);
        double sum = 0;
        for (long j = k; j < k + 10_000; j++) {
            double term = Math.exp(logTerm);
            sum += term;
            if (term < sum * 1e-15) {
                break;
            }
            logTerm += Math.log(lambda) - Math.log(j + 1);
        }
        return Math.min(1.0, sum);
    }

    private static double logFactorial(long k) {
        double s = 0;
        for (long j = 2; j <= k; j++) {
            s += Math.log(j);
        }
        return s;
    }
}
