package dev.kneepoint.report;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.SerializationFeature;
import dev.kneepoint.analysis.AnalysisJson;
import dev.kneepoint.analysis.Efficiency;
import dev.kneepoint.analysis.Knee;
import dev.kneepoint.analysis.KneeOptions;
import dev.kneepoint.analysis.KneeReport;
import dev.kneepoint.analysis.LatencyMetric;
import dev.kneepoint.analysis.RunTables;
import dev.kneepoint.analysis.SloCapacity;
import dev.kneepoint.analysis.Breakdown;
import dev.kneepoint.analysis.SummaryText;
import dev.kneepoint.analysis.Tables;
import dev.kneepoint.analysis.TrialTables;
import dev.kneepoint.metrics.RunResult;
import dev.kneepoint.metrics.Trials;
import dev.kneepoint.plot.ChartFiles;
import dev.kneepoint.plot.Overlay;
import dev.kneepoint.plot.Plots;
import dev.kneepoint.plot.TelemetryOverlays;
import dev.kneepoint.plot.TimeSeriesPlot;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import org.knowm.xchart.XYChart;

/**
 * The headless report of one run directory: what {@code bin/kneepoint run}, {@code demo} and
 * {@code analyze} leave beside the data. Reads the directory back in one streaming pass
 * ({@link RunTables}: no request record is kept, so a run of millions of requests fits in memory; it also
 * works on a run that was killed), then writes:
 *
 * <ul>
 *   <li>{@code report.txt}: the plain answer and its caveats ({@link dev.kneepoint.analysis.Answer}), the step
 *       summary table, then the knee analysis with its method and readings;</li>
 *   <li>{@code steps.csv}: every step metric, one row per step;</li>
 *   <li>{@code analysis.json}: the same verdict for machines ({@link AnalysisJson}): knee, zone, operating points,
 *       sustainable load, per-step adequacy flags and the readings, in stable snake_case;</li>
 *   <li>{@code knee.png}, {@code latency_vs_load.png}, {@code ttft_cdf.png}, {@code timeseries.png} (with the
 *       server's running and waiting requests on one more axis when the run has that telemetry),
 *       {@code interactivity.png} (system vs per-user tok/s, {@link dev.kneepoint.plot.InteractivityPlot}), and for
 *       an SLO capacity search {@code slo_search.png} (its probes' attainment, {@link dev.kneepoint.plot.SloSearchPlot});
 *       with a GPU count, {@code pareto.png} (tok/s per GPU against tok/s per user, the frontier marked);</li>
 *   <li>{@code steps_telemetry.csv}, when the run has telemetry: the step table with each step window's telemetry
 *       ({@link RunTables#stepsWithTelemetry()});</li>
 *   <li>{@code report.html} ({@link #HTML}): all of it on one page that opens offline, the charts embedded, the
 *       evidence, the step metrics and the configuration folded;</li>
 *   <li>for a run that repeated its loads, {@code trials.csv} and {@code repeats.csv}.</li>
 * </ul>
 */
public final class RunReport {
    /** Files written by {@link #write(Path)}, in order. */
    public static final List<String> FILES = List.of("report.txt", "steps.csv", AnalysisJson.FILE, "knee.png", "latency_vs_load.png",
            "ttft_cdf.png", "timeseries.png", "interactivity.png");

    /** The chart of an SLO capacity search's probes, written beside {@link #FILES} when the run was one. */
    public static final String SLO_SEARCH_CHART = "slo_search.png";

    /** The one self-contained page of the run (answer, tables, charts embedded, evidence folded), beside {@link #FILES}. */
    public static final String HTML = ReportHtml.FILE;
    /** The Pareto view (tok/s per GPU vs tok/s per user), written beside {@link #FILES} when the GPU count is known. */
    public static final String PARETO_CHART = "pareto.png";

    /** Every step broken down by model ({@link Breakdown}), written when the run mixed models. */
    public static final String MODELS_TABLE = "models.csv";

