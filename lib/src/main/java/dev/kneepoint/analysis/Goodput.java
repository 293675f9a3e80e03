package dev.kneepoint.analysis;

import dev.kneepoint.metrics.RequestRecord;
import dev.kneepoint.metrics.RunResult;
import dev.kneepoint.metrics.Slo;
import dev.kneepoint.metrics.StepResult;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import tech.tablesaw.api.LongColumn;
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
            if (s == null || r.outcome().neutral()) {
                continue;
            }
            RequestRecord.Timing t = r.timing();
            long end = t.endNanos() >= 0 ? t.endNanos() : Math.max(t.lastTokenNanos(), t.dispatchNanos());
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
        // the recorded table (no counts) keeps the run's own rates and has no outcome counts
        List<Row> rows = steps.stream().map(st -> new Row(st, counts == null ? null : counts.apply(st))).toList();
        return TableRows.of(rows)
                .text("step", r -> r.s().info().label())
                .doubles("load", r -> r.s().info().load())
                .doubles("window_s", r -> r.s().windowS())
                .column(LongColumn.create("outcomes"), (c, r) -> appendOrMissing(c, r.c(), 0))
                .column(LongColumn.create("good"), (c, r) -> appendOrMissing(c, r.c(), 1))
                .doubles("goodput_rps", r -> r.c() == null ? r.s().rates().goodputRps() : r.perSecond(1))
                .doubles("good_fraction", r -> r.c() == null ? r.s().rates().goodFraction()
                        : r.c()[0] == 0 ? Double.NaN : (double) r.c()[1] / r.c()[0])
                .doubles("requests_per_s", r -> r.c() == null ? r.s().rates().requestsPerS() : r.perSecond(2))
                .table(name);
    }

    /** A step and its counts {@code {outcomes, good, requests}} (null for the recorded table). */
    private record Row(StepResult s, long[] c) {
        /** Count {@code i} over the step's window; NaN without a window. */
        double perSecond(int i) {
            double secs = s.windowS();
            return secs > 0 ? c[i] / secs : Double.NaN;
        }
    }

    private static void appendOrMissing(LongColumn column, long[] counts, int i) {
        if (counts == null) {
            column.appendMissing();
        } else {
            column.append(counts[i]);
        }
    }
}
