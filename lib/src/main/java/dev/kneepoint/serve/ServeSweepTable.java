package dev.kneepoint.serve;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import dev.kneepoint.analysis.AnalysisJson;
import dev.kneepoint.analysis.TableRows;
import dev.kneepoint.analysis.TextColumns;
import dev.kneepoint.plot.ChartFiles;
import dev.kneepoint.plot.ServeSweepPlot;
import dev.kneepoint.serve.ServeSweepIndex.Entry;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Locale;
import java.util.Set;
import java.util.function.ToDoubleFunction;
import java.util.stream.IntStream;
import org.knowm.xchart.XYChart;
import tech.tablesaw.api.Table;

/**
 * The comparison across a server-config sweep's configurations, read from each run's {@code analysis.json}
 * ({@link AnalysisJson}): peak output tokens/s, the knee's load, the highest load meeting the SLO set
 * ({@code max_sustainable}) and an SLO search's capacity ({@code slo_search.max_passing}), and $ per million output
 * tokens at the capacity's step (else at the peak's) when the run knew a price. {@code serve-sweep.csv} has every
 * column for every configuration (empty where unknown); the console text drops a column no configuration has.
 */
public final class ServeSweepTable {
    /** The comparison table's file in the sweep folder. */
    public static final String CSV = "serve-sweep.csv";
    /** The chart's file in the sweep folder. */
    public static final String CHART = "serve-sweep.png";
    private static final ObjectMapper JSON = new ObjectMapper();

    /**
     * One configuration's figures; NaN where unknown.
     *
     * @param entry           its index entry
     * @param peakOutputTokS  the highest step output tokens/s
     * @param kneeLoad        the knee's load
     * @param maxSustainable  the highest load meeting the SLO set (and keeping up, open loop)
     * @param sloCapacity     the SLO search's highest passing load
     * @param usdPerMtok      $ per million output tokens at {@code costStep}
     * @param costStep        the step the cost is read at; empty when no cost is known
     * @param curve           its steps' load and output tokens/s, by load
     */
    public record Row(Entry entry, double peakOutputTokS, double kneeLoad, double maxSustainable, double sloCapacity,
            double usdPerMtok, String costStep, ServeSweepPlot.Series curve) {}

    private final List<Row> rows;
    private final List<String> params;

    private ServeSweepTable(List<Row> rows) {
        this.rows = List.copyOf(rows);
        Set<String> names = new LinkedHashSet<>();
        rows.forEach(r -> names.addAll(r.entry().params().keySet()));
        this.params = List.copyOf(names);
    }

    /** The figures of {@code entries}, their run directories relative to {@code folder}. */
    public static ServeSweepTable read(Path folder, List<Entry> entries) {
        List<Row> rows = new ArrayList<>();
        for (Entry e : entries) {
            JsonNode a = e.runDirectory() == null ? null : analysis(folder.resolve(e.runDirectory()));
            rows.add(a == null ? new Row(e, Double.NaN, Double.NaN, Double.NaN, Double.NaN, Double.NaN, "",
                    new ServeSweepPlot.Series(e.config(), new double[0], new double[0])) : row(e, a));
        }
        return new ServeSweepTable(rows);
    }

    private static JsonNode analysis(Path runDir) {
        Path f = runDir.resolve(AnalysisJson.FILE);
        try {
            return Files.isRegularFile(f) ? JSON.readTree(f.toFile()) : null;
        } catch (IOException e) {
            return null;
        }
    }

    private static Row row(Entry e, JsonNode a) {
        List<JsonNode> steps = new ArrayList<>();
        a.path("steps").forEach(steps::add);
        steps.sort(Comparator.comparingDouble(s -> num(s.path("load"))));
        double[] load = steps.stream().mapToDouble(s -> num(s.path("load"))).toArray();
        double[] tput = steps.stream().mapToDouble(s -> num(s.path("throughput"))).toArray();
        int peak = IntStream.range(0, tput.length).filter(i -> Double.isFinite(tput[i]))
                .reduce((i, j) -> tput[j] > tput[i] ? j : i).orElse(-1);
        JsonNode search = a.path("slo_search");
        double capacity = num(search.path("max_passing").path("load"));
        String capacityStep = search.path("max_passing").path("step").asText(null);
        if (capacityStep == null && !a.path("slo").isNull() && !a.path("slo").isMissingNode()) {
            capacityStep = a.path("max_sustainable").path("step").asText(null);
        }
        String costStep = capacityStep != null ? capacityStep : peak < 0 ? null : steps.get(peak).path("step").asText();
        double usd = Double.NaN;
        for (JsonNode s : a.path("efficiency").path("steps")) {
            if (s.path("step").asText().equals(costStep)) {
                usd = num(s.path("usd_per_mtok_output"));
            }
        }
        return new Row(e, peak < 0 ? Double.NaN : tput[peak], num(a.path("knee").path("load")),
                num(a.path("max_sustainable").path("load")), capacity, usd, Double.isNaN(usd) ? "" : costStep,
                new ServeSweepPlot.Series(e.config(), load, tput));
    }