    /** Every trial as a step ({@code steps.csv} has one row per load), written when the run repeated its loads. */
    public static final String TRIALS_TABLE = "trials.csv";
    /** Mean, 95 % interval and CV across trials per load and headline metric ({@link TrialTables#table}). */
    public static final String REPEATS_TABLE = "repeats.csv";

    private static final ObjectMapper JSON = new ObjectMapper().enable(SerializationFeature.INDENT_OUTPUT);

    private RunReport() {}

    /**
     * Writes the report files into the run directory and returns the text report, {@code report.txt}: the answer,
     * the step table, then the knee's method and every reading with its evidence.
     *
     * @throws UncheckedIOException when the directory cannot be read or written
     */
    public static String write(Path runDirectory) {
        return write(runDirectory, true);
    }

    /**
     * Writes the report files, as {@link #write(Path)}, and returns {@code report.txt}'s text when {@code verbose},
     * else its brief form for a console: the answer and the step table, then the readings that apply, one line
     * each, and where the evidence is.
     */
    public static String write(Path runDirectory, boolean verbose) {
        RunTables loaded = RunTables.load(runDirectory);
        RunResult measured = loaded.run();
        RunResult run = Trials.pooled(measured); // one step per load: a repeated load's trials pooled
        KneeReport knee = Knee.analyze(run, KneeOptions.builder().requests(loaded.requests())
                .telemetry(loaded.telemetry()).sloSearch(searchGoal(loaded.source().manifest())).build());
        StringBuilder text = new StringBuilder(knee.answer().toString());
        String workload = WorkloadLine.of(loaded.source().manifest());
        String server = WorkloadLine.server(loaded.source().manifest());
        String header = (workload.isEmpty() ? "" : workload + "\n") + (server.isEmpty() ? "" : server + "\n");
        List<String> blocks = new ArrayList<>(); // what report.html shows as report.txt does
        blocks.add(SummaryText.format(run));
        text.append(header).append('\n').append(blocks.get(0));
        if (!loaded.problems().isEmpty()) {
            text.append("requests.jsonl problems: ").append(loaded.problems().size()).append(" unreadable line(s), first: ")
                    .append(loaded.problems().get(0)).append('\n');
        }
        Efficiency efficiency = efficiency(run, loaded);
        List<String> more = new ArrayList<>();
        more.add(knee.sloCapacity() == null ? "" : knee.sloCapacity().table());
        more.add(TrialTables.text(measured));
        more.add(efficiency.known() ? efficiency.table() : "");
        // a model mix: every step broken down by model (a second pass over requests.jsonl, only for such a run)
        List<Breakdown.Group> byModel = loaded.source().manifest().path("config").has("models")
                ? Breakdown.groups(runDirectory, measured, Breakdown.By.MODEL) : List.of();
        more.add(Breakdown.text(byModel, Breakdown.By.MODEL));
        for (String block : more) {
            if (!block.isEmpty()) {
                text.append('\n').append(block);
                blocks.add(block);
            }
        }
        String brief = text + brief(knee);
        text.append('\n').append(knee.summary()).append('\n');
        try {
            Files.writeString(runDirectory.resolve("report.txt"), text, StandardCharsets.UTF_8);
            Tables.steps(run).write().csv(runDirectory.resolve("steps.csv").toFile());
            if (!byModel.isEmpty()) {
                Breakdown.table(byModel, Breakdown.By.MODEL).write().csv(runDirectory.resolve(MODELS_TABLE).toFile());
            }
            if (Trials.repeated(measured)) {
                Tables.steps(measured).write().csv(runDirectory.resolve(TRIALS_TABLE).toFile());
                TrialTables.table(measured).write().csv(runDirectory.resolve(REPEATS_TABLE).toFile());
            }
            JSON.writeValue(runDirectory.resolve(AnalysisJson.FILE).toFile(), AnalysisJson.of(run, knee, efficiency));
            List<XYChart> charts = new ArrayList<>();
            charts.add(Plots.knee(knee));
            charts.add(Plots.percentilesVsLoad(measured)); // error bars across trials, when repeated
            charts.add(Plots.cdf(run, LatencyMetric.TTFT));
            charts.add(timeSeries(loaded));
            charts.add(Plots.interactivity(run, knee));
            if (!loaded.telemetry().samples().isEmpty()) {
                loaded.stepsWithTelemetry().write().csv(runDirectory.resolve("steps_telemetry.csv").toFile());
            }
            for (int i = 0; i < charts.size(); i++) {
                ChartFiles.write(charts.get(i), runDirectory.resolve(FILES.get(i + 3)));
            }
            if (knee.sloCapacity() != null) {
                ChartFiles.write(Plots.sloSearch(knee.sloCapacity()), runDirectory.resolve(SLO_SEARCH_CHART));
            }
            if (efficiency.gpus() > 0) {
                ChartFiles.write(Plots.pareto(run, knee, efficiency.gpus()), runDirectory.resolve(PARETO_CHART));
            }
            List<Path> shown = new ArrayList<>();
            FILES.subList(3, FILES.size()).forEach(f -> shown.add(runDirectory.resolve(f)));
            if (knee.sloCapacity() != null) {
                shown.add(runDirectory.resolve(SLO_SEARCH_CHART));
            }
            if (efficiency.gpus() > 0) {
                shown.add(runDirectory.resolve(PARETO_CHART));
            }
            JsonNode manifest = loaded.source().manifest();
            ReportHtml.write(runDirectory, ReportHtml.of(run.runId(), knee, header, blocks, shown, Tables.steps(run),
                    manifest == null || !manifest.has("config") ? "" : manifest.get("config").toPrettyString()));
        } catch (IOException e) {
            throw new UncheckedIOException("cannot write the report into " + runDirectory + ": " + e.getMessage(), e);
        }
        return verbose ? text.toString() : brief;
    }

