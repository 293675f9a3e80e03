package dev.kneepoint.io;

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
import java.util.stream.Stream;

/**
 * Result files of other load generators, and Kneepoint's own, read into {@link PeerPoint}s (one per load level, in
 * Kneepoint's terms): AIPerf's {@code profile_export_aiperf.json} (with {@code profile_export.jsonl} beside it for the
 * dispatch rate; checked with AIPerf 0.13.0), GuideLLM's {@code benchmarks.json} (0.8.1), {@code vllm bench serve}'s
 * {@code --save-result} file (0.33.0), and a Kneepoint run directory. {@link #read(Path)} takes any such file or
 * directory and says which tool wrote it; the per-tool readers serve {@code bench --peers}, whose script says the load.
 */
public final class PeerResults {
    private static final ObjectMapper JSON = new ObjectMapper();

    private PeerResults() {
    }

    /** What one file or directory held: the tool that wrote it, where it was, its load levels. */
    public record Export(String tool, Path source, List<PeerPoint> points) {
        public Export {
            points = List.copyOf(points);
        }
    }

    /**
     * Reads a result of any of the tools from {@code path}, a file or a directory holding one: the tool is told by
     * the content (AIPerf's export, GuideLLM's {@code benchmarks}, vLLM's {@code completed} and {@code p50_ttft_ms},
     * Kneepoint's {@code summary.json}), the load by the file itself (AIPerf {@code input_config.loadgen}, vLLM
     * {@code max_concurrency} and {@code request_rate}, GuideLLM each benchmark's strategy).
     *
     * @throws IOException when the path is missing, unreadable, or none of the tools' results, saying which files
     *                     were looked for
     */
    public static Export read(Path path) throws IOException {
        if (!Files.exists(path)) {
            throw new IOException("no such file or directory: " + path);
        }
        if (Files.isDirectory(path)) {
            for (String name : new String[] {"profile_export_aiperf.json", "out/profile_export_aiperf.json",
                "benchmarks.json", "summary.json"}) {
                if (Files.isRegularFile(path.resolve(name))) {
                    return name.equals("summary.json") ? new Export("kneepoint", path, kneepoint(path))
                            : read(path.resolve(name));
                }
            }
            throw new IOException(path + " holds none of profile_export_aiperf.json (AIPerf), benchmarks.json "
                    + "(GuideLLM), summary.json (Kneepoint): give the result file itself");
        }
        JsonNode j;
        try {
            j = JSON.readTree(path.toFile());
        } catch (IOException e) {
            throw new IOException(path + " is not a JSON result file (" + e.getMessage() + ")", e);
        }
        if (j.has("benchmarks")) {
            return new Export("guidellm", path, guidellm(path));
        }
        if (j.has("time_to_first_token") && j.has("request_throughput")) {
            JsonNode loadgen = j.path("input_config").path("loadgen");
            boolean open = loadgen.path("request_rate").isNumber();
            String load = open ? loadgen.path("request_rate").asText() : loadgen.path("concurrency").asText("");
            return new Export("aiperf", path, List.of(aiperf(path.getParent(), open ? "open" : "closed", load)));
        }
        if (j.has("completed") && (j.has("p50_ttft_ms") || j.has("mean_ttft_ms"))) {
            JsonNode rate = j.path("request_rate");
            boolean open = rate.isNumber() && Double.isFinite(rate.asDouble());
            String load = open ? rate.asText() : j.path("max_concurrency").asText("");
            return new Export("vllm", path, List.of(vllm(path, open ? "open" : "closed", load)));
        }
        if (path.getFileName().toString().equals("summary.json")) {
            return new Export("kneepoint", path, kneepoint(path.getParent()));
        }
        throw new IOException(path + " is none of AIPerf's profile_export_aiperf.json, GuideLLM's benchmarks.json, "
                + "vllm bench serve's result file or Kneepoint's summary.json");
    }

    // ---- Kneepoint ----------------------------------------------------------------------------------

    public static List<PeerPoint> kneepoint(Path dir) throws IOException {
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

    public static PeerPoint aiperf(Path out, String kind, String load) throws IOException {
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

    public static List<PeerPoint> guidellm(Path file) throws IOException {
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
    public static PeerPoint vllm(Path file, String kind, String load) throws IOException {
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
    public static double rate(double[] startsS) {
        double[] s = Arrays.stream(startsS).filter(v -> !Double.isNaN(v)).sorted().toArray();
        if (s.length < 2 || s[s.length - 1] <= s[0]) {
            return Double.NaN;
        }
        return (s.length - 1) / (s[s.length - 1] - s[0]);
    }

    /** Linear-interpolation percentile (as numpy's default) of the non-NaN values; NaN when none. */
    public static double percentile(double[] values, double p) {
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
