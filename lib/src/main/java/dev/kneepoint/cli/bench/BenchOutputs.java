package dev.kneepoint.cli.bench;

import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.Locale;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

/**
 * Turns what each part's existing bench prints into {@link Figure}s with the issues' targets. Pure functions
 * of the text, so they are tested on recorded outputs; a missing row or line is an
 * {@link IllegalArgumentException} naming it. The formats are those of {@code BenchCommand},
 * {@code SimBenchCommand}, {@code kneepoint_bench.py} and {@link LoadBenchmark}: change them together.
 */
final class BenchOutputs {
    /** The streams scenario's engine step ({@code --step-overhead 100ms} in {@code BenchCommand}). */
    static final double STREAMS_STEP_MS = 100;
    /** The size the analysis targets are stated for. */
    public static final int ANALYSIS_TARGET_REQUESTS = 1_000_000;

    private BenchOutputs() {}

    /**
     * Figures of {@code kneepoint bench} (its markdown table on stdout; one run per scenario, all three scenarios).
     *
     * @param streams the streams scenario's size ({@code --streams}), the concurrency it must hold
     */
    public static List<Figure> client(String stdout, int streams) {
        List<List<String>> ingest = rows(stdout, "ingest");
        List<String> dispatch = only(rows(stdout, "dispatch"), "dispatch");
        List<String> str = only(rows(stdout, "streams"), "streams");
        if (ingest.isEmpty()) {
            throw new IllegalArgumentException("no 'ingest' row in the client bench output");
        }
        List<Figure> f = new ArrayList<>();
        f.add(Figure.info("client.streams.cpu_ns_per_token", String.format(Locale.ROOT, "client CPU per streamed token (streams: one SSE event per token, %,d connections)", streams), num(str, 3), "ns", "whole client process: JIT, GC and socket work included"));
        f.add(Figure.info("client.dispatch.cpu_ns_per_token", "client CPU per streamed token (dispatch: 2-token answers,"
                + " so mostly per-request cost)", num(dispatch, 3), "ns", ""));
        List<String> best = ingest.get(0);
        for (List<String> r : ingest) {
            if (num(r, 4) > num(best, 4) || Double.isNaN(num(best, 4))) {
                best = r;
            }
        }
        f.add(Figure.info("client.ingest.tokens_per_s_per_core", "highest sustained token ingest on one client core",
                num(best, 4), "tok/s", String.format(Locale.ROOT, "ingest %s: %,.0f tok/s received at %,.0f ns CPU/token",
                        best.get(1), num(best, 2), num(best, 3))));
        double[] lag = slashed(dispatch, 8, 4);
        f.add(Figure.judged("client.dispatch.schedule_lag_p99_ms", "open-loop dispatch accuracy: schedule_lag p99 ("
                + dispatch.get(1) + ")", lag[1], "ms", Target.atMost(1, "≤ 1 ms"),
                String.format(Locale.ROOT, "p50 %.3f, p99.9 %.3f, max %.1f ms", lag[0], lag[2], lag[3])));
        double held = num(str, 5);
        f.add(Figure.judged("client.streams.concurrency_mean", "concurrent streams held (time-average of in-flight streams)",
                held, "streams", Target.atLeast(0.99 * streams, streams, String.format(Locale.ROOT, "≥ %,d (−1 %%: ramp edges)", streams)),
                String.format(Locale.ROOT, "%,d streams configured, %.0f failures", streams, num(str, 12))));
        double itl = slashed(str, 7, 2)[0];
        f.add(Figure.judged("client.streams.itl_p50_over_step", "client not the bottleneck: ITL p50 / engine step ("
                + fmt(STREAMS_STEP_MS) + " ms)", itl / STREAMS_STEP_MS, "ratio", new Target(Target.Op.AT_MOST, 1.1, 1.0, "≤ 1.1 (1.0 = the engine's pace)"),
                String.format(Locale.ROOT, "ITL p50 %.1f ms, p99 %.1f ms; client CPU %.0f %% of a core at %,.0f tok/s",
                        itl, slashed(str, 7, 2)[1], num(str, 9), num(str, 2))));
        return f;
    }

