package dev.kneepoint.telemetry;

import static org.assertj.core.api.Assertions.assertThat;

import java.util.List;
import java.util.Map;
import java.util.Optional;
import org.junit.jupiter.api.Test;

class ServerMetricsTest {
    private static List<TelemetrySample> mapped(String server) {
        return ServerMetrics.map(PromText.parse(Fixtures.metrics(server)), 1_000_000L);
    }

    private static Optional<TelemetrySample> one(List<TelemetrySample> s, String name) {
        List<TelemetrySample> m = s.stream().filter(x -> x.name().equals(name)).toList();
        assertThat(m).as(name).hasSizeLessThanOrEqualTo(1);
        return m.stream().findFirst();
    }

    private static double value(List<TelemetrySample> s, String name) {
        return one(s, name).orElseThrow(() -> new AssertionError("no " + name + " in " + s)).value();
    }

    /**
     * fixtures/metrics/vllm-0.33.prom is vLLM 0.33.0's own PrometheusStatLogger rendered by prometheus_client 0.26.0
     * (see fixtures/PROVENANCE.md): the current names, with no deprecated twins (no gpu_cache_usage_perc, no
     * time_per_output_token_seconds), counters as FAMILY_total, _created gauges, and a histogram whose family
     * name itself ends in _total (vllm:iteration_tokens_total). Values are the ones the generator set: exact.
     */
    @Test
    void currentVllmExpositionFromItsOwnLoggerMapsOntoCommonNames() {
        PromText.Exposition e = PromText.parse(Fixtures.metrics("vllm-0.33"));
        assertThat(ServerMetrics.detect(e)).isEqualTo("vllm");
        List<TelemetrySample> s = ServerMetrics.map(e, 1_000_000L);
        assertThat(value(s, "running")).isEqualTo(12.0);
        assertThat(value(s, "waiting")).isEqualTo(3.0);
        assertThat(value(s, "kv_cache_usage")).isEqualTo(0.4312);
        assertThat(value(s, "preemptions_total")).isEqualTo(7.0);
        assertThat(value(s, "prompt_tokens_total")).isEqualTo(524288.0);
        assertThat(value(s, "generation_tokens_total")).isEqualTo(131072.0);
        assertThat(value(s, "prefix_cache_queries")).isEqualTo(524288.0);
        assertThat(value(s, "prefix_cache_hits")).isEqualTo(131072.0);
        assertThat(value(s, "server_ttft_count")).isEqualTo(3.0);
        assertThat(value(s, "server_ttft_sum")).isCloseTo(0.293, org.assertj.core.api.Assertions.within(1e-9));
        assertThat(one(s, "server_ttft_count").orElseThrow().raw()).isEqualTo("vllm:time_to_first_token_seconds_count");
        assertThat(value(s, "server_itl_count")).isEqualTo(4.0);
        assertThat(one(s, "server_itl_count").orElseThrow().raw()).isEqualTo("vllm:inter_token_latency_seconds_count");
        assertThat(value(s, "server_tpot_count")).isEqualTo(1.0);
        assertThat(value(s, "server_e2e_count")).isEqualTo(1.0);
        assertThat(value(s, "server_queue_time_count")).isEqualTo(1.0);
        assertThat(s).noneMatch(x -> x.name().endsWith("_created"));
        assertThat(value(s, "vllm:iteration_tokens_total_count")).isEqualTo(0.0);
    }

