package dev.kneepoint.telemetry;

import java.time.Duration;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Objects;

/**
 * What a sweep samples beside its load, every {@link #interval()} on the run's clock, into
 * {@code telemetry.jsonl} of the run directory: the server's Prometheus {@code /metrics} (mapped onto common
 * names by {@link ServerMetrics}), the host (CPU, memory, load average, network, this process's CPU) and the
 * GPUs ({@link Gpu}). Immutable; the {@code with...} methods return changed copies, and
 * {@link #problems()} lists every invalid setting at once.
 *
 * <pre>{@code
 * Kneepoint.sweep(target).rates(1, 2, 4)
 *         .telemetry(Telemetry.defaults().withInterval(Duration.ofMillis(250)).withGpu(Gpu.dcgm("http://gpu:9400/metrics")))
 *         .run();
 * }</pre>
 *
 * @param enabled    false samples nothing
 * @param interval   time between samples (default 500 ms; 50 ms to 60 s)
 * @param server     scrape the server's metrics endpoint (default true)
 * @param metricsUrl the endpoint; null means {@code <scheme://host:port of the target>/metrics}
 * @param host       sample the host (default true)
 * @param perCore    also sample each core's CPU use (default false)
 * @param gpu        GPU source (default {@link Gpu#auto()})
 * @param buckets    also keep the buckets of the server's TTFT and ITL histograms (default false: their
 *                   {@code _sum} and {@code _count} give the mean; the buckets, some 20 per histogram per scrape,
 *                   triple the file)
 */
public record Telemetry(boolean enabled, Duration interval, boolean server, String metricsUrl, boolean host,
                        boolean perCore, Gpu gpu, boolean buckets) {
    /** The default interval. */
    public static final Duration DEFAULT_INTERVAL = Duration.ofMillis(500);

    public Telemetry {
        Objects.requireNonNull(interval, "interval");
        Objects.requireNonNull(gpu, "gpu");
    }

    /** Server /metrics and host every 500 ms, GPU when nvidia-smi is present. */
    public static Telemetry defaults() {
        return new Telemetry(true, DEFAULT_INTERVAL, true, null, true, false, Gpu.auto(), false);
    }

    /** Nothing sampled. */
    public static Telemetry off() {
        return new Telemetry(false, DEFAULT_INTERVAL, false, null, false, false, Gpu.off(), false);
    }

    public Telemetry withInterval(Duration d) {
        return new Telemetry(enabled, d, server, metricsUrl, host, perCore, gpu, buckets);
    }

    public Telemetry withServer(boolean on) {
        return new Telemetry(enabled, interval, on, metricsUrl, host, perCore, gpu, buckets);
    }

    /** Scrapes this URL instead of {@code <target>/metrics} (and turns server scraping on). */
    public Telemetry withMetricsUrl(String url) {
        return new Telemetry(enabled, interval, true, url, host, perCore, gpu, buckets);
    }

    public Telemetry withHost(boolean on) {
        return new Telemetry(enabled, interval, server, metricsUrl, on, perCore, gpu, buckets);
    }

    public Telemetry withPerCore(boolean on) {
        return new Telemetry(enabled, interval, server, metricsUrl, host, on, gpu, buckets);
    }

    public Telemetry withGpu(Gpu source) {
        return new Telemetry(enabled, interval, server, metricsUrl, host, perCore, source, buckets);
    }

    /** Keep the server's TTFT and ITL histogram buckets too (for quantiles; about three times the file). */
    public Telemetry withBuckets(boolean on) {
        return new Telemetry(enabled, interval, server, metricsUrl, host, perCore, gpu, on);
    }

    /** Every invalid setting, each with its rule; empty when valid. */
    public List<String> problems() {
        List<String> p = new ArrayList<>();
        if (interval.compareTo(Duration.ofMillis(50)) < 0 || interval.compareTo(Duration.ofSeconds(60)) > 0) {
            p.add("telemetry interval must be within 50 ms..60 s, got " + interval.toMillis() + " ms");
        }
        if (metricsUrl != null && okhttp3.HttpUrl.parse(metricsUrl) == null) {
            p.add("metrics URL must be an http(s) URL such as http://localhost:8000/metrics, got '" + metricsUrl + "'");
        }
        if (gpu instanceof Gpu.Dcgm d && okhttp3.HttpUrl.parse(d.url()) == null) {
            p.add("DCGM exporter URL must be an http(s) URL such as http://localhost:9400/metrics, got '" + d.url() + "'");
        }
        return p;
    }

    /** The settings as written to {@code manifest.json}. */
    public Map<String, Object> describe() {
        Map<String, Object> m = new LinkedHashMap<>();
        m.put("enabled", enabled);
        m.put("interval_ms", interval.toMillis());
        m.put("server", server);
        m.put("metrics_url", metricsUrl == null ? "<target>/metrics" : metricsUrl);
        m.put("host", host);
        m.put("per_core", perCore);
        m.put("buckets", buckets);
        m.put("gpu", switch (gpu) {
            case Gpu.Auto a -> "auto";
            case Gpu.NvidiaSmi n -> "nvidia-smi";
            case Gpu.Dcgm d -> "dcgm " + d.url();
            case Gpu.Off o -> "off";
        });
        return m;
    }
}
