package dev.kneepoint.analysis;

import dev.kneepoint.metrics.RunResult;
import dev.kneepoint.metrics.StepResult;
import dev.kneepoint.telemetry.TelemetryData;
import dev.kneepoint.telemetry.TelemetrySample;
import java.time.Duration;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Objects;
import java.util.stream.Collectors;
import tech.tablesaw.api.DoubleColumn;
import tech.tablesaw.api.StringColumn;
import tech.tablesaw.api.Table;

/**
 * Telemetry ({@link TelemetryData}) as Tablesaw tables, and joined to the steps. Series are named by their
 * key, {@code source:name{labels}} ({@link TelemetrySample#key()}). How a series is summarised depends on its
 * kind: a gauge by its mean and maximum, a counter by its rate per second (differences of consecutive samples
 * over their time; a decrease, a restart, is skipped), and a histogram's {@code _sum}/{@code _count} pair by
 * its mean ({@code Δsum / Δcount}, in the server's unit, seconds). Histogram buckets (label {@code le}) stay in
 * the long table only. Every method returns a new table.
 */
public final class TelemetryTables {
    private TelemetryTables() {}

    /** One row per sample: {@code time_s, source, metric} (the key), {@code name, labels, kind, value}. */
    public static Table samples(TelemetryData data) {
        List<TelemetrySample> s = data.samples();
        return Table.create("telemetry").addColumns(
                DoubleColumn.create("time_s", s.stream().mapToDouble(TelemetrySample::timeS)),
                StringColumn.create("source", s.stream().map(TelemetrySample::source)),
                StringColumn.create("metric", s.stream().map(TelemetrySample::key)),
                StringColumn.create("name", s.stream().map(TelemetrySample::name)),
                StringColumn.create("labels", s.stream().map(x -> x.labels().entrySet().stream()
                        .map(e -> e.getKey() + "=" + e.getValue()).collect(Collectors.joining(",")))),
                StringColumn.create("kind", s.stream().map(x -> x.kind().name().toLowerCase(java.util.Locale.ROOT))),
                DoubleColumn.create("value", s.stream().mapToDouble(TelemetrySample::value)));
    }

    /** One row per source's status line: {@code time_s, source, status, reason}. */
    public static Table statuses(TelemetryData data) {
        var st = data.statuses();
        return Table.create("telemetry_status").addColumns(
                DoubleColumn.create("time_s", st.stream().mapToDouble(x -> x.tNanos() / 1e9)),
                StringColumn.create("source", st.stream().map(x -> x.source())),
                StringColumn.create("status", st.stream().map(x -> x.status())),
                StringColumn.create("reason", st.stream().map(x -> x.reason())));
    }

    /**
     * One row per interval {@code [i·interval, (i+1)·interval)} of the run clock, from 0 to the last sample:
     * {@code t_start_s, t_end_s}, then per series its summary in the interval (NaN when it has none):
     * {@code <key>} (gauge mean), {@code <key>_per_s} (counter rate), {@code <base>_mean} (histogram mean).
     */
    public static Table wide(TelemetryData data, Duration interval) {
        long step = Objects.requireNonNull(interval, "interval").toNanos();
        if (step <= 0) {
            throw new IllegalArgumentException("interval must be positive, got " + interval);
        }
        long last = data.samples().stream().mapToLong(TelemetrySample::tNanos).max().orElse(-1);
        int n = last < 0 ? 0 : (int) (last / step) + 1;
        long[][] windows = new long[n][];
        for (int i = 0; i < n; i++) {
            windows[i] = new long[] {i * step, (i + 1) * step};
        }
        Table t = Table.create("telemetry_wide").addColumns(
                DoubleColumn.create("t_start_s", java.util.Arrays.stream(windows).mapToDouble(w -> w[0] / 1e9)),
                DoubleColumn.create("t_end_s", java.util.Arrays.stream(windows).mapToDouble(w -> w[1] / 1e9)));
        summarise(data, windows, false).forEach((name, values) -> t.addColumns(DoubleColumn.create(name, values)));
        return t;
    }

    /**
     * The step table with telemetry columns: for each step's measurement window (after warm-up, to the end of
     * load) {@code <key>_mean} and {@code <key>_max} of each gauge, {@code <key>_per_s} of each counter and
     * {@code <base>_mean} of each histogram; NaN where the window holds too few samples.
     *
     * @param steps a table from {@link Tables#steps(RunResult)} of the same run (row i is step i)
     */
    public static Table joinSteps(Table steps, RunResult run, TelemetryData data) {
        List<StepResult> rs = run.steps();
        if (steps.rowCount() != rs.size()) {
            throw new IllegalArgumentException("the steps table has " + steps.rowCount() + " rows but the run has "
                    + rs.size() + " steps: give Tables.steps(run) of the same run");
        }
        Table t = steps.copy();
        perStep(rs, data).forEach((name, values) -> t.addColumns(DoubleColumn.create(name, values)));
        return t;
    }

