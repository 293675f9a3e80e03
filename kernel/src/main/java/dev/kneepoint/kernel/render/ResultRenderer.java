package dev.kneepoint.kernel.render;

import dev.kneepoint.analysis.TrialTables;
import dev.kneepoint.metrics.Distribution;
import dev.kneepoint.metrics.RunResult;
import dev.kneepoint.metrics.StepProgress;
import dev.kneepoint.sweep.SweepProgress;
import dev.kneepoint.metrics.StepResult;
import java.util.ArrayList;
import java.util.List;
import java.util.Locale;
import java.util.Map;

/** Compact HTML summaries of run, step, distribution and progress values. */
public final class ResultRenderer {
    private ResultRenderer() {}

    static final List<String> STEP_HEADER = List.of("step", "load", "window s", "ok", "failed", "cancelled", "out tok/s", "req/s",
            "goodput rps", "concurrency", "ttft p50 ms", "ttft p99 ms", "ttft_sched p99 ms", "itl p50 ms", "itl p99 ms",
            "e2e p99 ms");

    static List<String> stepRow(StepResult s) {
        StepResult.Rates rates = s.rates();
        StepResult.Latency lat = s.latency();
        return List.of(s.info().label(), Html.num(s.info().load()), Html.num(s.windowS()),
                Long.toString(s.counts().requestsOk()), Long.toString(s.counts().requestsFailed()),
                Long.toString(s.counts().cancelled()), Html.num(rates.outputTokensPerS()), Html.num(rates.requestsPerS()), Html.num(rates.goodputRps()),
                Html.num(rates.concurrencyMean()), Html.num(lat.ttft().p50()), Html.num(lat.ttft().p99()),
                Html.num(lat.ttftSched().p99()), Html.num(lat.itl().p50()), Html.num(lat.itl().p99()),
                Html.num(lat.e2e().p99()));
    }

    /** One row per step, with the run's identity above and flags (incomplete run, failures) below. */
    public static String html(RunResult r) {
        StringBuilder b = new StringBuilder();
        b.append("<p><b>Run ").append(Html.escape(r.runId())).append("</b>");
        if (!r.target().isBlank()) {
            b.append(" — ").append(Html.escape(r.target()));
        }
        b.append(" <small>(started ").append(Html.escape(r.startTime().toString())).append(", ")
                .append(r.steps().size()).append(r.steps().size() == 1 ? " step" : " steps")
                .append(r.complete() ? "" : ", <b>incomplete</b>").append(")</small></p>\n");
        List<List<String>> rows = new ArrayList<>();
        for (StepResult s : r.steps()) {
            rows.add(stepRow(s));
        }
        b.append(Html.table(STEP_HEADER, rows));
        failures(r.steps(), b);
        String trials = TrialTables.text(r);
        if (!trials.isEmpty()) {
            b.append("\n<details><summary>repeat trials: mean ± 95 % interval across trials</summary>\n<pre>")
                    .append(Html.escape(trials)).append("</pre>\n</details>");
        }
        return b.toString();
    }

    /** The step as a one-row table plus its failure classes. */
    public static String html(StepResult s) {
        StringBuilder b = new StringBuilder(Html.table(STEP_HEADER, List.of(stepRow(s))));
        if (!s.window().completed()) {
            b.append('\n').append(Html.note("Stopped early: the window ends at the stop."));
        }
        failures(List.of(s), b);
        return b.toString();
    }

