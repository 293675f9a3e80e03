package dev.kneepoint.scenario;

import java.util.List;
import java.util.Locale;
import tech.tablesaw.api.BooleanColumn;
import tech.tablesaw.api.DoubleColumn;
import tech.tablesaw.api.IntColumn;
import tech.tablesaw.api.StringColumn;
import tech.tablesaw.api.Table;

/**
 * What a soak's drift analysis found ({@link SoakDrift}): one comparison per metric and the failure bursts.
 *
 * @param intervals     intervals analysed (inside the soak's window)
 * @param intervalS     interval length, seconds
 * @param metrics       early-versus-late comparison of each metric
 * @param bursts        failure bursts, in time order
 * @param totalFailures failures in the analysed intervals
 * @param options       the settings used
 */
public record DriftReport(int intervals, double intervalS, List<MetricDrift> metrics, List<FailureBurst> bursts,
                          long totalFailures, DriftOptions options) {

    public DriftReport {
        metrics = List.copyOf(metrics);
        bursts = List.copyOf(bursts);
    }

    /** True when any metric drifted. */
    public boolean drifted() {
        return metrics.stream().anyMatch(MetricDrift::drifted);
    }

    /** True when the soak was stable: no drift and no failure burst. */
    public boolean stable() {
        return !drifted() && bursts.isEmpty();
    }

    /** The comparison of {@code metric}. */
    public MetricDrift metric(String metric) {
        return metrics.stream().filter(m -> m.metric().equals(metric)).findFirst()
                .orElseThrow(() -> new java.util.NoSuchElementException("No metric '" + metric + "'; metrics are "
                        + metrics.stream().map(MetricDrift::metric).toList()));
    }

    /** One row per metric: medians, shift, relative change, effect size, p-value, verdict. */
    public Table table() {
        int n = metrics.size();
        StringColumn name = StringColumn.create("metric");
        IntColumn early = IntColumn.create("n_early");
        IntColumn late = IntColumn.create("n_late");
        DoubleColumn em = DoubleColumn.create("early_median");
        DoubleColumn lm = DoubleColumn.create("late_median");
        DoubleColumn shift = DoubleColumn.create("shift");
        DoubleColumn rel = DoubleColumn.create("relative_change");
        DoubleColumn r = DoubleColumn.create("rank_biserial");
        DoubleColumn p = DoubleColumn.create("p_value");
        BooleanColumn d = BooleanColumn.create("drifted");
        for (MetricDrift m : metrics) {
            name.append(m.metric());
            early.append(m.early());
            late.append(m.late());
            em.append(m.earlyMedian());
            lm.append(m.lateMedian());
            shift.append(m.shift());
            rel.append(m.relativeChange());
            r.append(m.rankBiserial());
            p.append(m.pValue());
            d.append(m.drifted());
        }
        return Table.create("drift", name, early, late, em, lm, shift, rel, r, p, d);
    }

    /** A plain-text report: the method, each metric's line, each burst, and the verdict. */
    public String text() {
        StringBuilder sb = new StringBuilder();
        sb.append(String.format(Locale.ROOT,
                "Soak drift: %d intervals of %.1f s; early and late %.0f%% compared by a two-sided Mann-Whitney U test "
                        + "(alpha %.3g, drift needs |change| >= %.0f%%)%n", intervals, intervalS,
                100 * options.segmentFraction(), options.alpha(), 100 * options.minRelativeChange()));
        metrics.forEach(m -> sb.append("  ").append(m.describe()).append('\n'));
        sb.append(String.format(Locale.ROOT, "Failures: %d in total; bursts (Poisson tail, family-wise alpha %.3g): %d%n",
                totalFailures, options.burstAlpha(), bursts.size()));
        bursts.forEach(b -> sb.append("  ").append(b.describe()).append('\n'));
        sb.append(stable() ? "Verdict: stable" : "Verdict: " + (drifted() ? "drift" : "") + (drifted() && !bursts.isEmpty()
                ? " and " : "") + (bursts.isEmpty() ? "" : "failure bursts")).append('\n');
        return sb.toString();
    }

    @Override
    public String toString() {
        return text();
    }
}
