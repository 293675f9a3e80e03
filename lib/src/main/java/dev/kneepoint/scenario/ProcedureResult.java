package dev.kneepoint.scenario;

import dev.kneepoint.analysis.KneeReport;
import dev.kneepoint.metrics.RunResult;
import dev.kneepoint.metrics.StepResult;
import dev.kneepoint.analysis.Knee;
import dev.kneepoint.plot.ComparePlot;
import dev.kneepoint.plot.Plots;
import dev.kneepoint.workload.Calibration;
import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import org.knowm.xchart.XYChart;
import tech.tablesaw.api.DoubleColumn;
import tech.tablesaw.api.IntColumn;
import tech.tablesaw.api.StringColumn;
import tech.tablesaw.api.Table;

/**
 * Everything the {@link Procedure} found: each stage's run, the knee report of the main ladder, the soak's
 * drift report, the joint table and a plain summary.
 *
 * @param environment  stage 1: host, OS, CPUs, JVM, heap, target URL, model, API, prompt-length calibration
 * @param calibration  how prompt lengths were made exact
 * @param options      the settings used
 * @param started      wall-clock start
 * @param elapsed      wall-clock length of the whole procedure
 * @param warmup       stage 2 (excluded from every analysis)
 * @param baseline     stage 3
 * @param ladder       stage 4
 * @param longPrompts  stage 5
 * @param longOutputs  stage 6
 * @param soak         stage 7
 * @param soakUsers    concurrency the soak ran at
 * @param drift        stage 7's drift and failure-burst report
 * @param soakSeries   stage 7's time series ({@code Tables.timeSeries} at the soak interval)
 * @param knee         stage 9: knee, efficient zone and recommended point of stage 4 under the SLOs
 * @param joint        stage 8: one row per stage × step of stages 3–6 (see {@link #joint()})
 */
