package dev.kneepoint.cli.peers;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import java.io.BufferedReader;
import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Properties;
import java.util.stream.Stream;

/**
 * Reads one run directory written by {@code bench/peers.sh}: {@code run.properties} (tool, kind, load, rc,
 * loadavg), {@code time.txt} ({@code /usr/bin/time -f "%U %S %e"}) and the tool's own output:
 * Kneepoint's run directory ({@code summary.json}, {@code requests.jsonl}), AIPerf's
 * {@code out/profile_export_aiperf.json} and {@code out/profile_export.jsonl} (checked with AIPerf 0.13.0),
 * GuideLLM's {@code benchmarks.json} (checked with GuideLLM 0.8.1), {@code vllm bench serve}'s
 * {@code --save-result --save-detailed} file {@code vllm.json} (checked with vLLM 0.33.0). A missing or unreadable output gives a
 * run without points and with {@link PeerRun#error()} set, never an exception.
 */
public final class PeerOutputs {
    private static final ObjectMapper JSON = new ObjectMapper();

    private PeerOutputs() {}

    /** Every run directory under {@code resultsDir/runs}, in name order. */
    public static List<PeerRun> readAll(Path resultsDir) throws IOException {
        Path runs = resultsDir.resolve("runs");
        if (!Files.isDirectory(runs)) {
            throw new IOException("no runs/ folder in " + resultsDir + "; run bin/kneepoint bench --peers first");
        }
        try (Stream<Path> s = Files.list(runs)) {
            List<Path> dirs = s.filter(Files::isDirectory).sorted().toList();
            List<PeerRun> out = new ArrayList<>();
            for (Path d : dirs) {
                out.add(read(d));
            }
            return out;
        }
    }

    /** One run directory. */
    public static PeerRun read(Path dir) throws IOException {
        Properties p = new Properties();
        try (var r = Files.newBufferedReader(dir.resolve("run.properties"), StandardCharsets.UTF_8)) {
            p.load(r);
        }
        String tool = p.getProperty("tool", "?");
        String kind = p.getProperty("kind", "?");
        String load = p.getProperty("load", "");
        int rc = Integer.parseInt(p.getProperty("rc", "-1").strip());
        double[] time = readTime(dir.resolve("time.txt"));
        List<PeerPoint> points = List.of();
        String error = null;
        try {
            points = switch (tool) {
                case "kneepoint" -> kneepoint(dir);
                case "aiperf" -> List.of(aiperf(dir.resolve("out"), kind, load));
                case "guidellm" -> guidellm(dir.resolve("benchmarks.json"));
                case "vllm" -> List.of(vllm(dir.resolve("vllm.json"), kind, load));
                default -> throw new IOException("unknown tool '" + tool + "'");
            };
        } catch (IOException | RuntimeException e) {
            error = e.getClass().getSimpleName() + ": " + e.getMessage();
        }
        return new PeerRun(dir.getFileName().toString(), tool, kind, load, rc, time[0], time[1], time[2],
                p.getProperty("loadavg", ""), points, error, LoadPhase.read(dir.resolve("cpu_samples.tsv")));
    }

    /** user, sys, wall seconds from the last line of {@code /usr/bin/time -f "%U %S %e"} output; NaN if absent. */
    static double[] readTime(Path file) throws IOException {
        double[] nan = {Double.NaN, Double.NaN, Double.NaN};
        if (!Files.exists(file)) {
            return nan;
        }
        List<String> lines = Files.readAllLines(file, StandardCharsets.UTF_8).stream()
                .filter(l -> l.matches("\\s*[0-9.]+ [0-9.]+ [0-9.]+\\s*")).toList();
        if (lines.isEmpty()) {
            return nan;
        }
        String[] f = lines.get(lines.size() - 1).strip().split(" ");
        return new double[] {Double.parseDouble(f[0]), Double.parseDouble(f[1]), Double.parseDouble(f[2])};
    }

    // ---- Kneepoint ----------------------------------------------------------------------------------

