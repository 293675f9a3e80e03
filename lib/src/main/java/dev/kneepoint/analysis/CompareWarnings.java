package dev.kneepoint.analysis;

import dev.kneepoint.metrics.RunResult;
import dev.kneepoint.metrics.StepResult;
import java.util.ArrayList;
import java.util.List;

/**
 * Why a comparison may mislead: different token budgets (the source article's pitfall of comparing
 * request throughput across token budgets), loop modes or SLOs.
 */
final class CompareWarnings {
    private CompareWarnings() {}

    static List<String> of(RunResult ra, StepResult a, RunResult rb, StepResult b, double tolerance) {
        List<String> w = new ArrayList<>();
        String where = "step " + a.info().label() + ", run " + ra.runId() + " vs " + rb.runId() + ": ";
        if (!a.info().mode().equals(b.info().mode())) {
            w.add(where + "loop modes differ (" + a.info().mode() + " vs " + b.info().mode()
                    + "): latencies are not comparable");
        }
        // Mean tokens of the OK requests: the ratio of windowed rates mixes arrivals, dispatches and completions
        // inside the window and differs between identical workloads when steps are short.
        budget(w, where, "output", a.tokens().meanOutputTokens(), b.tokens().meanOutputTokens(), tolerance);
        budget(w, where, "prompt", a.tokens().meanPromptTokens(), b.tokens().meanPromptTokens(), tolerance);
        if (!a.slo().equals(b.slo())) {
            w.add(where + "SLOs differ (" + a.slo() + " vs " + b.slo() + "): recorded goodput is not comparable");
        }
        return w;
    }

    private static void budget(List<String> w, String where, String kind, double x, double y, double tolerance) {
        if (!(x > 0 && y > 0)) {
            return;
        }
        double rel = Math.abs(y - x) / x;
        if (rel > tolerance) {
            w.add(where + kind + " tokens per request differ (" + Format.num(x) + " vs " + Format.num(y) + ", "
                    + Format.pct(rel) + " > " + Format.pct(tolerance) + "): the workloads or token budgets differ, "
                    + "so requests/s is not comparable; compare tokens/s and per-token latencies instead");
        }
    }
}
