package dev.kneepoint.scenario;

import java.util.Locale;

/**
 * One metric's early-versus-late comparison in a soak (see {@link SoakDrift} for the test).
 *
 * @param metric         time-series column, e.g. {@code ttft_p99_ms}
 * @param early          intervals in the early segment that had a value
 * @param late           intervals in the late segment that had a value
 * @param earlyMedian    median of the early per-interval values
 * @param lateMedian     median of the late per-interval values
 * @param shift          Hodges–Lehmann estimate of late − early (median of all pairwise differences)
 * @param relativeChange {@code shift / |earlyMedian|} (NaN when the early median is 0)
 * @param rankBiserial   effect size {@code 2U/(n_early n_late) − 1} in [-1, 1]: +1 when every late value
 *                       exceeds every early one
 * @param pValue         two-sided Mann–Whitney p-value (normal approximation, tie and continuity corrected)
 * @param drifted        {@code pValue < alpha} and {@code |relativeChange| >= minRelativeChange}
 */
public record MetricDrift(String metric, int early, int late, double earlyMedian, double lateMedian, double shift,
                          double relativeChange, double rankBiserial, double pValue, boolean drifted) {

    /** One line: metric, medians, change, effect size, p-value and verdict. */
    public String describe() {
        return String.format(Locale.ROOT, "%-20s early %10.3f  late %10.3f  shift %+10.3f (%+6.1f%%)  r=%+.2f  p=%.2g  %s",
                metric, earlyMedian, lateMedian, shift, 100 * relativeChange, rankBiserial, pValue,
                drifted ? "DRIFT" : "stable");
    }
}
