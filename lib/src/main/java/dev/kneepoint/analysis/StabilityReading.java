package dev.kneepoint.analysis;

import dev.kneepoint.analysis.Reading.Kind;
import dev.kneepoint.analysis.Reading.Status;
import dev.kneepoint.metrics.StepResult;
import java.util.ArrayList;
import java.util.List;
import tech.tablesaw.api.Table;

/**
 * "Failures only under sustained load: stability, not compute." Applies when some step fails at least
 * 1% of its requests and either the first failing step is at or below the knee (throughput was still
 * scaling, so compute was not exhausted) or, with the per-request table, at least 75% of the failing
 * steps' failures ended in the later half of their step's window. A target that never answered (no OK request in
 * any step) gives {@code INSUFFICIENT_DATA}: its failures are about reaching it, not about its stability.
 */
final class StabilityReading {
    private StabilityReading() {}

    static Reading of(LoadCurve l, int knee, Table requests) {
        List<Integer> failing = new ArrayList<>();
        StringBuilder list = new StringBuilder();
        for (int i = 0; i < l.size(); i++) {
            StepResult s = l.steps().get(i);
            if (s.rates().failureRate() >= Readings.FAILING) {
                failing.add(i);
                list.append(list.isEmpty() ? "" : ", ").append(s.info().label()).append(' ')
                        .append(Format.pct(s.rates().failureRate())).append(" ").append(s.counts().failuresByClass());
            }
        }
        if (!failing.isEmpty() && l.steps().stream().allMatch(s -> s.counts().requestsOk() == 0)) {
            return new Reading(Kind.STABILITY, Status.INSUFFICIENT_DATA, "The target never answered a request: "
                    + "nothing here is about its stability; fix the connection, key or model first (the failures "
                    + "name the cause).", "no OK request in any step; failing steps: " + list + ".");
        }
        if (failing.isEmpty()) {
            return new Reading(Kind.STABILITY, Status.DOES_NOT_APPLY, "No step fails: nothing to attribute.",
                    "no step with failure rate >= " + Format.pct(Readings.FAILING) + ".");
        }
        int first = failing.get(0);
        boolean belowKnee = knee < 0 || first <= knee;
        StringBuilder ev = new StringBuilder("failing steps: ").append(list).append(". First failing step ")
                .append(l.label(first)).append(knee < 0 ? " (no knee: throughput never stopped scaling)"
                        : first <= knee ? " is at or below the knee " + l.label(knee)
                        : " is above the knee " + l.label(knee)).append(". ");
        boolean late = false;
        if (requests == null) {
            ev.append("Timing within steps: no per-request table given.");
        } else {
            java.util.Map<String, Double> mids = new java.util.HashMap<>();
            for (int i : failing) {
                StepResult s = l.steps().get(i);
                mids.put(s.info().label(), (s.window().startNanos() + s.window().endNanos()) / 2e9);
            }
            // One pass over the columns (no filtered table copies: the table may hold millions of rows).
            tech.tablesaw.api.StringColumn stepCol = requests.stringColumn("step");
            tech.tablesaw.api.StringColumn outcomeCol = requests.stringColumn("outcome");
            tech.tablesaw.api.BooleanColumn warmupCol = requests.booleanColumn("warmup");
            tech.tablesaw.api.DoubleColumn endCol = requests.doubleColumn("end_s");
            long total = 0;
            long lateCount = 0;
            for (int row = 0; row < requests.rowCount(); row++) {
                Double mid = mids.get(stepCol.get(row));
                String outcome = outcomeCol.get(row);
                if (mid != null && Boolean.FALSE.equals(warmupCol.get(row)) && !outcome.equals("OK")
                        && !outcome.equals("CANCELLED") && !outcome.equals("ABANDONED")) {
                    total++;
                    lateCount += endCol.getDouble(row) >= mid ? 1 : 0;
                }
            }
            if (total > 0) {
                double share = (double) lateCount / total;
                late = share >= Readings.LATE_SHARE && total >= 4;
                ev.append(Format.pct(share)).append(" of ").append(total)
                        .append(" failures ended in the later half of their step's window (sustained means >= ")
                        .append(Format.pct(Readings.LATE_SHARE)).append(").");
            }
        }
        boolean applies = belowKnee || late;
        return new Reading(Kind.STABILITY, applies ? Status.APPLIES : Status.DOES_NOT_APPLY,
                applies ? "Failures appear while compute still scales or only as load is sustained: suspect "
                        + "stability (memory, timeouts, leaks, restarts), not raw compute."
                        : "Failures start past the knee and are not concentrated late: consistent with overload.",
                ev.toString().trim());
    }
}