public record ProcedureResult(Map<String, String> environment, Calibration calibration, ProcedureOptions options,
                              Instant started, Duration elapsed, RunResult warmup, RunResult baseline,
                              RunResult ladder, RunResult longPrompts, RunResult longOutputs, RunResult soak,
                              int soakUsers, DriftReport drift, Table soakSeries, KneeReport knee, Table joint) {

    static ProcedureResult of(Map<String, String> env, Calibration cal, ProcedureOptions o, Instant started,
                              RunResult warmup, RunResult baseline, RunResult ladder, RunResult longPrompts,
                              RunResult longOutputs, RunResult soak, int soakUsers, DriftReport drift, Table series,
                              KneeReport knee) {
        Map<String, RunResult> stages = new LinkedHashMap<>();
        stages.put("baseline", baseline);
        stages.put("ladder", ladder);
        stages.put("long_prompts", longPrompts);
        stages.put("long_outputs", longOutputs);
        int[] in = {o.promptTokens(), o.promptTokens(), o.promptTokens() * o.longFactor(), o.promptTokens()};
        int[] out = {o.outputTokens(), o.outputTokens(), o.outputTokens(), o.outputTokens() * o.longFactor()};
        return new ProcedureResult(Map.copyOf(env), cal, o, started, Duration.between(started, Instant.now()), warmup,
                baseline, ladder, longPrompts, longOutputs, soak, soakUsers, drift, series, knee,
                jointTable(stages, in, out));
    }

    public ProcedureResult {
        environment = java.util.Collections.unmodifiableMap(new java.util.TreeMap<>(environment));
    }

    /**
     * Stage 8's table: columns {@code stage, step, concurrency, prompt_tokens, output_tokens, ttft_p50_ms,
     * ttft_p99_ms, itl_p50_ms, itl_p99_ms, tpot_p50_ms, e2e_p99_ms, output_tokens_per_s, input_tokens_per_s,
     * total_tokens_per_s, failure_rate}.
     */
    static Table jointTable(Map<String, RunResult> stages, int[] in, int[] out) {
        StringColumn stage = StringColumn.create("stage");
        StringColumn step = StringColumn.create("step");
        IntColumn conc = IntColumn.create("concurrency");
        IntColumn prompt = IntColumn.create("prompt_tokens");
        IntColumn output = IntColumn.create("output_tokens");
        List<DoubleColumn> cols = new ArrayList<>();
        for (String c : List.of("ttft_p50_ms", "ttft_p99_ms", "itl_p50_ms", "itl_p99_ms", "tpot_p50_ms", "e2e_p99_ms",
                "output_tokens_per_s", "input_tokens_per_s", "total_tokens_per_s", "failure_rate")) {
            cols.add(DoubleColumn.create(c));
        }
        int k = 0;
        for (Map.Entry<String, RunResult> e : stages.entrySet()) {
            for (StepResult s : e.getValue().steps()) {
                stage.append(e.getKey());
                step.append(s.info().label());
                conc.append(s.info().concurrency());
                prompt.append(in[k]);
                output.append(out[k]);
                StepResult.Latency lat = s.latency();
                StepResult.Rates rates = s.rates();
                double[] v = {lat.ttft().p50(), lat.ttft().p99(), lat.itl().p50(), lat.itl().p99(), lat.tpot().p50(),
                        lat.e2e().p99(), rates.outputTokensPerS(), rates.inputTokensPerS(),
                        rates.outputTokensPerS() + rates.inputTokensPerS(), rates.failureRate()};
                for (int i = 0; i < v.length; i++) {
                    cols.get(i).append(v[i]);
                }
            }
            k++;
        }
        Table t = Table.create("procedure", stage, step, conc, prompt, output);
        cols.forEach(t::addColumns);
        return t;
    }

    /** The main ladder's knee chart with the efficient zone. */
    public XYChart kneePlot() {
        return Plots.knee(knee);
    }

    /** Stages 4–6 overlaid: how longer prompts and longer outputs move the throughput–latency curve. */
    public XYChart lengthsPlot() {
        List<RunResult> named = List.of(rename(ladder, "ladder"), rename(longPrompts, "long prompts"),
                rename(longOutputs, "long outputs"));
        return ComparePlot.of(named.stream().map(Knee::analyze).toList()).title("Ladder, longer prompts, longer outputs").build();
    }

    /** The soak's time series (throughput, TTFT, ITL, failures over time). */
    public XYChart soakPlot() {
        return Plots.timeSeries(soakSeries);
    }

    private static RunResult rename(RunResult r, String name) {
        return new RunResult(name, r.steps(), r.complete(), r.startTime(), r.target(), r.background());
    }

    /** A plain summary: environment, baseline, ladder, effect of lengths, soak verdict, operating zone. */
    public String summary() {
        StringBuilder sb = new StringBuilder();
        sb.append(String.format(Locale.ROOT, "Kneepoint procedure, %s, %.0f s%n", started, elapsed.toMillis() / 1e3));
        environment.forEach((k, v) -> sb.append(String.format(Locale.ROOT, "  %-15s %s%n", k, v)));
        StepResult b = baseline.steps().get(0);
        sb.append(String.format(Locale.ROOT, "Baseline (1 user, %d/%d tokens): TTFT p50 %.1f ms, ITL p50 %.2f ms, "
                        + "%.1f output tokens/s%n", options.promptTokens(), options.outputTokens(),
                b.latency().ttft().p50(), b.latency().itl().p50(), b.rates().outputTokensPerS()));
        sb.append("Ladder, longer prompts (x").append(options.longFactor()).append("), longer outputs (x")
                .append(options.longFactor()).append("), per step: TTFT p50 | ITL p50 | total tokens/s\n");
        for (int i = 0; i < ladder.steps().size(); i++) {
            StepResult l = ladder.steps().get(i);
            StepResult p = i < longPrompts.steps().size() ? longPrompts.steps().get(i) : null;
            StepResult o = i < longOutputs.steps().size() ? longOutputs.steps().get(i) : null;
            sb.append(String.format(Locale.ROOT, "  %-6s %s  %s  %s%n", l.info().label(), cell(l), cell(p), cell(o)));
        }
        sb.append(String.format(Locale.ROOT, "Soak at %d users for %.0f s: %s%n", soakUsers,
                soak.steps().get(0).windowS(), drift.stable() ? "stable (no drift, no failure burst)"
                        : (drift.drifted() ? "DRIFT in " + drift.metrics().stream().filter(MetricDrift::drifted)
                        .map(MetricDrift::metric).toList() : "no drift")
                        + (drift.bursts().isEmpty() ? "" : "; " + drift.bursts().size() + " failure burst(s)")));
        sb.append(String.format(Locale.ROOT, "Operating zone: knee %s, efficient zone %s, recommended %s%n",
                knee.knee().orElse("none in range"), knee.efficientZone(), knee.recommended().orElse("none")));
        return sb.toString();
    }

    private static String cell(StepResult s) {
        return s == null ? String.format(Locale.ROOT, "%30s", "-") : String.format(Locale.ROOT,
                "%8.1f ms %7.2f ms %8.0f/s", s.latency().ttft().p50(), s.latency().itl().p50(),
                s.rates().outputTokensPerS() + s.rates().inputTokensPerS());
    }

    @Override
    public String toString() {
        return summary();
    }
}