    private static double num(JsonNode n) {
        return n.isNumber() ? n.asDouble() : Double.NaN;
    }

    /** One row per configuration, in sweep order. */
    public List<Row> rows() {
        return rows;
    }

    /** The table: config, each parameter, status, the figures, run directory and reason. */
    public Table table() {
        TableRows<Row> t = TableRows.of(rows).text("config", r -> r.entry().config());
        for (String p : params) {
            t.text(p, r -> r.entry().params().getOrDefault(p, ""));
        }
        return t.text("status", r -> r.entry().status().name().toLowerCase(Locale.ROOT))
                .doubles("peak_output_tokens_per_s", Row::peakOutputTokS)
                .doubles("knee_load", Row::kneeLoad)
                .doubles("max_sustainable_load", Row::maxSustainable)
                .doubles("slo_capacity_load", Row::sloCapacity)
                .doubles("usd_per_mtok_output", Row::usdPerMtok)
                .text("cost_step", Row::costStep)
                .text("run_directory", r -> r.entry().runDirectory() == null ? "" : r.entry().runDirectory())
                .text("reason", r -> r.entry().reason() == null ? "" : r.entry().reason())
                .table("serve-sweep");
    }

    /** The chart: output tokens/s against load, one series per configuration. */
    public XYChart chart() {
        return ServeSweepPlot.of(rows.stream().map(Row::curve).toList()).build();
    }

    /** The console text: one line per configuration, then each failure's reason. */
    public String text() {
        List<String> head = new ArrayList<>(List.of("config", "status", "peak out_tok/s", "knee load"));
        List<ToDoubleFunction<Row>> cols = new ArrayList<>(List.of(Row::peakOutputTokS, Row::kneeLoad));
        addIfAny(head, cols, "max sustainable", Row::maxSustainable);
        addIfAny(head, cols, "SLO capacity", Row::sloCapacity);
        addIfAny(head, cols, "$/Mtok out", Row::usdPerMtok);
        List<String[]> lines = new ArrayList<>();
        lines.add(head.toArray(String[]::new));
        for (Row r : rows) {
            String[] l = new String[head.size()];
            l[0] = r.entry().config() + (r.entry().resumed() ? " (resumed)" : "");
            l[1] = r.entry().status().name().toLowerCase(Locale.ROOT);
            for (int i = 0; i < cols.size(); i++) {
                double v = cols.get(i).applyAsDouble(r);
                l[i + 2] = Double.isFinite(v) ? String.format(Locale.ROOT, v >= 100 ? "%.0f" : "%.2f", v) : "-";
            }
            lines.add(l);
        }
        StringBuilder b = new StringBuilder(TextColumns.of(lines));
        for (Row r : rows) {
            if (!r.entry().complete()) {
                b.append(r.entry().config()).append(": ").append(r.entry().reason()).append('\n');
            }
        }
        return b.toString();
    }

    private void addIfAny(List<String> head, List<ToDoubleFunction<Row>> cols, String name, ToDoubleFunction<Row> f) {
        if (rows.stream().anyMatch(r -> Double.isFinite(f.applyAsDouble(r)))) {
            head.add(name);
            cols.add(f);
        }
    }

    /** Writes {@link #CSV} and {@link #CHART} into {@code folder}. */
    void write(Path folder) {
        try {
            table().write().csv(folder.resolve(CSV).toFile());
        } catch (RuntimeException e) {
            throw new UncheckedIOException("cannot write " + folder.resolve(CSV), new IOException(e.getMessage(), e));
        }
        ChartFiles.write(chart(), folder.resolve(CHART));
    }
}
