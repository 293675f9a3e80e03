package dev.kneepoint.scenario;

import dev.kneepoint.analysis.TableRows;
import java.util.List;
import java.util.Locale;
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
        return TableRows.of(metrics)
                .text("metric", MetricDrift::metric)
                .ints("n_early", MetricDrift::early)
                .ints("n_late", MetricDrift::late)
                .doubles("early_median", MetricDrift::earlyMedian)
                .doubles("late_median", MetricDrift::lateMedian)
                .doubles("shift", MetricDrift::shift)
                .doubles("relative_change", MetricDrift::relativeChange)
                .doubles("rank_biserial", MetricDrift::rankBiserial)
                .doubles("p_value", MetricDrift::pValue)
                .booleans("drifted", MetricDrift::drifted)
                .table("drift");
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
