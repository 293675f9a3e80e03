package dev.kneepoint.analysis;

import com.fasterxml.jackson.databind.JsonNode;
import dev.kneepoint.io.RunLoader;
import dev.kneepoint.metrics.RunResult;
import dev.kneepoint.metrics.StepResult;
import java.util.ArrayList;
import java.util.List;
import java.util.Optional;
import java.util.TreeSet;

/**
 * Why a comparison may mislead: different token budgets (the source article's pitfall of comparing
 * request throughput across token budgets), loop modes or SLOs per step; different servers per run.
 */
final class CompareWarnings {
    private static final String DIFFERENT_SERVERS =
            ": the comparison measures different servers, not only a configuration change";

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

    /**
     * Run-level: the servers the two runs measured differ in engine, version, model or GPUs, as each run directory's
     * manifest records them ({@code config.server}, docs/SERVERS.md "Server identity"). One warning per differing
     * field. Nothing when either run has no directory, no readable manifest or no server object; a field either
     * manifest lacks (or an {@code unknown} engine) is not compared.
     */
    static List<String> servers(RunResult ra, RunResult rb) {
        Optional<JsonNode> a = ra.directory().flatMap(RunLoader::server);
        Optional<JsonNode> b = rb.directory().flatMap(RunLoader::server);
        if (a.isEmpty() || b.isEmpty()) {
            return List.of();
        }
        List<String> w = new ArrayList<>();
        String where = "run " + ra.runId() + " vs " + rb.runId() + ": ";
        for (String[] f : new String[][] {{"engine", "server engines"}, {"version", "server versions"},
                {"model", "server models"}}) {
            String x = text(a.get(), f[0]);
            String y = text(b.get(), f[0]);
            if (x != null && y != null && !x.equals(y)) {
                w.add(where + f[1] + " differ (" + x + " vs " + y + ")" + DIFFERENT_SERVERS);
            }
        }
        int ca = a.get().path("gpu_count").asInt(-1);
        int cb = b.get().path("gpu_count").asInt(-1);
        TreeSet<String> na = names(a.get());
        TreeSet<String> nb = names(b.get());
        if ((ca >= 0 && cb >= 0 && ca != cb) || (!na.isEmpty() && !nb.isEmpty() && !na.equals(nb))) {
            w.add(where + "GPUs differ (" + gpus(ca, na) + " vs " + gpus(cb, nb) + ")" + DIFFERENT_SERVERS);
        }
        return w;
    }

    /** A recorded scalar, or null (absent, null, an object, or the engine {@code unknown}: nothing identified). */
    private static String text(JsonNode server, String field) {
        JsonNode v = server.path(field);
        if (!v.isValueNode() || v.isNull() || (field.equals("engine") && v.asText().equals("unknown"))) {
            return null;
        }
        return v.asText();
    }

    private static TreeSet<String> names(JsonNode server) {
        TreeSet<String> names = new TreeSet<>();
        server.path("gpus").forEach(n -> names.add(n.asText()));
        return names;
    }

    /** {@code 2 x NVIDIA H100}, {@code 3 GPUs (A, B)}, {@code 2 GPUs}, or just the names when no count was recorded. */
    private static String gpus(int count, TreeSet<String> names) {
        if (count < 0) {
            return String.join(", ", names);
        }
        if (names.size() == 1) {
            return count + " x " + names.first();
        }
        String n = count + (count == 1 ? " GPU" : " GPUs");
        return names.isEmpty() ? n : n + " (" + String.join(", ", names) + ")";
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
