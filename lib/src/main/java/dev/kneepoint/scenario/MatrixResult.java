package dev.kneepoint.scenario;

import dev.kneepoint.analysis.KneeOptions;
import dev.kneepoint.metrics.RunResult;
import dev.kneepoint.metrics.StepResult;
import dev.kneepoint.analysis.Knee;
import dev.kneepoint.plot.ComparePlot;
import dev.kneepoint.plot.Plots;
import dev.kneepoint.workload.Calibration;
import java.util.List;
import java.util.Locale;
import java.util.NoSuchElementException;
import org.knowm.xchart.XYChart;
import tech.tablesaw.api.BooleanColumn;
import tech.tablesaw.api.DoubleColumn;
import tech.tablesaw.api.IntColumn;
import tech.tablesaw.api.LongColumn;
import tech.tablesaw.api.StringColumn;
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
        StringColumn scenario = StringColumn.create("scenario");
        StringColumn step = StringColumn.create("step");
        IntColumn conc = IntColumn.create("concurrency");
        DoubleColumn prompt = DoubleColumn.create("prompt_tokens_mean");
        IntColumn output = IntColumn.create("output_tokens");
        LongColumn ok = LongColumn.create("requests_ok");
        DoubleColumn fail = DoubleColumn.create("failure_rate");
        DoubleColumn out = DoubleColumn.create("output_tokens_per_s");
        DoubleColumn in = DoubleColumn.create("input_tokens_per_s");
        DoubleColumn total = DoubleColumn.create("total_tokens_per_s");
        DoubleColumn rps = DoubleColumn.create("requests_per_s");
        DoubleColumn cm = DoubleColumn.create("concurrency_mean");
        DoubleColumn t50 = DoubleColumn.create("ttft_p50_ms");
        DoubleColumn t99 = DoubleColumn.create("ttft_p99_ms");
        DoubleColumn i50 = DoubleColumn.create("itl_p50_ms");
        DoubleColumn i99 = DoubleColumn.create("itl_p99_ms");
        DoubleColumn tp50 = DoubleColumn.create("tpot_p50_ms");
        DoubleColumn e99 = DoubleColumn.create("e2e_p99_ms");
        BooleanColumn knee = BooleanColumn.create("knee");
        BooleanColumn rec = BooleanColumn.create("recommended");
        DoubleColumn bgOut = DoubleColumn.create("bg_output_tokens_per_s");
        DoubleColumn bgTtft = DoubleColumn.create("bg_ttft_p99_ms");
        for (ScenarioRun r : runs) {
            for (StepResult s : r.run().steps()) {
                String label = s.info().label();
                scenario.append(r.scenario().name());
                step.append(label);
                conc.append(s.info().concurrency());
                prompt.append(r.scenario().meanPromptTokens());
                output.append(r.scenario().outputTokens());
                ok.append(s.requestsOk());
                fail.append(s.failureRate());
                out.append(s.outputTokensPerS());
                in.append(s.inputTokensPerS());
                total.append(s.outputTokensPerS() + s.inputTokensPerS());
                rps.append(s.requestsPerS());
                cm.append(s.concurrencyMean());
                t50.append(s.ttft().p50());
                t99.append(s.ttft().p99());
                i50.append(s.itl().p50());
                i99.append(s.itl().p99());
                tp50.append(s.tpot().p50());
                e99.append(s.e2e().p99());
                knee.append(label.equals(r.knee().kneeStep()));
                rec.append(label.equals(r.knee().recommendedStep()));
                StepResult bg = r.run().background().flatMap(b -> b.steps().stream()
                        .filter(x -> x.info().label().equals(label)).findFirst()).orElse(null);
                bgOut.append(bg == null ? Double.NaN : bg.outputTokensPerS());
                bgTtft.append(bg == null ? Double.NaN : bg.ttft().p99());
            }
        }
        return Table.create("scenario_matrix", scenario, step, conc, prompt, output, ok, fail, out, in, total, rps, cm,
                t50, t99, i50, i99, tp50, e99, knee, rec, bgOut, bgTtft);
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
            double peak = r.run().steps().stream().mapToDouble(StepResult::outputTokensPerS).filter(Double::isFinite)
                    .max().orElse(Double.NaN);
            sb.append(String.format(Locale.ROOT, "%s%n    knee %s, recommended %s, peak %.1f output tokens/s%s%n",
                    r.scenario().describe(), r.knee().knee().orElse("none in range"),
                    r.knee().recommended().orElse("none"), peak,
                    r.run().background().map(b -> String.format(Locale.ROOT, ", background %d requests (%.1f%% failed)",
                            b.requests(), 100 * nanToZero(b.total().failureRate()))).orElse("")));
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
