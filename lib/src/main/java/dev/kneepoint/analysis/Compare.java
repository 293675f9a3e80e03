package dev.kneepoint.analysis;

import dev.kneepoint.metrics.Distribution;
import dev.kneepoint.metrics.RunResult;
import dev.kneepoint.metrics.StepResult;
import java.util.ArrayList;
import java.util.List;
import java.util.Objects;
import tech.tablesaw.api.DoubleColumn;
import tech.tablesaw.api.StringColumn;
import tech.tablesaw.api.Table;

/**
 * Compares two or more runs of the same workload against different server configurations: per-step
 * deltas of throughput and latency percentiles, with bootstrap confidence intervals on the percentile
 * differences (resampling each step's HdrHistogram, see docs/ANALYSIS.md), so noise is not sold as a win.
 * Steps are matched by label, else by equal load.
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
        for (int r = 1; r < runs.size(); r++) {
            RunResult other = runs.get(r);
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
                names.add("output_tokens_per_s");
                rows.add(new double[] {sa.outputTokensPerS(), sb.outputTokensPerS(), Double.NaN, Double.NaN, 1});
                names.add("requests_per_s");
                rows.add(new double[] {sa.requestsPerS(), sb.requestsPerS(), Double.NaN, Double.NaN, 1});
                names.add("failure_rate");
                rows.add(new double[] {sa.failureRate(), sb.failureRate(), Double.NaN, Double.NaN, -1});
                for (LatencyMetric m : o.metrics()) {
                    Distribution da = m.of(sa);
                    Distribution db = m.of(sb);
                    for (double p : o.percentiles()) {
                        long seed = Objects.hash(o.seed(), r, sa.info().label(), m.name(), p);
                        double[] ci = Bootstrap.differenceCi(da.histogram(), db.histogram(), p, o.confidence(),
                                o.resamples(), seed);
                        names.add(m.percentileColumn(p));
                        rows.add(new double[] {da.percentile(p), db.percentile(p), ci[0] / 1e6, ci[1] / 1e6, -1});
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
                    verdict.append(verdict(x));
                }
            }
        }
        Table t = Table.create("comparison", run, step, load, metric, baseline, value, delta, pct, lo, hi, verdict);
        return new Comparison(base.runId(), runs.stream().map(RunResult::runId).toList(), t,
                warnings.stream().distinct().toList(), o);
    }

    private static String verdict(double[] x) {
        if (Double.isNaN(x[0]) || Double.isNaN(x[1])) {
            return "no data";
        }
        if (Double.isNaN(x[2])) {
            return "no CI";
        }
        boolean up = x[2] > 0;
        boolean down = x[3] < 0;
        if (!up && !down) {
            return "no significant difference";
        }
        boolean higherIsBetter = x[4] > 0;
        return up == higherIsBetter ? "better" : "worse";
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