    @Test
    void vllmMapsOntoCommonNamesAndKeepsTheRestRaw() {
        PromText.Exposition e = PromText.parse(Fixtures.metrics("vllm"));
        assertThat(ServerMetrics.detect(e)).isEqualTo("vllm");
        List<TelemetrySample> s = ServerMetrics.map(e, 1_000_000L);
        assertThat(value(s, "running")).isEqualTo(12.0);
        assertThat(value(s, "waiting")).isEqualTo(3.0);
        assertThat(value(s, "kv_cache_usage")).isEqualTo(0.4312);
        assertThat(one(s, "kv_cache_usage").orElseThrow().raw()).isEqualTo("vllm:kv_cache_usage_perc");
        // the deprecated twin stays raw instead of doubling the common series
        assertThat(one(s, "vllm:gpu_cache_usage_perc")).isPresent();
        assertThat(value(s, "preemptions_total")).isEqualTo(7.0);
        assertThat(one(s, "preemptions_total").orElseThrow().kind()).isEqualTo(TelemetrySample.Kind.COUNTER);
        assertThat(value(s, "prefix_cache_hits")).isEqualTo(131072.0);
        assertThat(value(s, "prefix_cache_queries")).isEqualTo(524288.0);
        assertThat(value(s, "server_ttft_sum")).isEqualTo(56.32);
        assertThat(value(s, "server_ttft_count")).isEqualTo(1024.0);
        assertThat(s.stream().filter(x -> x.name().equals("server_ttft_bucket"))).hasSize(11);
        // inter_token_latency is preferred over the deprecated time_per_output_token
        assertThat(one(s, "server_itl_count").orElseThrow().raw()).isEqualTo("vllm:inter_token_latency_seconds_count");
        assertThat(one(s, "vllm:time_per_output_token_seconds_sum")).isPresent();
        assertThat(s).noneMatch(x -> x.name().equals("vllm:time_per_output_token_seconds_bucket"));
        assertThat(s).noneMatch(x -> x.name().endsWith("_created"));
        assertThat(s.stream().filter(x -> x.name().equals("vllm:request_success_total"))).hasSize(3);
        assertThat(one(s, "running").orElseThrow().key()).isEqualTo("server:running{engine=0}");
        assertThat(s).allMatch(x -> x.tNanos() == 1_000_000L && x.source().equals("server"));
        // without buckets (the recorder's default): 11 TTFT and 3 ITL bucket lines fewer, sums and counts kept
        List<TelemetrySample> lean = ServerMetrics.map(e, 1_000_000L, false);
        assertThat(lean).noneMatch(x -> x.name().endsWith("_bucket"));
        assertThat(lean).hasSize(s.size() - 14);
        assertThat(value(lean, "server_ttft_count")).isEqualTo(1024.0);
    }

    @Test
    void sglangMapsRunningQueueTokenUsageAndCacheHitRate() {
        List<TelemetrySample> s = mapped("sglang");
        assertThat(value(s, "running")).isEqualTo(24.0);
        assertThat(value(s, "waiting")).isEqualTo(5.0);
        assertThat(value(s, "kv_cache_usage")).isEqualTo(0.28);
        assertThat(value(s, "prefix_cache_hit_rate")).isEqualTo(0.625);
        assertThat(value(s, "server_ttft_sum")).isEqualTo(368.64);
        assertThat(value(s, "server_itl_count")).isEqualTo(520192.0);
        assertThat(value(s, "server_e2e_count")).isEqualTo(4096.0);
        assertThat(value(s, "generation_tokens_total")).isEqualTo(524288.0);
        assertThat(value(s, "sglang:gen_throughput")).isEqualTo(1830.5);
        assertThat(one(s, "running").orElseThrow().key()).isEqualTo("server:running");
    }

    @Test
    void tgiMapsBatchAndQueueAndPerTokenHistogram() {
        List<TelemetrySample> s = mapped("tgi");
        assertThat(value(s, "running")).isEqualTo(32.0);
        assertThat(value(s, "waiting")).isEqualTo(9.0);
        // TGI's per-token histogram is one mean per request (inference time / tokens): TPOT, not ITL
        assertThat(value(s, "server_tpot_sum")).isEqualTo(40.8);
        assertThat(s.stream().noneMatch(x -> x.name().startsWith("server_itl"))).isTrue();
        assertThat(value(s, "server_queue_time_count")).isEqualTo(2040.0);
        assertThat(value(s, "server_e2e_sum")).isEqualTo(8568.0);
        assertThat(value(s, "tgi_request_count")).isEqualTo(2048.0);
        assertThat(one(s, "tgi_request_count").orElseThrow().kind()).isEqualTo(TelemetrySample.Kind.COUNTER);
        // an unmapped histogram keeps _sum and _count, not its buckets
        assertThat(s.stream().filter(x -> x.name().startsWith("tgi_request_generated_tokens")))
                .extracting(TelemetrySample::name)
                .containsExactlyInAnyOrder("tgi_request_generated_tokens_sum", "tgi_request_generated_tokens_count");
        assertThat(one(s, "kv_cache_usage")).isEmpty(); // TGI has no KV-cache gauge: absent, not zero
    }