    private static void failures(List<StepResult> steps, StringBuilder b) {
        List<String> parts = new ArrayList<>();
        for (StepResult s : steps) {
            for (Map.Entry<String, Long> e : s.counts().failuresByClass().entrySet()) {
                parts.add(s.info().label() + ": " + e.getKey() + " × " + e.getValue());
            }
        }
        if (!parts.isEmpty()) {
            b.append('\n').append(Html.note("Failures — " + String.join(", ", parts)));
        }
        List<String> cancelled = perStep(steps, s -> s.counts().cancelled());
        if (!cancelled.isEmpty()) {
            b.append('\n').append(Html.note("Cancelled (stopped on request, not counted as failures) — "
                    + String.join(", ", cancelled)));
        }
        List<String> resent = perStep(steps, s -> s.counts().retried());
        if (!resent.isEmpty()) {
            b.append('\n').append(Html.note("Resent on a fresh connection (stale keep-alive; latency counts from the"
                    + " first attempt) — " + String.join(", ", resent)));
        }
    }

    /** {@code label: n} of each step whose {@code count} is above 0. */
    private static List<String> perStep(List<StepResult> steps, java.util.function.ToLongFunction<StepResult> count) {
        return steps.stream().filter(s -> count.applyAsLong(s) > 0)
                .map(s -> s.info().label() + ": " + count.applyAsLong(s)).toList();
    }

    /** Summary statistics in ms, then the percentile spectrum of the histogram behind them. */
    public static String html(Distribution d) {
        if (d.count() == 0) {
            return Html.note("Empty distribution (no samples).");
        }
        String stats = Html.table(List.of("count", "mean ms", "stddev ms", "min ms", "p50 ms", "p90 ms", "p95 ms",
                        "p99 ms", "p99.9 ms", "max ms"),
                List.of(List.of(Long.toString(d.count()), Html.num(d.mean()), Html.num(d.stddev()), Html.num(d.min()),
                        Html.num(d.p50()), Html.num(d.p90()), Html.num(d.p95()), Html.num(d.p99()),
                        Html.num(d.p999()), Html.num(d.max()))));
        return stats + "\n<details><summary>percentile spectrum</summary>\n"
                + SpectrumRenderer.html(d.histogram()) + "\n</details>";
    }

    /** A live progress snapshot: one line of text. */
    public static String text(StepProgress p) {
        return String.format(Locale.ROOT, "step %s: %d done, %d failed, %s out tok/s, ttft p99 %s ms (sched %s ms)%s",
                p.step(), p.requestsDone(), p.requestsFailed(), Html.num(p.outputTokensPerS()), Html.num(p.ttftP99Ms()),
                Html.num(p.ttftSchedP99Ms()), p.inFlight() >= 0 ? ", " + p.inFlight() + " in flight" : "");
    }

    /**
     * Where a sweep is, in a few words: {@code "step 3 of 6 (c=16), about 14 s left"}; a sweep that plans as it goes
     * (a search, a rate sweep) gives its bound: {@code "step 3 of at most 12 (c=4), at most about 2 min left"}.
     */
    public static String headline(SweepProgress p) {
        if (p.stepNumber() == 0) {
            return "starting (preparing the first step)";
        }
        double left = p.remainingS();
        String about = p.stepsAtMost() > 0 ? "at most about" : "about";
        String time = Double.isNaN(left) ? "" : left < 90
                ? String.format(Locale.ROOT, ", %s %.0f s left", about, left)
                : String.format(Locale.ROOT, ", %s %.0f min left", about, left / 60);
        return "step " + p.stepNumber() + " of " + (p.stepsAtMost() > 0 ? "at most " : "") + p.stepsBound() + " ("
                + p.stepLabel() + ")" + time;
    }

    /** A live progress snapshot as a one-row table. */
    public static String html(StepProgress p) {
        return Html.table(List.of("step", "done", "failed", "warm-up", "out tok/s", "ttft p99 ms", "ttft_sched p99 ms",
                        "in flight"),
                List.of(List.of(p.step(), Long.toString(p.requestsDone()), Long.toString(p.requestsFailed()),
                        Long.toString(p.warmupRequests()), Html.num(p.outputTokensPerS()), Html.num(p.ttftP99Ms()),
                        Html.num(p.ttftSchedP99Ms()), p.inFlight() >= 0 ? Integer.toString(p.inFlight()) : "–")));
    }
}
