package dev.kneepoint.analysis;

import dev.kneepoint.metrics.RunResult;
import dev.kneepoint.metrics.Slo;
import dev.kneepoint.metrics.StepResult;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import tech.tablesaw.api.Table;

/**
 * The verdict of a run for machines: what {@code analysis.json} in a run directory holds (docs/ANALYSIS.md
 * "analysis.json" documents every field). Keys are stable snake_case; a number that does not exist (no knee, an
 * interval open upwards) is {@code null}, never NaN; every verdict that can be absent says why.
 */
public final class AnalysisJson {
    /** The file name in a run directory. */
    public static final String FILE = "analysis.json";
    /** Bumped when a field changes meaning or is removed (added fields keep it). */
    public static final int SCHEMA_VERSION = 1;

    private AnalysisJson() {}

    /** {@code run}'s analysis {@code k} as a tree of maps, lists, strings, numbers, booleans and nulls. */
    public static Map<String, Object> of(RunResult run, KneeReport k) {
        return of(run, k, null);
    }

    /** {@link #of(RunResult, KneeReport)} with the run's cost figures ({@code efficiency}; null: none known). */
    public static Map<String, Object> of(RunResult run, KneeReport k, Efficiency efficiency) {
        Map<String, Object> m = new LinkedHashMap<>();
        m.put("schema_version", SCHEMA_VERSION);
        m.put("run_id", k.runId());
        m.put("throughput_metric", k.throughputColumn());
        m.put("latency_metric", k.latencyColumn());
        m.put("slo", slo(k.slo()));
        m.put("answer", k.answer().sentences());
        m.put("caveats", k.answer().caveats());
        m.put("knee", point(k.kneeStep(), k.kneeLoad(), k.steps().rowCount() < 3
                ? "fewer than 3 steps: no knee verdict" : "no knee in the tested range: inelastic segments never "
                + "persist"));
        m.put("efficient_zone", k.efficientZone());
        m.put("recommended", point(k.recommendedStep(), k.recommendedLoad(),
                "no step at or below the knee meets the SLO set"));
        String closedWithoutSlo = "not judged: a closed loop without a latency SLO sustains every load, only slower";
        boolean open = run.steps().stream().anyMatch(s -> s.info().isOpenLoop());
        m.put("max_sustainable", point(k.maxSustainableStep(), k.maxSustainableLoad(), open || !k.slo().isEmpty()
                ? "no step meets the SLO set" + (open ? " and kept up with its offered rate" : "") : closedWithoutSlo));
        Map<String, Object> points = new LinkedHashMap<>();
        points.put("latency_first", operatingPoint(k.operatingPoints().latencyFirst()));
        points.put("throughput_first", operatingPoint(k.operatingPoints().throughputFirst()));
        m.put("operating_points", points);
        m.put("refine_loads", k.refineLoads());
        m.put("slo_search", k.sloCapacity() == null ? null : search(k.sloCapacity()));
        m.put("efficiency", efficiency == null || !efficiency.known() ? null : efficiency(efficiency));
        m.put("steps", steps(run, k));
        List<Map<String, Object>> readings = new ArrayList<>();
        for (Reading r : k.readings()) {
            Map<String, Object> x = new LinkedHashMap<>();
            x.put("kind", lower(r.kind().name()));
            x.put("status", lower(r.status().name()));
            x.put("finding", r.finding());
            x.put("evidence", r.evidence());
            readings.add(x);
        }
        m.put("readings", readings);
        return m;
    }

    private static List<Map<String, Object>> steps(RunResult run, KneeReport k) {
        Table t = k.steps();
        String lat = k.latencyColumn();
        String low = lat.replace("_ms", "_ci_low_ms");
        String high = lat.replace("_ms", "_ci_high_ms");
        List<Map<String, Object>> out = new ArrayList<>();
        for (int i = 0; i < t.rowCount(); i++) {
            String label = t.stringColumn("step").get(i);
            StepResult s = run.step(label);
            Map<String, Object> x = new LinkedHashMap<>();
            x.put("step", label);
            x.put("load", num(t.doubleColumn("load").getDouble(i)));
            x.put("throughput", num(t.doubleColumn(k.throughputColumn()).getDouble(i)));
            x.put("latency", num(t.doubleColumn(lat).getDouble(i)));
            x.put("latency_ci_low", num(t.doubleColumn(low).getDouble(i)));
            x.put("latency_ci_high", num(t.doubleColumn(high).getDouble(i)));
            x.put("meets_slo", Boolean.TRUE.equals(t.booleanColumn("meets_slo").get(i)));
            String v = t.stringColumn("slo_violations").get(i);
            x.put("slo_violations", v.isEmpty() ? List.of() : Arrays.asList(v.split("; ")));
            x.put("role", t.stringColumn("role").get(i));
            x.put("client_bound", Boolean.TRUE.equals(t.booleanColumn("client_bound").get(i)));
            Map<String, Object> a = new LinkedHashMap<>();
            a.put("ok_requests", s.counts().requestsOk());
            a.put("thin_percentile", Adequacy.thin(s));
            a.put("short_window", Adequacy.windowTooShort(s));
            a.put("no_steady_state", Adequacy.trending(s));
            x.put("adequacy", a);
            out.add(x);
        }
        return out;
    }

