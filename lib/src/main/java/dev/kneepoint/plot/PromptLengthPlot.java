package dev.kneepoint.plot;

import dev.kneepoint.analysis.Query;
import dev.kneepoint.metrics.RunResult;
import dev.kneepoint.metrics.StepResult;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Objects;
import java.util.TreeSet;
import org.knowm.xchart.XYChart;
import tech.tablesaw.api.Table;

/**
 * Builder of prompt-length curves: one line per prompt length, x = load, y = a percentile of a latency
 * column (default p99 of {@code ttft_ms}) over the measured OK requests of that prompt length at that step.
 * Prompt lengths: each distinct {@code prompt_tokens} value when there are at most 8, else the buckets
 * given by {@link #buckets} (default: quartile edges of the prompt lengths).
 */
public final class PromptLengthPlot extends ChartBuilder<PromptLengthPlot> {
    private final Table requests;
    private final RunResult run;
    private String column = "ttft_ms";
    private double percentile = 99;
    private double[] edges;

    private PromptLengthPlot(Table requests, RunResult run) {
        this.requests = Objects.requireNonNull(requests, "requests");
        this.run = Objects.requireNonNull(run, "run");
    }

    public static PromptLengthPlot of(Table requests, RunResult run) {
        return new PromptLengthPlot(requests, run);
    }

    /** A latency column of the requests table, e.g. {@code ttft_ms}, {@code e2e_ms}. */
    public PromptLengthPlot column(String column) { this.column = column; return this; }

    public PromptLengthPlot percentile(double p) { this.percentile = p; return this; }

    /** Bucket edges of {@code prompt_tokens} (used instead of distinct values). */
    public PromptLengthPlot buckets(double... edges) { this.edges = edges.clone(); return this; }

    @Override
    public XYChart build() {
        Table ok = Query.ok(Query.measured(requests));
        List<StepResult> steps = run.steps().stream().sorted(Comparator.comparingDouble(s -> s.info().load())).toList();
        boolean open = !steps.isEmpty() && steps.get(0).info().isOpenLoop();
        String key;
        Table t;
        TreeSet<Integer> distinct = new TreeSet<>();
        ok.intColumn("prompt_tokens").forEach(v -> { if (v != null) distinct.add(v); });
        if (edges == null && distinct.size() <= 8) {
            t = ok.copy();
            t.addColumns(t.intColumn("prompt_tokens").asStringColumn().setName("prompt_length"));
            key = "prompt_length";
        } else {
            double[] e = edges != null ? edges : new double[] {Query.percentile(ok, "prompt_tokens", 25),
                Query.percentile(ok, "prompt_tokens", 50), Query.percentile(ok, "prompt_tokens", 75)};
            t = Query.bucket(ok, "prompt_tokens", new TreeSet<>(java.util.Arrays.stream(e).boxed().toList())
                    .stream().mapToDouble(Double::doubleValue).toArray());
            key = "prompt_tokens_bucket";
        }
        Table p = Query.percentiles(t, column, key, "step");
        String pc = column.endsWith("_ms") ? column.substring(0, column.length() - 3) + "_p" + LoadPlot.pct(percentile) + "_ms"
                : column + "_p" + LoadPlot.pct(percentile);
        Map<String, List<double[]>> lines = new LinkedHashMap<>();
        Map<String, Double> load = new LinkedHashMap<>();
        steps.forEach(s -> load.put(s.info().label(), s.info().load()));
        boolean known = p.columnNames().contains(pc);
        for (int i = 0; i < p.rowCount(); i++) {
            Double x = load.get(p.stringColumn("step").get(i));
            double y = known ? p.doubleColumn(pc).get(i) : Query.percentile(
                    Query.step(t.where(t.stringColumn(key).isEqualTo(p.stringColumn(key).get(i))), p.stringColumn("step").get(i)),
                    column, percentile);
            if (x != null) {
                lines.computeIfAbsent(p.stringColumn(key).get(i), k -> new ArrayList<>()).add(new double[] {x, y});
            }
        }
        XYChart c = chart(ChartStyle.title(column.replace("_ms", "") + " p" + LoadPlot.pct(percentile)
                + " by prompt length", run.runId(), run.target()), Units.load(open), Units.axis(pc));
        for (Map.Entry<String, List<double[]>> e : lines.entrySet()) {
            List<double[]> pts = e.getValue();
            pts.sort(Comparator.comparingDouble(a -> a[0]));
            ChartStyle.finiteLine(c, "prompt " + e.getKey() + " tokens", pts.stream().mapToDouble(a -> a[0]).toArray(),
                    pts.stream().mapToDouble(a -> a[1]).toArray());
        }
        ChartStyle.noDataIfEmpty(c);
        return c;
    }
}
