package dev.kneepoint.telemetry;

import dev.kneepoint.telemetry.TelemetrySample.Kind;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.HashSet;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;

/**
 * Maps a server's Prometheus exposition onto common telemetry names, so that vLLM, SGLang, TGI, llama.cpp
 * and the embedded simulator (which speaks vLLM's names) read alike:
 *
 * <table>
 *   <caption>common names</caption>
 *   <tr><th>common</th><th>meaning</th></tr>
 *   <tr><td>{@code running}</td><td>requests in the running batch</td></tr>
 *   <tr><td>{@code waiting}</td><td>requests queued (deferred) by the server</td></tr>
 *   <tr><td>{@code kv_cache_usage}</td><td>KV-cache use, fraction 0..1</td></tr>
 *   <tr><td>{@code preemptions_total}</td><td>cumulative preemptions</td></tr>
 *   <tr><td>{@code prefix_cache_hits}, {@code prefix_cache_queries}</td><td>cumulative prefix-cache tokens</td></tr>
 *   <tr><td>{@code prefix_cache_hit_rate}</td><td>a server-computed hit ratio (SGLang, older vLLM)</td></tr>
 *   <tr><td>{@code server_ttft}, {@code server_itl}, {@code server_tpot}, {@code server_e2e},
 *       {@code server_queue_time}</td>
 *       <td>histograms: {@code _bucket} (label {@code le}), {@code _sum}, {@code _count}, in seconds;
 *       {@code server_itl} observes each gap between tokens, {@code server_tpot} one mean per request
 *       (vLLM's {@code request_time_per_output_token_seconds}; TGI's {@code mean_time_per_token_duration},
 *       whose mean is the inference time, prefill included, over the generated tokens)</td></tr>
 *   <tr><td>{@code prompt_tokens_total}, {@code generation_tokens_total}</td><td>cumulative tokens</td></tr>
 * </table>
 *
 * <p>Where a server exposes two names for one common name (vLLM's deprecated {@code gpu_cache_usage_perc}
 * beside {@code kv_cache_usage_perc}), the first of the preference order wins and the other is kept raw.
 * Metrics with no common name are kept under their own name, except {@code _created} series. Histogram
 * buckets are kept only for {@code server_ttft} and {@code server_itl} when asked for; every histogram keeps
 * its {@code _sum} and {@code _count}. Pure; thread-safe.
 */
final class ServerMetrics {
    /** Common name to raw names (series name for scalars, family name for histograms), in preference order. */
    public static final Map<String, List<String>> NAMES = names();

    private static Map<String, List<String>> names() {
        Map<String, List<String>> m = new LinkedHashMap<>();
        m.put("running", List.of("vllm:num_requests_running", "sglang:num_running_reqs", "tgi_batch_current_size",
                "llamacpp:requests_processing"));
        m.put("waiting", List.of("vllm:num_requests_waiting", "sglang:num_queue_reqs", "tgi_queue_size",
                "llamacpp:requests_deferred"));
        m.put("kv_cache_usage", List.of("vllm:kv_cache_usage_perc", "vllm:gpu_cache_usage_perc", "sglang:token_usage",
                "llamacpp:kv_cache_usage_ratio"));
        m.put("preemptions_total", List.of("vllm:num_preemptions_total", "vllm:num_preemptions"));
        m.put("prefix_cache_hits", List.of("vllm:prefix_cache_hits_total", "vllm:prefix_cache_hits",
                "vllm:gpu_prefix_cache_hits_total"));
        m.put("prefix_cache_queries", List.of("vllm:prefix_cache_queries_total", "vllm:prefix_cache_queries",
                "vllm:gpu_prefix_cache_queries_total"));
        m.put("prefix_cache_hit_rate", List.of("sglang:cache_hit_rate", "vllm:gpu_prefix_cache_hit_rate"));
        m.put("server_ttft", List.of("vllm:time_to_first_token_seconds", "sglang:time_to_first_token_seconds"));
        m.put("server_itl", List.of("vllm:inter_token_latency_seconds", "vllm:time_per_output_token_seconds",
                "sglang:inter_token_latency_seconds", "sglang:time_per_output_token_seconds"));
        m.put("server_tpot", List.of("vllm:request_time_per_output_token_seconds",
                "tgi_request_mean_time_per_token_duration"));
        m.put("server_e2e", List.of("vllm:e2e_request_latency_seconds", "sglang:e2e_request_latency_seconds",
                "tgi_request_duration"));
        m.put("server_queue_time", List.of("vllm:request_queue_time_seconds", "sglang:queue_time_seconds",
                "tgi_request_queue_duration"));
        m.put("prompt_tokens_total", List.of("vllm:prompt_tokens_total", "sglang:prompt_tokens_total",
                "llamacpp:prompt_tokens_total"));
        m.put("generation_tokens_total", List.of("vllm:generation_tokens_total", "sglang:generation_tokens_total",
                "llamacpp:tokens_predicted_total"));
        return java.util.Collections.unmodifiableMap(m);
    }