    private static Map<String, Object> efficiency(Efficiency e) {
        Map<String, Object> x = new LinkedHashMap<>();
        x.put("gpus", e.gpus() > 0 ? e.gpus() : null);
        x.put("gpus_from", e.gpusFrom());
        x.put("price_per_hour_usd", num(e.pricePerHour()));
        x.put("power_sampled", e.powerSampled());
        x.put("steps", e.steps().stream().map(r -> {
            Map<String, Object> y = new LinkedHashMap<>();
            y.put("step", r.step());
            y.put("output_tokens_per_s_per_gpu", num(r.outputTokensPerSPerGpu()));
            y.put("usd_per_mtok_output", num(r.usdPerMtokOutput()));
            y.put("usd_per_mtok_input", num(r.usdPerMtokInput()));
            y.put("gpu_power_w", num(r.gpuPowerW()));
            y.put("joules_per_output_token", num(r.joulesPerOutputToken()));
            y.put("output_tokens_per_joule", num(r.outputTokensPerJoule()));
            return y;
        }).toList());
        return x;
    }

    private static Map<String, Object> search(SloCapacity c) {
        Map<String, Object> x = new LinkedHashMap<>();
        x.put("dimension", c.dimension());
        x.put("target_attainment", c.target());
        x.put("tolerance", c.tolerance());
        x.put("max_passing", probe(c.maxPassing()));
        x.put("min_failing", probe(c.minFailing()));
        x.put("closed", c.closed());
        x.put("uncertain", c.uncertain());
        x.put("answer", c.sentence());
        x.put("probes", c.probes().stream().map(AnalysisJson::probe).toList());
        return x;
    }

    private static Map<String, Object> probe(SloCapacity.Probe p) {
        if (p == null) {
            return null;
        }
        Map<String, Object> x = new LinkedHashMap<>();
        x.put("step", p.step());
        x.put("load", num(p.load()));
        x.put("requests", p.requests());
        x.put("good", p.good());
        x.put("attainment", num(p.attainment()));
        x.put("attainment_ci_low", num(p.low()));
        x.put("attainment_ci_high", num(p.high()));
        x.put("passes", p.passes());
        return x;
    }

    private static Map<String, Object> point(String step, double load, String reasonWhenNone) {
        Map<String, Object> p = new LinkedHashMap<>();
        p.put("step", step);
        p.put("load", step == null ? null : num(load));
        if (step == null) {
            p.put("reason", reasonWhenNone);
        }
        return p;
    }

    private static Map<String, Object> operatingPoint(OperatingPoints.Point p) {
        Map<String, Object> x = new LinkedHashMap<>();
        x.put("step", p.step());
        x.put("load", p.named() ? num(p.load()) : null);
        x.put("why", p.why());
        return x;
    }

    private static Map<String, Object> slo(Slo slo) {
        if (slo.isEmpty()) {
            return null;
        }
        Map<String, Object> x = new LinkedHashMap<>();
        x.put("ttft_ms", num(slo.ttftMs()));
        x.put("tpot_ms", num(slo.tpotMs()));
        x.put("itl_ms", num(slo.itlMs()));
        x.put("itl_percentile", num(slo.itlPercentile()));
        x.put("e2e_ms", num(slo.e2eMs()));
        x.put("basis", lower(slo.basis().name()));
        return x;
    }

    private static Double num(double v) {
        return Double.isFinite(v) ? v : null;
    }

    private static String lower(String name) {
        return name.toLowerCase(Locale.ROOT);
    }
}
