package dev.kneepoint.telemetry;

import dev.kneepoint.client.HttpClients;
import dev.kneepoint.metrics.RunClock;
import java.io.IOException;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Objects;
import java.util.Optional;
import java.util.concurrent.ScheduledThreadPoolExecutor;
import java.util.concurrent.TimeUnit;
import java.util.function.BooleanSupplier;
import okhttp3.HttpUrl;
import okhttp3.OkHttpClient;

/**
 * Runs a run's samplers on one scheduler thread ({@code kneepoint-telemetry}, a platform thread that is not a
 * daemon and ends at {@link #close()}), timestamps everything on the run's {@link RunClock} and writes it to
 * {@code telemetry.jsonl} as it comes (flushed every 200 ms at most), or keeps it in memory when no directory
 * is given. Nothing here waits on the load or blocks it: scrapes are asynchronous HTTP calls (OkHttp's shared
 * client), nvidia-smi is read by one virtual thread, and host readings are a few small {@code /proc} files.
 * A failing source is recorded once per kind of failure and sampling goes on.
 *
 * <p>Statuses written: for each source {@code started}, or {@code absent} (no GPU source), {@code unavailable}
 * (HTTP 404), the first {@code error} of each kind, and {@code stopped} at close with counts.
 */
public final class TelemetryRecorder implements AutoCloseable {
    private final ScheduledThreadPoolExecutor scheduler;
    private final TelemetrySink sink;
    private final Path directory;
    private final List<HttpScraper> scrapers = new ArrayList<>();
    private final List<String> sources = new ArrayList<>();
    private final OkHttpClient http;
    private NvidiaSmi nvidiaSmi;
    private HostSampler host;
    private boolean closed;

    /** What the recorder reaches out to; tests replace parts. */
    record Environment(OkHttpClient http, HostSampler host, NvidiaSmi.CommandRunner runner, Optional<Path> nvidiaSmi) {
        static Environment system(Telemetry config) {
            Duration timeout = config.interval().multipliedBy(4).compareTo(Duration.ofSeconds(2)) > 0
                    ? config.interval().multipliedBy(4) : Duration.ofSeconds(2);
            // its own small pool, emptied at close: no scrape connection outlives the run
            OkHttpClient http = HttpClients.shared().newBuilder().callTimeout(timeout)
                    .connectionPool(new okhttp3.ConnectionPool(4, 1, TimeUnit.MINUTES)).build();
            return new Environment(http, HostSampler.system(config.perCore()), NvidiaSmi.PROCESSES,
                    NvidiaSmi.which(System.getenv("PATH")));
        }
    }

    private TelemetryRecorder(Telemetry config, RunClock clock, HttpUrl target, Path directory, Environment env,
                              BooleanSupplier runOver) {
        this.directory = directory;
        this.http = env.http();
        this.sink = new TelemetrySink(clock, directory == null ? null : new TelemetryLog(directory.resolve(TelemetryLoader.FILE)));
        this.scheduler = new ScheduledThreadPoolExecutor(1, r -> Thread.ofPlatform().name("kneepoint-telemetry")
                .daemon(false).unstarted(r));
        scheduler.setRemoveOnCancelPolicy(true);
        long period = config.interval().toNanos();
        if (config.server()) {
            HttpUrl url = config.metricsUrl() != null ? HttpUrl.get(config.metricsUrl()) : metricsUrl(target);
            boolean buckets = config.buckets();
            scrapers.add(new HttpScraper("server", url, env.http(), sink, (e, t) -> ServerMetrics.map(e, t, buckets)));
            sources.add("server");
        }
        if (config.host()) {
            this.host = env.host();
            sources.add("host");
            sink.status("host", "started", host.usesProc() ? "reading /proc" : "JVM OperatingSystemMXBean (no /proc)");
        }
        switch (config.gpu()) {
            case Gpu.Off o -> { }
            case Gpu.Dcgm d -> {
                scrapers.add(new HttpScraper("gpu", HttpUrl.get(d.url()), env.http(), sink, (e, t) -> {
                    GpuMetrics.dcgmDevices(e).forEach(sink::gpu);
                    return GpuMetrics.mapDcgm(e, t);
                }));
                sources.add("gpu");
            }
            case Gpu.Auto a -> startNvidiaSmi(env, config, false);
            case Gpu.NvidiaSmi n -> startNvidiaSmi(env, config, true);
        }
        // The first sample of each source is taken here, on the caller's thread, before the load starts: its
        // one-off costs (HTTP client and parser class loading, the first scrape) would otherwise compete for
        // the CPU with the run's first requests and inflate their dispatch lag and TTFT.
        for (HttpScraper s : scrapers) {
            Runnable tick = guard(s.url().toString(), s::tick);
            tick.run();
            scheduler.scheduleAtFixedRate(tick, period, period, TimeUnit.NANOSECONDS);
        }
        if (host != null) {
            Runnable tick = guard("host", this::sampleHost);
            tick.run();
            scheduler.scheduleAtFixedRate(tick, period, period, TimeUnit.NANOSECONDS);
        }
        long flush = Math.min(period, TimeUnit.MILLISECONDS.toNanos(200));
        scheduler.scheduleAtFixedRate(() -> {
            sink.flush();
            if (runOver.getAsBoolean()) {
                scheduler.shutdown(); // the run ended and nobody closed us: stop sampling, keep the file
            }
        }, flush, flush, TimeUnit.NANOSECONDS);
    }

