package dev.kneepoint.sim;

import java.io.IOException;
import java.io.UncheckedIOException;
import java.time.Duration;
import java.util.EnumMap;
import java.util.Map;
import org.HdrHistogram.Histogram;

/**
 * The embedded OpenAI-compatible LLM server simulator: an HTTP server on {@code host:port} in front
 * of a continuous-batching engine model that runs in real time. Start it, point a client at
 * {@link #url()}, close it when done:
 *
 * <pre>{@code
 * try (Simulator sim = Simulator.start(SimConfig.preset("fast"))) {
 *     URI base = URI.create(sim.url() + "/v1/chat/completions");
 *     ...
 * }
 * }</pre>
 *
 * <p>It owns one platform thread for the engine, one for accepting connections and one virtual
 * thread per connection; {@link #close()} stops them all. Thread-safe.
 */
public final class Simulator implements AutoCloseable {
    private final SimConfig config;
    private final SimMetrics metrics;
    private final Engine engine;
    private final MiniHttpServer server;

    private Simulator(SimConfig config) throws IOException {
        this.config = config;
        long start = System.nanoTime();
        this.metrics = new SimMetrics(config.modelName());
        this.engine = new Engine(config, metrics, start);
        FaultPlanner faults = new FaultPlanner(config.faults(), start);
        CompletionHandler completions = new CompletionHandler(config, engine, metrics, faults);
        PoolingHandler pooling = new PoolingHandler(config, engine, metrics, faults);
        try {
            this.server = new MiniHttpServer(config.host(), config.port(),
                    new SimRouter(config, engine, metrics, completions, pooling));
        } catch (IOException e) {
            engine.close();
            throw e;
        }
    }

    /**
     * Starts a simulator and returns once it accepts connections.
     *
     * @throws UncheckedIOException when the port cannot be bound
     */
    public static Simulator start(SimConfig config) {
        try {
            return new Simulator(config);
        } catch (IOException e) {
            throw new UncheckedIOException("cannot start simulator on " + config.host() + ":" + config.port(), e);
        }
    }

    /** Base URL, e.g. {@code http://127.0.0.1:39123} (append {@code /v1/...}). */
    public String url() {
        String host = config.host().contains(":") ? "[" + config.host() + "]" : config.host();
        return "http://" + host + ":" + port();
    }

    /** The bound port. */
    public int port() {
        return server.port();
    }

    /** The configuration it runs. */
    public SimConfig config() {
        return config;
    }

    /** The Prometheus text that {@code GET /metrics} serves. */
    public String metricsText() {
        return metrics.render(engine.gauges());
    }

    /** A snapshot of state and counters. */
    public SimStats stats() {
        EngineGauges g = engine.gauges();
        Histogram lag = metrics.lagSnapshot();
        Map<FaultKind, Long> faults = new EnumMap<>(FaultKind.class);
        metrics.faults.forEach((k, v) -> faults.put(k, v.sum()));
        double hitRate = g.prefixQueries() == 0 ? 0 : (double) g.prefixHits() / g.prefixQueries();
        return new SimStats(g.running(), g.waiting(), g.kvUsage(), g.preemptions(), hitRate, g.steps(),
                metrics.requestsReceived.sum(), metrics.requestsFinishedStop.sum() + metrics.requestsFinishedLength.sum(),
                metrics.generationTokens.sum(), metrics.tokensWritten.sum(),
                Duration.ofNanos(lag.getValueAtPercentile(50)), Duration.ofNanos(lag.getValueAtPercentile(99)),
                Duration.ofNanos(lag.getMaxValue()), lag.getTotalCount(), faults);
    }

    /** Times a stream's socket send buffer was full and its connection's thread took over writing (tests). */
    long slowWrites() {
        return metrics.slowWrites.sum();
    }

    /** Clears the emission-lag histogram (e.g. after a warm-up). */
    public void resetEmissionLag() {
        metrics.resetLag();
    }

    /** Stops accepting, closes every connection and stops the engine. */
    @Override
    public void close() {
        server.close();
        engine.close();
    }
}
