package dev.kneepoint.scenario;

import dev.kneepoint.analysis.Tables;
import dev.kneepoint.metrics.Problems;
import dev.kneepoint.metrics.RequestRecord;
import dev.kneepoint.metrics.StepWindow;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import tech.tablesaw.api.NumericColumn;
import tech.tablesaw.api.Table;

/**
 * Drift and failure bursts in a soak (a long run at one steady load): did the server get slower, or fail in
 * bursts, as time went on?
 *
 * <p><b>Drift test.</b> The soak's window is cut into fixed intervals ({@link Tables#timeSeries}); each metric
 * gives one value per interval (tokens/s, TTFT p50/p99, ITL p50/p99). The first and last
 * {@code segmentFraction} of the intervals are compared by a two-sided <b>Mann–Whitney U test</b> (normal
 * approximation with tie and continuity corrections). Why this test: per-interval percentiles are skewed and
 * carry outliers (one stall moves a p99 a lot), so a rank test that assumes neither normality nor equal
 * variances is the robust choice, and it needs no resampling, so it is deterministic. Its effect sizes are
 * the Hodges–Lehmann shift (median of all late − early differences, in the metric's unit, and relative to
 * the early median) and the rank-biserial correlation. A metric is flagged when {@code p < alpha} <i>and</i>
 * the relative shift is at least {@code minRelativeChange}: a 1% change can be significant in a long soak
 * and still not matter. Caveat: neighbouring intervals are correlated (queues carry over), which makes the
 * p-value optimistic; intervals of several seconds (many request lifetimes) keep that small.
 *
 * <p><b>Failure bursts.</b> For each interval with {@code k} failures, the expected count {@code λ} is the
 * mean of the <i>other</i> intervals (leave-one-out, so a burst does not hide itself), floored at half a
 * failure per run; the interval is a burst when {@code k >= minBurstFailures} and the Poisson tail
 * {@code P(X >= k | λ) < burstAlpha / intervals} (Bonferroni). Adjacent burst intervals merge.
 */
public final class SoakDrift {
    private SoakDrift() {}

    /** Analyses the records of a soak over its window, with the default options. */
    public static DriftReport analyze(Iterable<RequestRecord> records, StepWindow window, Duration interval) {
        return analyze(records, window, interval, DriftOptions.defaults());
    }

    /**
     * Analyses the records of a soak (warm-up records may be included: the series is about time) over the
     * intervals that lie wholly inside {@code window}.
     */
    public static DriftReport analyze(Iterable<RequestRecord> records, StepWindow window, Duration interval,
                                      DriftOptions options) {
        Table ts = Tables.timeSeries(records, interval);
        double from = window.startNanos() / 1e9 - 1e-9;
        double to = window.endNanos() / 1e9 + 1e-9;
        Table inside = ts.where(ts.doubleColumn("t_start_s").isGreaterThanOrEqualTo(from)
                .and(ts.doubleColumn("t_end_s").isLessThanOrEqualTo(to)));
        return analyze(inside, options);
    }

    /**
     * Analyses a time-series table (columns of {@link Tables#timeSeries}: {@code t_start_s, t_end_s,
     * failures} and the metrics' columns), every row of which is taken to be part of the soak.
     *
     * @throws IllegalArgumentException when fewer than 6 intervals are given (3 per segment at least) or a
     *                                  metric column is missing
     */
    public static DriftReport analyze(Table timeSeries, DriftOptions options) {
        int n = timeSeries.rowCount();
        Problems problems = new Problems().check(n >= 6,
                "need at least 6 intervals (3 early, 3 late), got " + n + ": use a shorter interval or a longer soak");
        for (String m : options.metrics()) {
            if (!timeSeries.containsColumn(m)) {
                problems.add("no column '" + m + "' in the time series; columns are " + timeSeries.columnNames());
            }
        }
        problems.throwPlainIfAny("Cannot analyse drift");
        int seg = Math.max(3, (int) Math.floor(n * options.segmentFraction()));
        List<MetricDrift> metrics = new ArrayList<>();
        for (String m : options.metrics()) {
            metrics.add(compare(m, (NumericColumn<?>) timeSeries.column(m), n, seg, options));
        }
        double intervalS = timeSeries.doubleColumn("t_end_s").getDouble(0) - timeSeries.doubleColumn("t_start_s").getDouble(0);
        long[] failures = new long[n];
        NumericColumn<?> f = (NumericColumn<?>) timeSeries.column("failures");
        long total = 0;
        for (int i = 0; i < n; i++) {
            failures[i] = Math.round(f.getDouble(i));
            total += failures[i];
        }
        List<FailureBurst> bursts = bursts(failures, timeSeries.doubleColumn("t_start_s"),
                timeSeries.doubleColumn("t_end_s"), total, options);
        return new DriftReport(n, intervalS, metrics, bursts, total, options);
    }

    private static MetricDrift compare(String name, NumericColumn<?> c, int n, int seg, DriftOptions o) {
        double[] early = values(c, 0, seg);
        double[] late = values(c, n - seg, n);
        if (early.length < 2 || late.length < 2) {
            return new MetricDrift(name, early.length, late.length, Stats.median(early), Stats.median(late),
                    Double.NaN, Double.NaN, Double.NaN, Double.NaN, false);
        }
        Stats.MannWhitney mw = Stats.mannWhitney(early, late);
        double em = Stats.median(early);
        double shift = Stats.hodgesLehmann(early, late);
        double rel = em == 0 ? Double.NaN : shift / Math.abs(em);
        boolean drifted = mw.pValue() < o.alpha() && !Double.isNaN(rel) && Math.abs(rel) >= o.minRelativeChange();
        return new MetricDrift(name, early.length, late.length, em, Stats.median(late), shift, rel,
                mw.rankBiserial(), mw.pValue(), drifted);
    }

    private static double[] values(NumericColumn<?> c, int from, int to) {
        List<Double> v = new ArrayList<>();
        for (int i = from; i < to; i++) {
            double x = c.getDouble(i);
            if (!Double.isNaN(x)) {
                v.add(x);
            }
        }
        return v.stream().mapToDouble(Double::doubleValue).toArray();
    }

    private static List<FailureBurst> bursts(long[] k, tech.tablesaw.api.DoubleColumn start,
                                             tech.tablesaw.api.DoubleColumn end, long total, DriftOptions o) {
        int n = k.length;
        double threshold = o.burstAlpha() / n;
        List<FailureBurst> out = new ArrayList<>();
        int i = 0;
        while (i < n) {
            double p = burstP(k, i, total, o);
            if (p >= threshold) {
                i++;
                continue;
            }
            int j = i;
            long failures = 0;
            double expected = 0;
            double minP = 1;
            while (j < n && (p = burstP(k, j, total, o)) < threshold) {
                failures += k[j];
                expected += expectedAt(k, j, total);
                minP = Math.min(minP, p);
                j++;
            }
            out.add(new FailureBurst(start.getDouble(i), end.getDouble(j - 1), failures, expected, minP));
            i = j;
        }
        return out;
    }

    private static double expectedAt(long[] k, int i, long total) {
        int n = k.length;
        return Math.max((total - k[i]) / (double) (n - 1), 0.5 / n);
    }

    private static double burstP(long[] k, int i, long total, DriftOptions o) {
        if (k[i] < o.minBurstFailures()) {
            return 1.0;
        }
        return Stats.poissonUpperTail(k[i], expectedAt(k, i, total));
    }
}