    private static final Map<String, String> RAW_TO_COMMON = new HashMap<>();

    static {
        NAMES.forEach((common, raws) -> raws.forEach(r -> RAW_TO_COMMON.put(r, common)));
    }

    private ServerMetrics() {}

    /** Which server an exposition comes from, by its metric-name prefixes ({@code vllm}, {@code sglang}, ...). */
    public static String detect(PromText.Exposition e) {
        for (PromText.Sample s : e.samples()) {
            String n = s.name();
            if (n.startsWith("vllm:")) return "vllm";
            if (n.startsWith("sglang:")) return "sglang";
            if (n.startsWith("tgi_")) return "tgi";
            if (n.startsWith("llamacpp:")) return "llamacpp";
        }
        return "unknown";
    }

    /** {@link #map(PromText.Exposition, long, boolean)} keeping the TTFT and ITL buckets. */
    public static List<TelemetrySample> map(PromText.Exposition e, long tNanos) {
        return map(e, tNanos, true);
    }

    /**
     * Maps every sample of a scrape taken at {@code tNanos} (run clock) to telemetry samples of source
     * {@code server}. Buckets are kept only for {@code server_ttft} and {@code server_itl}, and only with
     * {@code buckets}; every histogram keeps its {@code _sum} and {@code _count}.
     */
    public static List<TelemetrySample> map(PromText.Exposition e, long tNanos, boolean buckets) {
        Set<String> present = new HashSet<>();
        for (PromText.Sample s : e.samples()) {
            present.add(s.name());
            e.familyOf(s.name()).ifPresent(f -> present.add(f.name()));
        }
        Map<String, String> chosen = new HashMap<>(); // common -> raw chosen
        NAMES.forEach((common, raws) -> raws.stream().filter(present::contains).findFirst()
                .ifPresent(r -> chosen.put(common, r)));
        List<TelemetrySample> out = new ArrayList<>(e.samples().size());
        for (PromText.Sample s : e.samples()) {
            String name = s.name();
            if (name.endsWith("_created")) {
                continue;
            }
            String type = e.typeOf(name);
            boolean histogramPart = type.equals("histogram") || type.equals("summary");
            String family = e.familyOf(name).map(PromText.Family::name).orElse(name);
            String suffix = histogramPart && name.startsWith(family) ? name.substring(family.length()) : "";
            String lookup = histogramPart ? family : name;
            String common = RAW_TO_COMMON.get(lookup);
            if (common == null && !histogramPart) {
                common = RAW_TO_COMMON.get(family); // counter declared without _total
            }
            if (common != null && !lookup.equals(chosen.get(common)) && !family.equals(chosen.get(common))) {
                common = null; // a second name for a common metric already taken: keep it raw
            }
            Kind kind = histogramPart && !suffix.isEmpty() || type.equals("counter") || name.endsWith("_total")
                    ? Kind.COUNTER : Kind.GAUGE;
            boolean bucket = histogramPart && suffix.equals("_bucket");
            if (bucket && !(buckets && ("server_ttft".equals(common) || "server_itl".equals(common)))) {
                continue;
            }
            if (common != null) {
                out.add(new TelemetrySample(tNanos, "server", common + suffix, s.labels(), kind, s.value(), name));
            } else {
                out.add(new TelemetrySample(tNanos, "server", name, s.labels(), kind, s.value(), ""));
            }
        }
        return out;
    }
}