    static List<PeerPoint> kneepoint(Path dir) throws IOException {
        Path summary;
        try (Stream<Path> s = Files.walk(dir, 2)) {
            summary = s.filter(f -> f.getFileName().toString().equals("summary.json")).findFirst()
                    .orElseThrow(() -> new IOException("no summary.json under " + dir));
        }
        Map<String, List<Long>> starts = new LinkedHashMap<>();
        Map<String, Long> tokens = new LinkedHashMap<>();
        Path requests = summary.resolveSibling("requests.jsonl");
        if (Files.exists(requests)) {
            try (BufferedReader r = Files.newBufferedReader(requests, StandardCharsets.UTF_8)) {
                for (String line = r.readLine(); line != null; line = r.readLine()) {
                    JsonNode n = JSON.readTree(line);
                    // every token received, warm-up and drain included: what the client's CPU was spent on
                    tokens.merge(n.path("step").asText(), n.path("output_tokens").asLong(0), Long::sum);
                    if (!n.path("warmup").asBoolean(false) && n.hasNonNull("t_dispatch_ns")) {
                        starts.computeIfAbsent(n.path("step").asText(), k -> new ArrayList<>())
                                .add(n.get("t_dispatch_ns").asLong());
                    }
                }
            }
        }
        List<PeerPoint> out = new ArrayList<>();
        for (JsonNode s : JSON.readTree(summary.toFile()).path("steps")) {
            boolean open = s.path("mode").asText().equals("open");
            double window = s.path("window_s").asDouble(Double.NaN);
            List<Long> st = starts.getOrDefault(s.path("label").asText(), List.of());
            out.add(new PeerPoint(open ? "open" : "closed",
                    open ? s.path("rate_rps").asDouble() : s.path("concurrency").asDouble(),
                    s.path("requests_ok").asLong(), s.path("requests_failed").asLong(),
                    tokens.getOrDefault(s.path("label").asText(), Math.round(s.path("output_tokens_per_s").asDouble() * window)),
                    window,
                    num(s.path("ttft_ms").path("p50")), num(s.path("ttft_ms").path("p99")),
                    num(s.path("tpot_ms").path("p50")), num(s.path("output_tokens_per_s")),
                    num(s.path("requests_per_s")), num(s.path("schedule_lag_ms").path("p50")),
                    num(s.path("schedule_lag_ms").path("p99")), rate(secondsSinceFirst(st))));
        }
        return out;
    }

    // ---- AIPerf ----------------------------------------------------------------------------------------

    static PeerPoint aiperf(Path out, String kind, String load) throws IOException {
        Path json = out.resolve("profile_export_aiperf.json");
        if (!Files.exists(json)) {
            throw new IOException("no " + json);
        }
        JsonNode j = JSON.readTree(json.toFile());
        List<Long> starts = new ArrayList<>();
        Path records = out.resolve("profile_export.jsonl");
        if (Files.exists(records)) {
            try (BufferedReader r = Files.newBufferedReader(records, StandardCharsets.UTF_8)) {
                for (String line = r.readLine(); line != null; line = r.readLine()) {
                    JsonNode m = JSON.readTree(line).path("metadata");
                    if (m.path("benchmark_phase").asText("profiling").equals("profiling") && m.hasNonNull("request_start_ns")) {
                        starts.add(m.get("request_start_ns").asLong());
                    }
                }
            }
        }
        long ok = Math.round(j.path("request_count").path("avg").asDouble(0));
        long errors = 0;
        for (JsonNode e : j.path("error_summary")) {
            errors += e.path("count").asLong(0);
        }
        boolean open = kind.equals("open");
        return new PeerPoint(open ? "open" : "closed", loadValue(load), ok, errors,
                Math.round(j.path("total_output_tokens").path("avg").asDouble(0)),
                num(j.path("benchmark_duration").path("avg")),
                num(j.path("time_to_first_token").path("p50")), num(j.path("time_to_first_token").path("p99")),
                num(j.path("inter_token_latency").path("p50")), num(j.path("output_token_throughput").path("avg")),
                num(j.path("request_throughput").path("avg")), num(j.path("credit_to_start_latency").path("p50")),
                num(j.path("credit_to_start_latency").path("p99")),
                rate(secondsSinceFirst(starts)));
    }

    // ---- GuideLLM ---------------------------------------------------------------------------------------

