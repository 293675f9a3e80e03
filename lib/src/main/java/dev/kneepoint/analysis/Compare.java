package dev.kneepoint.analysis;

import dev.kneepoint.metrics.RunResult;
import dev.kneepoint.metrics.StepResult;
import dev.kneepoint.metrics.Trials;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Objects;
import java.util.function.ToDoubleFunction;
import tech.tablesaw.api.Table;

/**
 * Compares two or more runs of the same workload against different server configurations: per-step
 * deltas of throughput and latency percentiles, with bootstrap confidence intervals on the percentile
 * differences (resampling each step's HdrHistogram, see docs/COMPARE.md), so noise is not sold as a win.
 * Steps are matched by label, else by equal load. A percentile difference gets a {@code better} or {@code
 * worse} verdict only when it is both significant (its interval excludes 0) and larger than a practical
 * threshold ({@link CompareOptions#minEffect}); otherwise {@code same (within X)} or {@code no significant
 * difference}.
 */
public final class Compare {
    private Compare() {}

    /** Compares {@code b} (and {@code more}) against baseline {@code a} with default options. */
    public static Comparison runs(RunResult a, RunResult b, RunResult... more) {
        List<RunResult> all = new ArrayList<>(List.of(a, b));
        all.addAll(List.of(more));
        return runs(all, CompareOptions.defaults());
    }

    /**
     * The canonical form: the first run is the baseline. A repeated load is compared as one step (its trials pooled,
     * {@link Trials#pooled}); where both runs repeated it, every row's interval is Welch's, of the difference of the
     * trials' means ({@code ci_basis} {@code trials}), which counts the variation from trial to trial that a
     * bootstrap of one pooled histogram cannot see, and gives the rate rows an interval too.
     */
    public static Comparison runs(List<RunResult> runs, CompareOptions o) {
        if (runs.size() < 2) {
            throw new IllegalArgumentException("compare needs at least 2 runs, got " + runs.size());
        }
        RunResult base = Trials.pooled(runs.get(0));
        Map<String, List<StepResult>> baseTrials = Trials.trialsOf(runs.get(0));
        List<String> warnings = new ArrayList<>();
        List<Delta> deltas = new ArrayList<>();
        for (int r = 1; r < runs.size(); r++) {
            RunResult other = Trials.pooled(runs.get(r));
            Map<String, List<StepResult>> otherTrials = Trials.trialsOf(runs.get(r));
            warnings.addAll(CompareWarnings.servers(base, other));
            for (StepResult sa : base.steps()) {
                StepResult sb = match(sa, other);
                if (sb == null) {
                    warnings.add("run " + other.runId() + " has no step matching " + sa.info().label()
                            + " (by label or load): not compared");
                    continue;
                }
                warnings.addAll(CompareWarnings.of(base, sa, other, sb, o.budgetTolerance()));
                List<StepResult> ta = baseTrials.getOrDefault(sa.info().label(), List.of());
                List<StepResult> tb = otherTrials.getOrDefault(sb.info().label(), List.of());
                boolean byTrials = ta.size() >= 2 && tb.size() >= 2;
                for (Row row : rows(o)) {
                    double[] x = {row.value().applyAsDouble(sa), row.value().applyAsDouble(sb), Double.NaN, Double.NaN,
                            row.higherIsBetter() ? 1 : -1};
                    String ciBasis = "";
                    if (byTrials) {
                        double[] ci = welch(ta, tb, row.value(), o.confidence());
                        x[2] = ci[0];
                        x[3] = ci[1];
                        ciBasis = "trials";
                    } else if (row.kind() != null) {
                        long seed = Objects.hash(o.seed(), r, sa.info().label(), row.kind().name(), row.percentile());
                        double[] ci = Bootstrap.differenceCi(row.kind().of(sa).histogram(), row.kind().of(sb).histogram(),
                                row.percentile(), o.confidence(), o.resamples(), seed);
                        x[2] = ci[0] / 1e6;
                        x[3] = ci[1] / 1e6;
                        ciBasis = "bootstrap";
                    }
                    double threshold = row.kind() == null && !byTrials ? Double.NaN : o.minEffect(row.kind(), x[0]);
                    deltas.add(new Delta(other.runId(), sb.info().label(), sa.info().load(), row.name(), x[0], x[1],
                            x[2], x[3], verdict(x, threshold, thresholdText(o, row.kind(), x[0])), threshold, ciBasis));
                }
            }
        }
        return new Comparison(base.runId(), runs.stream().map(RunResult::runId).toList(), table(deltas),
                warnings.stream().distinct().toList(), o);
    }

    /** One row of the comparison table: one metric of a run's step against the baseline's matching step. */
    private record Delta(String run, String step, double load, String metric, double baseline, double value,
                         double ciLow, double ciHigh, String verdict, double minEffect, String ciBasis) {
        double delta() {
            return value - baseline;
        }

        double deltaPct() {
            return baseline == 0 ? Double.NaN : 100 * (value - baseline) / baseline;
        }
    }

