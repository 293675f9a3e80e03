package dev.kneepoint.analysis;

import dev.kneepoint.metrics.Outcome;
import dev.kneepoint.metrics.RequestRecord;
import dev.kneepoint.metrics.RunResult;
import dev.kneepoint.metrics.Slo;
import dev.kneepoint.metrics.StepResult;
import java.util.HashMap;
import java.util.Map;
import tech.tablesaw.api.DoubleColumn;
import tech.tablesaw.api.LongColumn;
import tech.tablesaw.api.StringColumn;
import tech.tablesaw.api.Table;

/**
 * Goodput under any SLO set (METRICS.md {@code goodput_rps}), recomputed from the records, per step in
 * load order, so it reads as a curve. The counting follows the step aggregator exactly: a request counts
 * in a step's window when it ends inside the window and was not cancelled (warm-up included, as with all
 * windowed rates); it is good when {@link Slo#isGood} says so on the step's basis.
 */
public final class Goodput {
    private Goodput() {}

    /**
     * Per-step goodput of {@code records} under {@code slo}, with windows from {@code run}. Columns:
     * {@code step, load, window_s, outcomes, good, goodput_rps, good_fraction, requests_per_s}.
     */
    public static Table of(Iterable<RequestRecord> records, RunResult run, Slo slo) {
        Map<String, long[]> counts = new HashMap<>();
        Map<String, StepResult> steps = new HashMap<>();
        for (StepResult s : run.steps()) {
            counts.put(s.info().label(), new long[3]);
            steps.put(s.info().label(), s);
        }
        for (RequestRecord r : records) {
            StepResult s = steps.get(r.step());
            if (s == null || r.outcome() instanceof Outcome.Cancelled) {
                continue;
            }
            long end = r.endNanos() >= 0 ? r.endNanos() : Math.max(r.lastTokenNanos(), r.dispatchNanos());
            if (!s.window().contains(end)) {
                continue;
            }
            long[] c = counts.get(r.step());
            c[0]++;
            c[1] += slo.isGood(r, s.info().isOpenLoop()) ? 1 : 0;
            c[2] += r.isOk() ? 1 : 0;
        }
        return table(run, s -> counts.get(s.info().label()), "goodput");
    }

    /** The goodput the run recorded under its own SLO, in the same columns (counts are NaN-free rates only). */
    public static Table recorded(RunResult run) {
        return table(run, null, "goodput_recorded");
    }

    private static Table table(RunResult run, java.util.function.Function<StepResult, long[]> counts, String name) {
        var steps = run.steps().stream().sorted(java.util.Comparator.comparingDouble(s -> s.info().load())).toList();
        StringColumn step = StringColumn.create("step");
        DoubleColumn load = DoubleColumn.create("load");
        DoubleColumn window = DoubleColumn.create("window_s");
        LongColumn outcomes = LongColumn.create("outcomes");
        LongColumn good = LongColumn.create("good");
        DoubleColumn goodput = DoubleColumn.create("goodput_rps");
        DoubleColumn fraction = DoubleColumn.create("good_fraction");
        DoubleColumn rps = DoubleColumn.create("requests_per_s");
        for (StepResult s : steps) {
            step.append(s.info().label());
            load.append(s.info().load());
            window.append(s.windowS());
            if (counts == null) {
                outcomes.appendMissing();
                good.appendMissing();
                goodput.append(s.goodputRps());
                fraction.append(s.goodFraction());
                rps.append(s.requestsPerS());
            } else {
                long[] c = counts.apply(s);
                double secs = s.windowS();
                outcomes.append(c[0]);
                good.append(c[1]);
                goodput.append(secs > 0 ? c[1] / secs : Double.NaN);
                fraction.append(c[0] == 0 ? Double.NaN : (double) c[1] / c[0]);
                rps.append(secs > 0 ? c[2] / secs : Double.NaN);
            }
        }
        return Table.create(name, step, load, window, outcomes, good, goodput, fraction, rps);
    }
}