    static List<PeerPoint> guidellm(Path file) throws IOException {
        if (!Files.exists(file)) {
            throw new IOException("no " + file);
        }
        List<PeerPoint> out = new ArrayList<>();
        for (JsonNode b : JSON.readTree(file.toFile()).path("benchmarks")) {
            JsonNode strategy = b.path("config").path("strategy");
            String type = strategy.path("type_").asText();
            boolean open = !type.equals("concurrent") && !type.equals("synchronous");
            double load = open ? strategy.path("rate").asDouble(Double.NaN) : strategy.path("streams").asDouble(1);
            JsonNode m = b.path("metrics");
            JsonNode made = b.path("scheduler_metrics").path("requests_made");
            double duration = b.path("duration").asDouble(Double.NaN);
            JsonNode reqs = b.path("requests").path("successful");
            double[] startTimes = new double[reqs.size()];
            double[] lagsMs = new double[reqs.size()];
            for (int i = 0; i < reqs.size(); i++) {
                startTimes[i] = reqs.get(i).path("request_start_time").asDouble(Double.NaN);
                lagsMs[i] = reqs.get(i).path("request_dispatch_delay").asDouble(Double.NaN) * 1000;
            }
            long ok = made.path("successful").asLong(reqs.size());
            long tokens = Math.round(m.path("output_token_count").path("successful").path("total_sum").asDouble(0));
            // "incomplete" requests are the ones still in flight or queued when max_duration ended the
            // benchmark (GuideLLM cancels them): not failures of the server or the client.
            out.add(new PeerPoint(open ? "open" : "closed", load, ok, made.path("errored").asLong(0), tokens, duration,
                    num(pct(m, "time_to_first_token_ms", "p50")), num(pct(m, "time_to_first_token_ms", "p99")),
                    num(pct(m, "inter_token_latency_ms", "p50")), tokens / duration, ok / duration,
                    percentile(lagsMs, 50), percentile(lagsMs, 99), rate(startTimes)));
        }
        return out;
    }

    // ---- vLLM --------------------------------------------------------------------------------------------

    /** {@code vllm bench serve} result; lag = its {@code queue_times} (client_queue_time: send − arrival). */
    static PeerPoint vllm(Path file, String kind, String load) throws IOException {
        if (!Files.exists(file)) {
            throw new IOException("no " + file);
        }
        JsonNode j = JSON.readTree(file.toFile());
        double[] lagsMs = doubles(j.path("queue_times"), 1000);
        double[] starts = doubles(j.path("start_times"), 1);
        JsonNode errors = j.path("errors");
        for (int i = 0; i < starts.length && i < errors.size(); i++) {
            if (!errors.get(i).asText("").isEmpty()) {
                starts[i] = Double.NaN; // a failed request counts neither for the rate nor the lag
                if (i < lagsMs.length) {
                    lagsMs[i] = Double.NaN;
                }
            }
        }
        boolean open = kind.equals("open");
        return new PeerPoint(open ? "open" : "closed", loadValue(load), j.path("completed").asLong(0),
                j.path("failed").asLong(0), j.path("total_output_tokens").asLong(0), num(j.path("duration")),
                num(j.path("p50_ttft_ms")), num(j.path("p99_ttft_ms")), num(j.path("p50_tpot_ms")),
                num(j.path("output_throughput")), num(j.path("request_throughput")), percentile(lagsMs, 50),
                percentile(lagsMs, 99), rate(starts));
    }

    private static double[] doubles(JsonNode array, double scale) {
        double[] out = new double[array.size()];
        for (int i = 0; i < out.length; i++) {
            out[i] = array.get(i).isNumber() ? array.get(i).asDouble() * scale : Double.NaN;
        }
        return out;
    }

    private static JsonNode pct(JsonNode metrics, String name, String p) {
        return metrics.path(name).path("successful").path("percentiles").path(p);
    }

    // ---- helpers -------------------------------------------------------------------------------------------

    private static double num(JsonNode n) {
        return n.isNumber() ? n.asDouble() : Double.NaN;
    }

    /** Concurrency of {@code 8:400}, or the rate of {@code 25}. */
    private static double loadValue(String load) {
        String first = load.split("[:,]")[0].strip();
        return first.isEmpty() ? Double.NaN : Double.parseDouble(first);
    }

    /** Epoch or monotonic nanoseconds as seconds since the smallest (exact before the division). */
    private static double[] secondsSinceFirst(List<Long> nanos) {
        long min = nanos.stream().mapToLong(Long::longValue).min().orElse(0);
        return nanos.stream().mapToDouble(v -> (v - min) / 1e9).toArray();
    }

    /** (n − 1) / (last − first) of start times in seconds, any order; NaN for fewer than two. */
    static double rate(double[] startsS) {
        double[] s = Arrays.stream(startsS).filter(v -> !Double.isNaN(v)).sorted().toArray();
        if (s.length < 2 || s[s.length - 1] <= s[0]) {
            return Double.NaN;
        }
        return (s.length - 1) / (s[s.length - 1] - s[0]);
    }

    /** Linear-interpolation percentile (as numpy's default) of the non-NaN values; NaN when none. */
    static double percentile(double[] values, double p) {
        double[] v = Arrays.stream(values).filter(x -> !Double.isNaN(x)).sorted().toArray();
        if (v.length == 0) {
            return Double.NaN;
        }
        double rank = p / 100 * (v.length - 1);
        int lo = (int) Math.floor(rank);
        int hi = Math.min(lo + 1, v.length - 1);
        return v[lo] + (v[hi] - v[lo]) * (rank - lo);
    }
}