    @Test
    void llamaCppRecordedFromARealServer() {
        // recorded from llama-server (llama-cpp-python 0.3.36's vendored llama.cpp) after one 8-token request
        List<TelemetrySample> s = mapped("llamacpp");
        assertThat(ServerMetrics.detect(PromText.parse(Fixtures.metrics("llamacpp")))).isEqualTo("llamacpp");
        assertThat(value(s, "running")).isEqualTo(0.0);
        assertThat(value(s, "waiting")).isEqualTo(0.0);
        assertThat(value(s, "generation_tokens_total")).isEqualTo(8.0);
        assertThat(value(s, "prompt_tokens_total")).isEqualTo(2.0);
        assertThat(value(s, "llamacpp:n_decode_total")).isEqualTo(8.0);
        assertThat(one(s, "llamacpp:n_decode_total").orElseThrow().kind()).isEqualTo(TelemetrySample.Kind.COUNTER);
        assertThat(one(s, "llamacpp:predicted_tokens_seconds").orElseThrow().kind()).isEqualTo(TelemetrySample.Kind.GAUGE);
        assertThat(one(s, "kv_cache_usage")).isEmpty(); // this build no longer exposes kv_cache_usage_ratio
    }

    @Test
    void theEmbeddedSimulatorSpeaksVllmNames() {
        try (dev.kneepoint.sim.Simulator sim = dev.kneepoint.sim.Simulator.start(dev.kneepoint.sim.SimConfig.preset("fast"))) {
            PromText.Exposition e = PromText.parse(sim.metricsText());
            assertThat(e.problems()).isEmpty();
            assertThat(ServerMetrics.detect(e)).isEqualTo("vllm");
            List<TelemetrySample> s = ServerMetrics.map(e, 0L, false);
            // an idle simulator: nothing running or waiting, an empty cache, no requests yet
            assertThat(value(s, "running")).isEqualTo(0.0);
            assertThat(value(s, "waiting")).isEqualTo(0.0);
            assertThat(value(s, "kv_cache_usage")).isEqualTo(0.0);
            assertThat(one(s, "kv_cache_usage").orElseThrow().raw()).isEqualTo("vllm:kv_cache_usage_perc");
            assertThat(value(s, "preemptions_total")).isEqualTo(0.0);
            assertThat(value(s, "prefix_cache_hits")).isEqualTo(0.0);
            assertThat(value(s, "server_ttft_count")).isEqualTo(0.0);
            assertThat(value(s, "server_itl_count")).isEqualTo(0.0);
            assertThat(value(s, "server_e2e_count")).isEqualTo(0.0);
            assertThat(value(s, "generation_tokens_total")).isEqualTo(0.0);
            assertThat(s).anyMatch(x -> x.name().equals("kneepoint_sim_faults_injected_total"));
        }
    }

    @Test
    void dcgmMapsGpuFieldsPerGpu() {
        List<TelemetrySample> s = GpuMetrics.mapDcgm(PromText.parse(Fixtures.metrics("dcgm")), 5L);
        assertThat(s).hasSize(12);
        TelemetrySample util0 = s.stream().filter(x -> x.name().equals("gpu_util_pct")
                && x.labels().equals(Map.of("gpu", "0"))).findFirst().orElseThrow();
        assertThat(util0.value()).isEqualTo(97.0);
        assertThat(util0.key()).isEqualTo("gpu:gpu_util_pct{gpu=0}");
        TelemetrySample fb = s.stream().filter(x -> x.name().equals("mem_used_bytes")
                && x.labels().get("gpu").equals("0")).findFirst().orElseThrow();
        assertThat(fb.value()).isEqualTo(77537.0 * 1024 * 1024);
        assertThat(s).anyMatch(x -> x.name().equals("power_w") && x.value() == 612.345);
    }
}