    /** Figures of {@code kneepoint bench-sim --case 2000:50000:...} (the first table row). */
    public static List<Figure> sim(String stdout) {
        List<String> header = null;
        List<String> r = null;
        for (String line : stdout.split("\n")) {
            List<String> c = cells(line);
            if (!c.isEmpty() && c.get(0).equals("streams")) {
                header = c;
            } else if (header != null && c.size() == header.size() && c.get(0).matches("\\d+")) {
                r = c;
                break;
            }
        }
        if (r == null) {
            throw new IllegalArgumentException("no header and case row in the bench-sim output");
        }
        // columns by their header's name, not position: bench-sim gains columns (GC, allocation, load) over time
        int streams = (int) num(r, column(header, "streams"));
        double target = num(r, column(header, "target tok/s"));
        double emitted = num(r, column(header, "emitted tok/s"));
        double received = num(r, column(header, "received tok/s"));
        double[] lag = slashed(r, column(header, "emission lag p50 / p99 / max"), 3);
        List<Figure> f = new ArrayList<>();
        f.add(Figure.judged("sim.emitted_tokens_per_s", "streamed tokens/s in total, simulator and client in one JVM (simulator's count)",
                emitted, "tok/s", Target.atLeast(0.98 * target, target, String.format(Locale.ROOT,
                        "≥ %,.0f (−2 %%: paced at exactly that)", target)),
                String.format(Locale.ROOT, "client received %,.0f tok/s (%.3f of emitted)", received, received / emitted)));
        f.add(Figure.judged("sim.concurrency_mean", "concurrent streams", num(r, column(header, "conc mean")), "streams",
                Target.atLeast(0.99 * streams, streams, String.format(Locale.ROOT, "≥ %,d (−1 %%: ramp edges)", streams)),
                String.format(Locale.ROOT, "%.0f failures, %s output tokens, step %s ms", num(r, column(header, "failures")),
                        r.get(column(header, "output")), r.get(column(header, "step ms")))));
        f.add(Figure.judged("sim.emission_lag_p99_ms", "simulator emission lag p99 (write time − scheduled time)", lag[1], "ms",
                Target.atMost(2, "≤ 2 ms"), String.format(Locale.ROOT, "p50 %.3f, max %.1f ms", lag[0], lag[2])));
        String cpu = r.get(column(header, "CPU us/token"));
        int paren = cpu.indexOf(" (");
        f.add(Figure.info("sim.cpu_us_per_token", "whole-process CPU per emitted token (simulator + client)",
                parse(paren < 0 ? cpu : cpu.substring(0, paren), "bench-sim CPU"), "µs",
                paren < 0 ? "" : cpu.substring(paren + 2, cpu.length() - 1)));
        return f;
    }

    /** The index of the first header cell starting with {@code name}; an error naming it when there is none. */
    private static int column(List<String> header, String name) {
        for (int i = 0; i < header.size(); i++) {
            if (header.get(i).startsWith(name)) {
                return i;
            }
        }
        throw new IllegalArgumentException("no '" + name + "' column in the bench-sim output (columns: " + header + ")");
    }

    private static final Pattern COLD = Pattern.compile("cold start to first result: median ([0-9.]+) s \\(runs: ([^)]*)\\)");
    private static final Pattern TRIVIAL = Pattern.compile(
            "trivial cell round trip: median ([0-9.]+) ms, p90 ([0-9.]+) ms, min ([0-9.]+) ms \\((\\d+) cells\\)");
    private static final Pattern MAGIC = Pattern.compile("%lsmagic round trip \\(no JShell\\): median ([0-9.]+) ms, min ([0-9.]+) ms");

    /** Figures of {@code bin/kneepoint-kernel bench}. */
    public static List<Figure> kernel(String stdout) {
        Matcher cold = find(COLD, stdout, "kernel cold start");
        Matcher cell = find(TRIVIAL, stdout, "kernel trivial cell");
        Matcher magic = find(MAGIC, stdout, "kernel %lsmagic");
        return List.of(
                Figure.judged("kernel.cold_start_s", "kernel cold start to first executed cell (median of launches)",
                        parse(cold.group(1), "cold start"), "s", Target.atMost(3, "≤ 3 s"), "launches: " + cold.group(2) + " s"),
                Figure.judged("kernel.trivial_cell_ms", "trivial cell round trip (median)", parse(cell.group(1), "cell"), "ms",
                        Target.atMost(50, "≤ 50 ms"), "p90 " + cell.group(2) + " ms, min " + cell.group(3) + " ms, "
                                + cell.group(4) + " cells"),
                Figure.info("kernel.lsmagic_ms", "%lsmagic round trip (median; protocol without JShell)",
                        parse(magic.group(1), "%lsmagic"), "ms", "min " + magic.group(2) + " ms"));
    }

    private static final Pattern REQUESTS = Pattern.compile("requests ([0-9,]+) +problems (\\d+) +file ([0-9,]+) bytes");
    private static final Pattern LOAD = Pattern.compile("load \\(.*?\\) ([0-9.]+) s \\(main thread cpu ([0-9.]+) s, parsing thread cpu ([0-9.]+) s, process cpu ([0-9.]+) s\\)");
    private static final Pattern SUMMARY = Pattern.compile("summary table \\(.*?\\) ([0-9.]+) s");
    private static final Pattern PLOTS = Pattern.compile("4 plots rendered to PNG \\(.*?\\) ([0-9.]+) s");
    private static final Pattern TOTAL = Pattern.compile("TOTAL ([0-9.]+) s \\(main thread cpu ([0-9.]+) s, process cpu ([0-9.]+) s\\)");
    private static final Pattern ESTIMATE = Pattern.compile("idle 2-core estimate: .* = ([0-9.]+) s");
    private static final Pattern HEAP = Pattern.compile("heap held (-?[0-9,]+) bytes = (-?[0-9.]+) bytes/request");