    /**
     * Starts sampling.
     *
     * @param config    what to sample (must be valid: see {@link Telemetry#problems()})
     * @param clock     the run's clock
     * @param target    the target's base URL, for the default {@code <scheme://host:port>/metrics}
     * @param directory the run directory to write {@code telemetry.jsonl} into, or null to keep samples in memory
     * @param runOver   true once the run has ended: sampling then stops by itself even if {@link #close()} is late
     * @throws IllegalArgumentException listing every invalid setting
     */
    public static TelemetryRecorder start(Telemetry config, RunClock clock, HttpUrl target, Path directory,
                                          BooleanSupplier runOver) {
        return start(config, clock, target, directory, runOver, Environment.system(config));
    }

    static TelemetryRecorder start(Telemetry config, RunClock clock, HttpUrl target, Path directory,
                                   BooleanSupplier runOver, Environment env) {
        Objects.requireNonNull(config, "config");
        Objects.requireNonNull(clock, "clock");
        List<String> problems = new ArrayList<>(config.problems());
        if (config.server() && config.metricsUrl() == null && target == null) {
            problems.add("server scraping needs a target or a metrics URL");
        }
        if (!problems.isEmpty()) {
            throw new IllegalArgumentException("Invalid telemetry settings: " + String.join("; ", problems));
        }
        return new TelemetryRecorder(config, clock, target, directory, env, runOver == null ? () -> false : runOver);
    }

    /** {@code <scheme>://<host>:<port>/metrics} of a target's base URL. */
    public static HttpUrl metricsUrl(HttpUrl target) {
        return new HttpUrl.Builder().scheme(target.scheme()).host(target.host()).port(target.port())
                .addPathSegment("metrics").build();
    }

    private void startNvidiaSmi(Environment env, Telemetry config, boolean required) {
        sources.add("gpu");
        if (env.nvidiaSmi().isEmpty()) {
            sink.status("gpu", "absent", "nvidia-smi not found on the PATH" + (required ? "" : " (no NVIDIA GPU"
                    + " sampled; give a DCGM exporter URL to sample a remote GPU)"));
            return;
        }
        this.nvidiaSmi = NvidiaSmi.start(sink, env.runner(),
                NvidiaSmi.command(env.nvidiaSmi().get(), config.interval().toMillis())).orElse(null);
    }

    private void sampleHost() {
        try {
            sink.samples("host", host.sample(sink.clock().now()));
        } catch (IOException | RuntimeException e) {
            sink.error("host", e.getClass().getSimpleName(), String.valueOf(e.getMessage()));
        }
    }

    private Runnable guard(String what, Runnable r) {
        return () -> {
            try {
                r.run();
            } catch (RuntimeException e) {
                sink.error("telemetry", "internal", what + ": " + e); // a thrown task would be silently unscheduled
            }
        };
    }

    /** The run directory written to, or null when samples are kept in memory. */
    public Path directory() {
        return directory;
    }

    /** Samples so far of one source. */
    public long samples(String source) {
        return sink.sampleCount(source);
    }

    /**
     * What the GPU source said about the GPUs it sampled, for the manifest's {@code config.server}: {@code gpus}, the
     * distinct names in GPU index order (when the source named any: nvidia-smi's {@code name}, DCGM's
     * {@code modelName}), and {@code gpu_count}, the GPUs sampled. Empty when no GPU was sampled (GPU telemetry off,
     * no nvidia-smi, or no reading yet).
     */
    public Map<String, Object> gpuIdentity() {
        Map<String, String> gpus = sink.gpus();
        Map<String, Object> out = new LinkedHashMap<>();
        if (gpus.isEmpty()) {
            return out;
        }
        List<String> names = gpus.values().stream().filter(n -> !n.isEmpty()).distinct().toList();
        if (!names.isEmpty()) {
            out.put("gpus", names);
        }
        out.put("gpu_count", gpus.size());
        return out;
    }

    /**
     * What was recorded: read back from {@code telemetry.jsonl} when writing to a directory (flushed first),
     * else what is held in memory.
     */
    public TelemetryData data() {
        sink.flush();
        return directory == null ? sink.memory() : TelemetryLoader.load(directory);
    }

    /** For tests: waits until the nvidia-smi reader has read everything its command wrote. */
    boolean awaitGpuReader(long millis) throws InterruptedException {
        return nvidiaSmi == null || nvidiaSmi.awaitEnd(millis);
    }

    /** Stops every sampler, writes a {@code stopped} status per source and closes the file; idempotent. */
    @Override
    public synchronized void close() {
        if (closed) {
            return;
        }
        closed = true;
        scheduler.shutdownNow();
        boolean interrupted = false;
        try {
            while (!scheduler.awaitTermination(5, TimeUnit.SECONDS)) {
                // a sample in progress reads small files or hands off an async call: it ends quickly
            }
        } catch (InterruptedException e) {
            interrupted = true;
        }
        scrapers.forEach(HttpScraper::close);
        http.connectionPool().evictAll();
        if (nvidiaSmi != null) {
            nvidiaSmi.close();
        }
        for (String s : sources) {
            sink.status(s, "stopped", sink.sampleCount(s) + " samples, " + sink.errorCount(s) + " errors");
        }
        sink.flush();
        sink.close();
        if (interrupted) {
            Thread.currentThread().interrupt();
        }
    }
}
