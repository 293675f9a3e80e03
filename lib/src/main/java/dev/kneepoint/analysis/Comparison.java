package dev.kneepoint.analysis;

import java.util.List;
import tech.tablesaw.api.Table;

/**
 * Runs side by side against a baseline (the first run).
 *
 * @param baselineRunId the baseline
 * @param runIds        every run, baseline first
 * @param deltas        one row per (run, step, metric): {@code run, step, load, metric, baseline, value,
 *                      delta, delta_pct, ci_low, ci_high, verdict, min_effect, ci_basis}. Percentile rows
 *                      carry a bootstrap interval on {@code delta} ({@code ci_basis} {@code bootstrap}) and their
 *                      practical threshold {@code min_effect} (ms, {@link CompareOptions#minEffect}); rate rows
 *                      have neither (NaN) and verdict {@code no CI}. Where both runs repeated the step's load,
 *                      every row, rates included, has Welch's interval of the difference of the trials' means
 *                      ({@code ci_basis} {@code trials}). Verdicts: {@code better}, {@code worse} (the interval excludes 0 and
 *                      |delta| &gt; min_effect), {@code same (within X)} (significant but |delta| ≤ min_effect,
 *                      or the whole interval inside ±min_effect; X is e.g. {@code 2%} or {@code 0.5 ms}),
 *                      {@code no significant difference}, {@code no CI}, {@code no data}.
 * @param warnings      reasons the comparison may mislead (different token budgets, modes, ladders, SLOs)
 * @param options       how the comparison was made
 */
public record Comparison(String baselineRunId, List<String> runIds, Table deltas, List<String> warnings,
                         CompareOptions options) {

    public Comparison {
        runIds = List.copyOf(runIds);
        warnings = List.copyOf(warnings);
    }

    /**
     * Rows whose verdict is {@code better} or {@code worse}: significant and larger than the practical
     * threshold.
     */
    public Table significant() {
        return deltas.where(deltas.stringColumn("verdict").isIn("better", "worse"));
    }

    @Override
    public String toString() {
        return "Comparison[baseline=" + baselineRunId + ", runs=" + runIds + ", rows=" + deltas.rowCount()
                + ", significant=" + significant().rowCount() + ", warnings=" + warnings + "]";
    }
}
