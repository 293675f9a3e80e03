package dev.kneepoint.sim;

import java.util.EnumMap;
import java.util.Locale;
import java.util.Map;
import java.util.concurrent.atomic.LongAdder;
import org.HdrHistogram.ConcurrentHistogram;
import org.HdrHistogram.Histogram;

/**
 * The simulator's counters and histograms, rendered as Prometheus text with vLLM's names.
 * Engine-side latencies (TTFT, inter-token, end-to-end) are observed at the model's scheduled
 * emission times; the emission lag is observed by the stream writers. Thread-safe.
 */
final class SimMetrics {
    final PromHistogram ttft = new PromHistogram("vllm:time_to_first_token_seconds",
            "Histogram of time to first token in seconds.", 0.001, 0.005, 0.01, 0.02, 0.04, 0.06, 0.08, 0.1, 0.25,
            0.5, 0.75, 1.0, 2.5, 5.0, 7.5, 10.0, 20.0, 40.0, 80.0, 160.0, 640.0, 2560.0);
    final PromHistogram itl = new PromHistogram("vllm:inter_token_latency_seconds",
            "Histogram of inter-token latency in seconds.", 0.001, 0.0025, 0.005, 0.01, 0.025, 0.05, 0.075, 0.1, 0.15,
            0.2, 0.3, 0.4, 0.5, 0.75, 1.0, 2.5, 5.0, 7.5, 10.0, 20.0, 40.0, 80.0);
    final PromHistogram e2e = new PromHistogram("vllm:e2e_request_latency_seconds",
            "Histogram of end to end request latency in seconds.", 0.01, 0.05, 0.1, 0.3, 0.5, 0.8, 1.0, 1.5, 2.0, 2.5,
            5.0, 10.0, 15.0, 20.0, 30.0, 40.0, 50.0, 60.0, 120.0, 240.0, 480.0, 960.0, 1920.0, 7680.0);
    final LongAdder promptTokens = new LongAdder();
    final LongAdder generationTokens = new LongAdder();
    final LongAdder requestsFinishedStop = new LongAdder();
    final LongAdder requestsFinishedLength = new LongAdder();
    final LongAdder requestsReceived = new LongAdder();
    final LongAdder tokensWritten = new LongAdder();
    /** Streams handed to their connection's thread because the socket's send buffer was full (slow readers). */
    final LongAdder slowWrites = new LongAdder();
    final Map<FaultKind, LongAdder> faults = new EnumMap<>(FaultKind.class);
    private final ConcurrentHistogram emissionLag = new ConcurrentHistogram(3_600_000_000_000L, 3);
    private final String modelLabel;

    SimMetrics(String modelName) {
        this.modelLabel = "model_name=\"" + JsonText.escape(modelName) + "\"";
        for (FaultKind k : FaultKind.values()) {
            faults.put(k, new LongAdder());
        }
    }

    void recordLag(long nanos) {
        emissionLag.recordValue(Math.max(0, nanos));
    }

    void fault(FaultKind kind) {
        faults.get(kind).increment();
    }

    /** Counts a request that finished with {@code reason} ({@code length}, else a stop). */
    void finished(String reason) {
        ("length".equals(reason) ? requestsFinishedLength : requestsFinishedStop).increment();
    }

    /** A copy of the emission-lag histogram (nanoseconds). */
    Histogram lagSnapshot() {
        return emissionLag.copy();
    }

    void resetLag() {
        emissionLag.reset();
    }

    /** Prometheus text exposition (version 0.0.4). */
    String render(EngineGauges g) {
        StringBuilder sb = new StringBuilder(8192);
        String l = modelLabel;
        gauge(sb, "vllm:num_requests_running", "Number of requests in model execution batches.", l, g.running());
        gauge(sb, "vllm:num_requests_waiting", "Number of requests waiting to be processed.", l, g.waiting());
        gauge(sb, "vllm:kv_cache_usage_perc", "KV-cache usage. 1 means 100 percent usage.", l, g.kvUsage());
        gauge(sb, "vllm:gpu_cache_usage_perc", "KV-cache usage (deprecated name). 1 means 100 percent usage.", l,
                g.kvUsage());
        counter(sb, "vllm:num_preemptions_total", "Cumulative number of preemptions from the engine.", l,
                g.preemptions());
        counter(sb, "vllm:prompt_tokens_total", "Number of prefill tokens processed.", l, promptTokens.sum());
        counter(sb, "vllm:generation_tokens_total", "Number of generation tokens processed.", l,
                generationTokens.sum());
        counter(sb, "vllm:prefix_cache_queries_total", "Prefix cache queries, in terms of number of queried tokens.",
                l, g.prefixQueries());
        counter(sb, "vllm:prefix_cache_hits_total", "Prefix cache hits, in terms of number of cached tokens.", l,
                g.prefixHits());
        sb.append("# HELP vllm:request_success_total Count of successfully processed requests.\n");
        sb.append("# TYPE vllm:request_success_total counter\n");
        sb.append("vllm:request_success_total{").append(l).append(",finished_reason=\"stop\"} ")
                .append(requestsFinishedStop.sum()).append('\n');
        sb.append("vllm:request_success_total{").append(l).append(",finished_reason=\"length\"} ")
                .append(requestsFinishedLength.sum()).append('\n');
        ttft.render(sb, l);
        itl.render(sb, l);
        e2e.render(sb, l);
        Histogram lag = emissionLag.copy();
        sb.append("# HELP kneepoint_sim_emission_lag_seconds Delay between a token event's scheduled time and its write.\n");
        sb.append("# TYPE kneepoint_sim_emission_lag_seconds summary\n");
        for (double q : new double[] {0.5, 0.9, 0.99, 0.999}) {
            sb.append("kneepoint_sim_emission_lag_seconds{").append(l).append(",quantile=\"").append(q).append("\"} ")
                    .append(seconds(lag.getValueAtPercentile(q * 100))).append('\n');
        }
        sb.append("kneepoint_sim_emission_lag_seconds_sum{").append(l).append("} ")
                .append(seconds(Math.round(lag.getMean() * lag.getTotalCount()))).append('\n');
        sb.append("kneepoint_sim_emission_lag_seconds_count{").append(l).append("} ").append(lag.getTotalCount())
                .append('\n');
        sb.append("# HELP kneepoint_sim_faults_injected_total Faults injected by the simulator.\n");
        sb.append("# TYPE kneepoint_sim_faults_injected_total counter\n");
        for (var e : faults.entrySet()) {
            sb.append("kneepoint_sim_faults_injected_total{").append(l).append(",kind=\"").append(e.getKey().wireName())
                    .append("\"} ").append(e.getValue().sum()).append('\n');
        }
        return sb.toString();
    }

    private static String seconds(long nanos) {
        return String.format(Locale.ROOT, "%.9f", nanos / 1e9);
    }

    private static void gauge(StringBuilder sb, String name, String help, String labels, double v) {
        sb.append("# HELP ").append(name).append(' ').append(help).append("\n# TYPE ").append(name).append(" gauge\n");
        sb.append(name).append('{').append(labels).append("} ").append(String.format(Locale.ROOT, "%s", v)).append('\n');
    }

    private static void counter(StringBuilder sb, String name, String help, String labels, long v) {
        sb.append("# HELP ").append(name).append(' ').append(help).append("\n# TYPE ").append(name).append(" counter\n");
        sb.append(name).append('{').append(labels).append("} ").append(v).append('\n');
    }
}