    /**
     * Figures of {@code LoadBenchmark measure}. The targets are stated for 1,000,000 requests; for a
     * smaller run directory they are not judged.
     *
     * @param writeS wall seconds {@code LoadBenchmark write} took (reported, not judged)
     */
    public static List<Figure> analysis(String stdout, double writeS) {
        Matcher req = find(REQUESTS, stdout, "analysis request count");
        long requests = Long.parseLong(req.group(1).replace(",", ""));
        Matcher load = find(LOAD, stdout, "analysis load");
        Matcher total = find(TOTAL, stdout, "analysis TOTAL");
        double estimate = parse(find(ESTIMATE, stdout, "analysis idle 2-core estimate").group(1), "estimate");
        double heap = parse(find(HEAP, stdout, "analysis heap held").group(2), "heap");
        String breakdown = String.format(Locale.ROOT, "load %s s + summary %s s + plots %s s; process CPU %s s",
                load.group(1), find(SUMMARY, stdout, "analysis summary").group(1), find(PLOTS, stdout, "analysis plots").group(1),
                total.group(3));
        List<Figure> f = new ArrayList<>(List.of(
                Figure.judged("analysis.total_s", "load + summary table + four plots, fresh JVM (wall)",
                        parse(total.group(1), "total"), "s", Target.atMost(5, "≤ 5 s"), breakdown),
                Figure.judged("analysis.heap_bytes_per_request", "heap held per request after GC", heap, "B",
                        Target.atMost(200, "≤ 200 B"), ""),
                Figure.info("analysis.idle_2core_estimate_s", "same, estimated for an idle 2-core machine from CPU times",
                        estimate, "s", "max(busiest thread, process CPU / 2) per phase; decides little on a loaded machine"),
                Figure.info("analysis.requests", "requests in the run directory", requests, "requests",
                        String.format(Locale.ROOT, "requests.jsonl %s bytes, %s problems; writing it took %.1f s",
                                req.group(3), req.group(2), writeS))));
        if (requests < ANALYSIS_TARGET_REQUESTS) {
            String why = String.format(Locale.ROOT, "the target is for %,d requests, this run had %,d", ANALYSIS_TARGET_REQUESTS, requests);
            f.replaceAll(x -> x.notJudged(why));
        }
        return f;
    }

    private static Matcher find(Pattern p, String text, String what) {
        Matcher m = p.matcher(text);
        if (!m.find()) {
            throw new IllegalArgumentException("no " + what + " line in the output (expected /" + p.pattern() + "/)");
        }
        return m;
    }

    /** The cells of every table row whose first cell is {@code scenario}. */
    private static List<List<String>> rows(String stdout, String scenario) {
        List<List<String>> out = new ArrayList<>();
        for (String line : stdout.split("\n")) {
            List<String> c = cells(line);
            if (c.size() >= 13 && c.get(0).equals(scenario)) {
                out.add(c);
            }
        }
        return out;
    }

    private static List<String> only(List<List<String>> rows, String scenario) {
        if (rows.isEmpty()) {
            throw new IllegalArgumentException("no '" + scenario + "' row in the client bench output");
        }
        return rows.get(0);
    }

    private static List<String> cells(String line) {
        String t = line.strip();
        if (!t.startsWith("|") || !t.endsWith("|") || t.length() < 2) {
            return List.of();
        }
        return Arrays.stream(t.substring(1, t.length() - 1).split("\\|", -1)).map(String::strip).toList();
    }

    private static double num(List<String> cells, int i) {
        return parse(cells.get(i), "column " + (i + 1) + " of row '" + cells.get(0) + " | " + cells.get(1) + "'");
    }

    private static double[] slashed(List<String> cells, int i, int n) {
        String[] p = cells.get(i).split("/");
        if (p.length != n) {
            throw new IllegalArgumentException("column " + (i + 1) + " of row '" + cells.get(0) + "' should hold " + n
                    + " values separated by '/', got '" + cells.get(i) + "'");
        }
        double[] v = new double[n];
        for (int k = 0; k < n; k++) {
            v[k] = parse(p[k], "column " + (i + 1) + " of row '" + cells.get(0) + "'");
        }
        return v;
    }

    private static double parse(String s, String what) {
        String t = s.strip().replace(",", "");
        if (t.equals("-")) {
            return Double.NaN;
        }
        try {
            return Double.parseDouble(t);
        } catch (NumberFormatException e) {
            throw new IllegalArgumentException(what + ": not a number: '" + s.strip() + "'");
        }
    }

    private static String fmt(double v) {
        return String.format(Locale.ROOT, "%.0f", v);
    }
}
