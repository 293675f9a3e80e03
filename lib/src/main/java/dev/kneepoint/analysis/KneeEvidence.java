package dev.kneepoint.analysis;

import dev.kneepoint.metrics.Distribution;
import java.util.ArrayList;
import java.util.List;
import java.util.Locale;
import java.util.stream.Collectors;

/**
 * How sure the knee is (docs/ANALYSIS.md "How sure the knee is"): a 95 % confidence interval on each step's L(x),
 * whether the latency rise out of the knee is resolved by them, and which loads would place the knee closer.
 *
 * <p>The interval of a percentile is distribution-free, from order statistics: the q-quantile of n samples lies,
 * with 95 % confidence, between the samples of rank {@code nq ∓ 1.96·√(nq(1−q))}. A rank above n has no sample:
 * the largest sample is then the upper end when {@code q^n ≤ 5 %} (the chance that every sample lies below the
 * quantile), else the interval is open upwards (+inf): a p99 over fewer than 299 requests.
 *
 * @param low     per step (load order), the lower end of L's interval (ms); NaN without requests
 * @param high    per step, the upper end (ms); +inf when the rank lies beyond the largest sample
 * @param refine  loads that split the gap between the knee and the next step, empty when there is no knee above
 *                which a step was measured or the gap is already narrow
 * @param notes   caveats on the knee, empty when it is resolved and the ladder is fine enough around it
 */
record KneeEvidence(double[] low, double[] high, List<Double> refine, List<String> notes) {

    /** The intervals' confidence. */
    static final double CONFIDENCE = 0.95;
    /** z of a two-sided 95 % interval. */
    static final double Z95 = 1.96;
    /** The ratio of neighbouring loads around the knee above which finer steps would place it closer. */
    static final double COARSE_GAP = 1.5;
    /** Loads suggested between the knee and the next step. */
    static final int REFINE_POINTS = 3;

    static KneeEvidence of(LoadCurve l, int knee) {
        int n = l.size();
        double[] low = new double[n];
        double[] high = new double[n];
        for (int i = 0; i < n; i++) {
            double[] ci = interval(l.metric().of(l.steps().get(i)), l.percentile());
            low[i] = ci[0];
            high[i] = ci[1];
        }
        List<String> notes = new ArrayList<>();
        List<Double> refine = List.of();
        if (knee >= 0 && knee + 1 < n) {
            String name = l.metric().percentileColumn(l.percentile()).replace("_ms", "").replace('_', ' ');
            if (high[knee] >= low[knee + 1]) {
                notes.add("the knee at " + l.label(knee) + " is uncertain: " + name + " there (95% CI " + range(low[knee],
                        high[knee]) + " ms) and at " + l.label(knee + 1) + " (" + range(low[knee + 1], high[knee + 1])
                        + " ms) overlap, so the rise out of the knee is within sampling error; lengthen those steps.");
            }
            if (l.load(knee + 1) / l.load(knee) > COARSE_GAP) {
                refine = between(l.load(knee), l.load(knee + 1), !l.openLoop());
                if (!refine.isEmpty()) {
                    notes.add("the knee lies between " + l.label(knee) + " and " + l.label(knee + 1)
                            + ": to place it closer, measure " + (l.openLoop() ? "--rate " : "--concurrency ")
                            + refine.stream().map(KneeEvidence::load).collect(Collectors.joining(",")) + ".");
                }
            }
        }
        return new KneeEvidence(low, high, refine, notes);
    }

    /** The 95 % interval {low, high} of the {@code percentile}-th percentile of {@code d} (ms). */
    static double[] interval(Distribution d, double percentile) {
        long n = d.count();
        if (n == 0) {
            return new double[] {Double.NaN, Double.NaN};
        }
        double q = percentile / 100;
        double half = Z95 * Math.sqrt(n * q * (1 - q));
        double lowRank = Math.max(1, Math.floor(n * q - half));
        double highRank = Math.ceil(n * q + half);
        double low = d.percentile(100 * lowRank / n);
        double high = highRank <= n ? d.percentile(Math.min(100, 100 * highRank / n))
                // no sample of that rank: the largest one still bounds the quantile when all n falling below it
                // would be rare (q^n <= 5 %: n >= 299 for a p99), else nothing bounds it from above
                : Math.pow(q, n) <= 1 - CONFIDENCE ? d.max() : Double.POSITIVE_INFINITY;
        return new double[] {low, high};
    }

    /** {@link #REFINE_POINTS} loads spaced geometrically strictly between {@code a} and {@code b}; whole when asked. */
    static List<Double> between(double a, double b, boolean whole) {
        List<Double> out = new ArrayList<>();
        for (int i = 1; i <= REFINE_POINTS; i++) {
            double x = a * Math.pow(b / a, (double) i / (REFINE_POINTS + 1));
            double v = whole ? Math.round(x) : Double.parseDouble(String.format(Locale.ROOT, "%.3g", x));
            if (v > a && v < b && !out.contains(v)) {
                out.add(v);
            }
        }
        return List.copyOf(out);
    }

    private static String load(double v) {
        return v == Math.rint(v) ? Long.toString((long) v) : Format.num(v);
    }

    private static String range(double lo, double hi) {
        return Format.num(lo) + "-" + (Double.isInfinite(hi) ? "open" : Format.num(hi));
    }
}