    private static Table table(List<Delta> deltas) {
        return TableRows.of(deltas)
                .text("run", Delta::run)
                .text("step", Delta::step)
                .doubles("load", Delta::load)
                .text("metric", Delta::metric)
                .doubles("baseline", Delta::baseline)
                .doubles("value", Delta::value)
                .doubles("delta", Delta::delta)
                .doubles("delta_pct", Delta::deltaPct)
                .doubles("ci_low", Delta::ciLow)
                .doubles("ci_high", Delta::ciHigh)
                .text("verdict", Delta::verdict)
                .doubles("min_effect", Delta::minEffect)
                .text("ci_basis", Delta::ciBasis)
                .table("comparison");
    }

    /**
     * One compared metric: its column name, how it is read off a step, whether higher is better, and for a latency
     * percentile its distribution and percentile (null and NaN for the rate rows).
     */
    private record Row(String name, ToDoubleFunction<StepResult> value, boolean higherIsBetter, LatencyMetric kind,
                       double percentile) {}

    /** The rows of every compared step: the three rates, then each metric's percentiles. */
    private static List<Row> rows(CompareOptions o) {
        List<Row> rows = new ArrayList<>(List.of(
                new Row("output_tokens_per_s", s -> s.rates().outputTokensPerS(), true, null, Double.NaN),
                new Row("requests_per_s", s -> s.rates().requestsPerS(), true, null, Double.NaN),
                new Row("failure_rate", s -> s.rates().failureRate(), false, null, Double.NaN)));
        for (LatencyMetric m : o.metrics()) {
            for (double p : o.percentiles()) {
                rows.add(new Row(m.percentileColumn(p), s -> m.of(s).percentile(p), false, m, p));
            }
        }
        return rows;
    }

    /**
     * Welch's interval of mean(b) − mean(a) over the trials' values (NaNs left out), {@code confidence} two-sided,
     * with the Welch–Satterthwaite degrees of freedom; NaNs when either side has fewer than 2 values.
     */
    static double[] welch(List<StepResult> a, List<StepResult> b, ToDoubleFunction<StepResult> f, double confidence) {
        Trials.Stat sa = Trials.Stat.of(a.stream().map(f::applyAsDouble).toList());
        Trials.Stat sb = Trials.Stat.of(b.stream().map(f::applyAsDouble).toList());
        if (sa.n() < 2 || sb.n() < 2) {
            return new double[] {Double.NaN, Double.NaN};
        }
        double va = sa.stddev() * sa.stddev() / sa.n();
        double vb = sb.stddev() * sb.stddev() / sb.n();
        double d = sb.mean() - sa.mean();
        if (va + vb == 0) {
            return new double[] {d, d};
        }
        double df = (va + vb) * (va + vb) / (va * va / (sa.n() - 1) + vb * vb / (sb.n() - 1));
        double half = Trials.tQuantile(confidence, df) * Math.sqrt(va + vb);
        return new double[] {d - half, d + half};
    }

    /**
     * {@code x} is baseline, value, ci low, ci high, +1 if higher is better; {@code threshold} the practical
     * threshold (NaN for rows without an interval). Significant and above the threshold: better or worse.
     * Significant but not above it, or an interval inside ±threshold (the data rule out a practical
     * difference): same. Otherwise no significant difference.
     */
    static String verdict(double[] x, double threshold, String thresholdText) {
        if (Double.isNaN(x[0]) || Double.isNaN(x[1])) {
            return "no data";
        }
        if (Double.isNaN(x[2])) {
            return "no CI";
        }
        boolean up = x[2] > 0;
        boolean down = x[3] < 0;
        boolean practical = Math.abs(x[1] - x[0]) > threshold;
        if ((up || down) && practical) {
            boolean higherIsBetter = x[4] > 0;
            return up == higherIsBetter ? "better" : "worse";
        }
        if (up || down || (x[2] >= -threshold && x[3] <= threshold)) {
            return "same (within " + thresholdText + ")";
        }
        return "no significant difference";
    }

    /** "2%" when the relative threshold decides, "0.5 ms" when the metric's absolute floor does. */
    private static String thresholdText(CompareOptions o, LatencyMetric m, double baseline) {
        Double abs = m == null ? null : o.minAbsoluteEffectMs().get(m);
        if (abs != null && abs > o.minRelativeEffect() * Math.abs(baseline)) {
            return Format.num(abs) + " ms";
        }
        return Format.num(100 * o.minRelativeEffect()) + "%";
    }

    private static StepResult match(StepResult s, RunResult other) {
        for (StepResult o : other.steps()) {
            if (o.info().label().equals(s.info().label())) {
                return o;
            }
        }
        for (StepResult o : other.steps()) {
            if (o.info().load() == s.info().load() && o.info().mode().equals(s.info().mode())) {
                return o;
            }
        }
        return null;
    }
}