    /** The steps of a run with telemetry columns ({@link #joinSteps}). */
    public static Table steps(RunResult run, TelemetryData data) {
        return joinSteps(Tables.steps(run), run, data);
    }

    /**
     * Per step's measurement window, the summary columns {@link #joinSteps} adds ({@code <key>_mean},
     * {@code <key>_max}, {@code <key>_per_s}, {@code <base>_mean}), by name; entry i is step i.
     */
    static Map<String, double[]> perStep(List<StepResult> steps, TelemetryData data) {
        long[][] windows = steps.stream().map(s -> new long[] {s.window().startNanos(), s.window().endNanos()})
                .toArray(long[][]::new);
        return summarise(data, windows, true);
    }

    /** Summary columns by name, in key order; windows are [start, end) in run-clock nanoseconds. */
    private static Map<String, double[]> summarise(TelemetryData data, long[][] windows, boolean withMax) {
        Map<String, double[]> out = new LinkedHashMap<>();
        Map<String, List<TelemetrySample>> series = data.bySeries();
        for (Map.Entry<String, List<TelemetrySample>> e : series.entrySet()) {
            List<TelemetrySample> s = e.getValue();
            TelemetrySample first = s.get(0);
            if (first.labels().containsKey("le") || first.labels().containsKey("quantile")) {
                continue; // buckets and quantiles: long table only
            }
            String key = e.getKey();
            if (first.kind() == TelemetrySample.Kind.GAUGE) {
                double[] mean = new double[windows.length];
                double[] max = new double[windows.length];
                for (int w = 0; w < windows.length; w++) {
                    double sum = 0;
                    double mx = Double.NaN;
                    int c = 0;
                    for (TelemetrySample x : s) {
                        if (x.tNanos() >= windows[w][0] && x.tNanos() < windows[w][1] && !Double.isNaN(x.value())) {
                            sum += x.value();
                            mx = c == 0 ? x.value() : Math.max(mx, x.value());
                            c++;
                        }
                    }
                    mean[w] = c == 0 ? Double.NaN : sum / c;
                    max[w] = mx;
                }
                out.put(withMax ? key + "_mean" : key, mean);
                if (withMax) {
                    out.put(key + "_max", max);
                }
            } else if (key.contains("_sum") && series.containsKey(key.replace("_sum", "_count"))
                    && key.indexOf("_sum") == key.lastIndexOf("_sum")) {
                List<TelemetrySample> counts = series.get(key.replace("_sum", "_count"));
                double[] mean = new double[windows.length];
                for (int w = 0; w < windows.length; w++) {
                    double ds = increase(s, windows[w]);
                    double dc = increase(counts, windows[w]);
                    mean[w] = dc > 0 ? ds / dc : Double.NaN;
                }
                out.put(key.replace("_sum", "_mean"), mean);
            } else {
                double[] rate = new double[windows.length];
                for (int w = 0; w < windows.length; w++) {
                    rate[w] = rate(s, windows[w]);
                }
                out.put(key + "_per_s", rate);
            }
        }
        return out;
    }

    /** Increase of a counter over consecutive-sample pairs whose later sample lies in the window (resets skipped). */
    private static double increase(List<TelemetrySample> s, long[] window) {
        return Increase.of(s, window).value();
    }

    /** {@link #increase} per second of the time those sample pairs span; NaN when they span none. */
    private static double rate(List<TelemetrySample> s, long[] window) {
        Increase inc = Increase.of(s, window);
        return inc.spanNanos() > 0 ? inc.value() / (inc.spanNanos() / 1e9) : Double.NaN;
    }

    /** A counter's increase over the sample pairs counted in a window, and the nanoseconds those pairs span. */
    private record Increase(double value, long spanNanos) {
        static Increase of(List<TelemetrySample> s, long[] window) {
            double inc = 0;
            long span = 0;
            for (int i = 1; i < s.size(); i++) {
                long t = s.get(i).tNanos();
                double d = s.get(i).value() - s.get(i - 1).value();
                if (t >= window[0] && t < window[1] && d >= 0) {
                    inc += d;
                    span += t - s.get(i - 1).tNanos();
                }
            }
            return new Increase(inc, span);
        }
    }

    /** Every series key of a kind, for choosing overlays. */
    public static List<String> keys(TelemetryData data, String source) {
        List<String> out = new ArrayList<>();
        for (String k : data.keys()) {
            if (k.startsWith(source + ":")) {
                out.add(k);
            }
        }
        return out;
    }
}
