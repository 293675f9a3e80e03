package dev.kneepoint.scenario;

import dev.kneepoint.analysis.KneeOptions;
import dev.kneepoint.metrics.RunResult;
import dev.kneepoint.metrics.StepResult;
import dev.kneepoint.analysis.Knee;
import dev.kneepoint.analysis.TableRows;
import dev.kneepoint.plot.ComparePlot;
import dev.kneepoint.plot.Plots;
import dev.kneepoint.workload.Calibration;
import java.util.List;
import java.util.Locale;
import java.util.NoSuchElementException;
import org.knowm.xchart.XYChart;
import tech.tablesaw.api.Table;

/**
 * The matrix as it ran: one {@link ScenarioRun} per scenario, a table with one row per scenario × step, and
 * charts.
 *
 * @param runs        the scenarios in run order
 * @param calibration how prompt lengths were made exact
 * @param options     knee options used for every scenario
 */
public record MatrixResult(List<ScenarioRun> runs, Calibration calibration, KneeOptions options) {

    public MatrixResult {
        runs = List.copyOf(runs);
    }

    /** The run of scenario {@code name}. */
    public ScenarioRun scenario(String name) {
        return runs.stream().filter(r -> r.scenario().name().equals(name)).findFirst()
                .orElseThrow(() -> new NoSuchElementException("No scenario '" + name + "'; ran "
                        + runs.stream().map(r -> r.scenario().name()).toList()));
    }

    /**
     * One row per scenario × step. Columns: {@code scenario, step, concurrency, prompt_tokens_mean,
     * output_tokens, requests_ok, failure_rate, output_tokens_per_s, input_tokens_per_s, total_tokens_per_s,
     * requests_per_s, concurrency_mean, ttft_p50_ms, ttft_p99_ms, itl_p50_ms, itl_p99_ms, tpot_p50_ms,
     * e2e_p99_ms, knee, recommended, bg_output_tokens_per_s, bg_ttft_p99_ms} (the last two NaN without
     * background). Foreground numbers exclude the background.
     */
    public Table table() {
        List<Row> rows = runs.stream().flatMap(r -> r.run().steps().stream().map(s -> new Row(r, s))).toList();
        return TableRows.of(rows)
                .text("scenario", x -> x.r().scenario().name())
                .text("step", x -> x.label())
                .ints("concurrency", x -> x.s().info().concurrency())
                .doubles("prompt_tokens_mean", x -> x.r().scenario().meanPromptTokens())
                .ints("output_tokens", x -> x.r().scenario().outputTokens())
                .longs("requests_ok", x -> x.s().counts().requestsOk())
                .doubles("failure_rate", x -> x.s().rates().failureRate())
                .doubles("output_tokens_per_s", x -> x.s().rates().outputTokensPerS())
                .doubles("input_tokens_per_s", x -> x.s().rates().inputTokensPerS())
                .doubles("total_tokens_per_s", x -> x.s().rates().outputTokensPerS() + x.s().rates().inputTokensPerS())
                .doubles("requests_per_s", x -> x.s().rates().requestsPerS())
                .doubles("concurrency_mean", x -> x.s().rates().concurrencyMean())
                .doubles("ttft_p50_ms", x -> x.s().latency().ttft().p50())
                .doubles("ttft_p99_ms", x -> x.s().latency().ttft().p99())
                .doubles("itl_p50_ms", x -> x.s().latency().itl().p50())
                .doubles("itl_p99_ms", x -> x.s().latency().itl().p99())
                .doubles("tpot_p50_ms", x -> x.s().latency().tpot().p50())
                .doubles("e2e_p99_ms", x -> x.s().latency().e2e().p99())
                .booleans("knee", x -> x.label().equals(x.r().knee().kneeStep()))
                .booleans("recommended", x -> x.label().equals(x.r().knee().recommendedStep()))
                .doubles("bg_output_tokens_per_s", x -> x.bg() == null ? Double.NaN : x.bg().rates().outputTokensPerS())
                .doubles("bg_ttft_p99_ms", x -> x.bg() == null ? Double.NaN : x.bg().latency().ttft().p99())
                .table("scenario_matrix");
    }

    /** One row of {@link #table()}: a step of a scenario's run, and the background's step of the same label (or null). */
    private record Row(ScenarioRun r, StepResult s, StepResult bg) {
        Row(ScenarioRun r, StepResult s) {
            this(r, s, r.run().background().flatMap(b -> b.steps().stream()
                    .filter(x -> x.info().label().equals(s.info().label())).findFirst()).orElse(null));
        }

        String label() {
            return s.info().label();
        }
    }

    /** Every scenario's throughput–latency curve on one chart, knees marked (runs named by scenario). */
    public XYChart kneeOverlay() {
        List<RunResult> named = runs.stream().map(r -> new RunResult(r.scenario().name(), r.run().steps(),
                r.run().complete(), r.run().startTime(), r.run().target(), r.run().background())).toList();
        return ComparePlot.of(named.stream().map(r -> Knee.analyze(r, options)).toList()).title("Scenario matrix: throughput vs latency").build();
    }

    /** The knee chart of one scenario. */
    public XYChart knee(String name) {
        return Plots.knee(scenario(name).knee());
    }

    /** Plain text: calibration, then per scenario its description, knee, recommended point and peak throughput. */
    public String summary() {
        StringBuilder sb = new StringBuilder("Scenario matrix; prompt lengths " + calibration.description() + "\n");
        for (ScenarioRun r : runs) {
            double peak = r.run().steps().stream().mapToDouble(s -> s.rates().outputTokensPerS())
                    .filter(Double::isFinite).max().orElse(Double.NaN);
            sb.append(String.format(Locale.ROOT, "%s%n    knee %s, recommended %s, peak %.1f output tokens/s%s%n",
                    r.scenario().describe(), r.knee().knee().orElse("none in range"),
                    r.knee().recommended().orElse("none"), peak,
                    r.run().background().map(b -> String.format(Locale.ROOT, ", background %d requests (%.1f%% failed)",
                            b.requests(), 100 * nanToZero(b.total().rates().failureRate()))).orElse("")));
        }
        return sb.toString();
    }

    private static double nanToZero(double x) {
        return Double.isNaN(x) ? 0 : x;
    }

    @Override
    public String toString() {
        return summary();
    }
}
