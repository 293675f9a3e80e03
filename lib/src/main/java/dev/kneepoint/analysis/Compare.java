package dev.kneepoint.analysis;

import dev.kneepoint.metrics.Distribution;
import dev.kneepoint.metrics.RunResult;
import dev.kneepoint.metrics.StepResult;
import java.util.ArrayList;
import java.util.Collections;
import java.util.List;
import java.util.Objects;
import tech.tablesaw.api.DoubleColumn;
import tech.tablesaw.api.StringColumn;
import tech.tablesaw.api.Table;

/**
 * Compares two or more runs of the same workload against different server configurations: per-step
 * deltas of throughput and latency percentiles, with bootstrap confidence intervals on the percentile
 * differences (resampling each step's HdrHistogram, see docs/ANALYSIS.md), so noise is not sold as a win.
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

    /** The canonical form: the first run is the baseline. */
    public static Comparison runs(List<RunResult> runs, CompareOptions o) {
        if (runs.size() < 2) {
            throw new IllegalArgumentException("compare needs at least 2 runs, got " + runs.size());
        }
        RunResult base = runs.get(0);
        List<String> warnings = new ArrayList<>();
        StringColumn run = StringColumn.create("run");
        StringColumn step = StringColumn.create("step");
        DoubleColumn load = DoubleColumn.create("load");
        StringColumn metric = StringColumn.create("metric");
        DoubleColumn baseline = DoubleColumn.create("baseline");
        DoubleColumn value = DoubleColumn.create("value");
        DoubleColumn delta = DoubleColumn.create("delta");
        DoubleColumn pct = DoubleColumn.create("delta_pct");
        DoubleColumn lo = DoubleColumn.create("ci_low");
        DoubleColumn hi = DoubleColumn.create("ci_high");
        StringColumn verdict = StringColumn.create("verdict");
        DoubleColumn minEffect = DoubleColumn.create("min_effect");
        for (int r = 1; r < runs.size(); r++) {
            RunResult other = runs.get(r);
            warnings.addAll(CompareWarnings.servers(base, other));
            for (StepResult sa : base.steps()) {
                StepResult sb = match(sa, other);
                if (sb == null) {
                    warnings.add("run " + other.runId() + " has no step matching " + sa.info().label()
                            + " (by label or load): not compared");
                    continue;
                }
                warnings.addAll(CompareWarnings.of(base, sa, other, sb, o.budgetTolerance()));
                List<double[]> rows = new ArrayList<>();
                List<String> names = new ArrayList<>();
                // The latency metric of each row; null for the three rate rows, which have no interval.
                List<LatencyMetric> kinds = new ArrayList<>(Collections.nCopies(3, null));
                names.add("output_tokens_per_s");
                rows.add(new double[] {sa.rates().outputTokensPerS(), sb.rates().outputTokensPerS(), Double.NaN,
                        Double.NaN, 1});
                names.add("requests_per_s");
                rows.add(new double[] {sa.rates().requestsPerS(), sb.rates().requestsPerS(), Double.NaN, Double.NaN, 1});
                names.add("failure_rate");
                rows.add(new double[] {sa.rates().failureRate(), sb.rates().failureRate(), Double.NaN, Double.NaN, -1});
                for (LatencyMetric m : o.metrics()) {
                    Distribution da = m.of(sa);
                    Distribution db = m.of(sb);
                    for (double p : o.percentiles()) {
                        long seed = Objects.hash(o.seed(), r, sa.info().label(), m.name(), p);
                        double[] ci = Bootstrap.differenceCi(da.histogram(), db.histogram(), p, o.confidence(),
                                o.resamples(), seed);
                        names.add(m.percentileColumn(p));
                        rows.add(new double[] {da.percentile(p), db.percentile(p), ci[0] / 1e6, ci[1] / 1e6, -1});
                        kinds.add(m);
                    }
                }
                for (int i = 0; i < rows.size(); i++) {
                    double[] x = rows.get(i);
                    run.append(other.runId());
                    step.append(sb.info().label());
                    load.append(sa.info().load());
                    metric.append(names.get(i));
                    baseline.append(x[0]);
                    value.append(x[1]);
                    delta.append(x[1] - x[0]);
                    pct.append(x[0] == 0 ? Double.NaN : 100 * (x[1] - x[0]) / x[0]);
                    lo.append(x[2]);
                    hi.append(x[3]);
                    LatencyMetric kind = kinds.get(i);
                    double threshold = kind == null ? Double.NaN : o.minEffect(kind, x[0]);
                    minEffect.append(threshold);
                    verdict.append(verdict(x, threshold, thresholdText(o, kind, x[0])));
                }
            }
        }
        Table t = Table.create("comparison", run, step, load, metric, baseline, value, delta, pct, lo, hi, verdict,
                minEffect);
        return new Comparison(base.runId(), runs.stream().map(RunResult::runId).toList(), t,
                warnings.stream().distinct().toList(), o);
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