    /** The readings that apply, by finding, and where the rest is. */
    private static String brief(KneeReport knee) {
        StringBuilder sb = new StringBuilder("\nReadings that apply:");
        if (knee.applicableReadings().isEmpty()) {
            sb.append(" none.");
        }
        knee.applicableReadings().forEach(r -> sb.append("\n- ").append(r.kind()).append(": ").append(r.finding()));
        return sb.append("\n(the knee's method and every reading with its evidence: report.txt, or --verbose)\n")
                .toString();
    }

    /** The run's cost figures, from the deployment its manifest records ({@code config.cost}) and its telemetry. */
    private static Efficiency efficiency(RunResult run, RunTables loaded) {
        JsonNode m = loaded.source().manifest();
        JsonNode c = m == null ? null : m.path("config").path("cost");
        int gpus = c == null ? 0 : c.path("gpus").asInt(0);
        double price = c == null || !c.path("price_per_hour_usd").isNumber() ? Double.NaN
                : c.path("price_per_hour_usd").asDouble();
        return Efficiency.of(run, loaded.telemetry(), gpus, price);
    }

    /** The SLO search a run's manifest records ({@code config.slo_search}), or null when it was none. */
    static SloCapacity.Goal searchGoal(JsonNode manifest) {
        JsonNode s = manifest == null ? null : manifest.path("config").path("slo_search");
        if (s == null || !s.isObject()) {
            return null;
        }
        return new SloCapacity.Goal(s.path("dimension").asText(), s.path("attainment").asDouble(),
                s.path("tolerance").asDouble());
    }

    private static XYChart timeSeries(RunTables loaded) {
        TimeSeriesPlot p = TimeSeriesPlot.of(loaded.timeSeries());
        var t = loaded.telemetry();
        List<Overlay> server = new ArrayList<>();
        for (String key : List.of("server:running", "server:waiting")) {
            if (!t.series(key).isEmpty()) {
                server.add(TelemetryOverlays.of(t, key));
            }
        }
        return p.overlayGroup(server.toArray(Overlay[]::new)).build();
    }
}
