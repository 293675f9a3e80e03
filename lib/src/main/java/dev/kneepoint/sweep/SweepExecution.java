package dev.kneepoint.sweep;

import dev.kneepoint.client.StreamingClient;
import dev.kneepoint.io.RunDirectory;
import dev.kneepoint.load.BackgroundStream;
import dev.kneepoint.load.GateDecision;
import dev.kneepoint.load.LoadProgress;
import dev.kneepoint.load.LoadResult;
import dev.kneepoint.load.LoadRun;
import dev.kneepoint.load.RunHandle;
import dev.kneepoint.load.StepSequence;
import dev.kneepoint.metrics.RunAggregator;
import dev.kneepoint.metrics.RunClock;
import dev.kneepoint.metrics.RunListener;
import dev.kneepoint.metrics.RunResult;
import dev.kneepoint.metrics.StepInfo;
import dev.kneepoint.metrics.StepResult;
import dev.kneepoint.metrics.StepWindow;
import dev.kneepoint.request.Workload;
import dev.kneepoint.telemetry.TelemetryRecorder;
import java.time.Instant;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;

/**
 * One validated sweep wired to its parts: the client, the load run, the aggregator and the run
 * directory. Package-private: users meet it through {@link Sweep} and {@link SweepHandle}.
 */
final class SweepExecution {
    private final Sweep sweep;
    private RunAggregator aggregator;
    private RunDirectory directory;
    private StreamingClient client;
    private LoadRun loadRun;
    private TelemetryRecorder telemetry;
    private volatile RunHandle runHandle;
    private final Instant startTime = Instant.now();

    /** Targets (base URLs) driven by a sweep of this JVM right now, with how many sweeps drive each. */
    private static final java.util.Map<String, Integer> ACTIVE = new java.util.HashMap<>();

    private final String targetKey;
    private boolean released;
    // The manifest's config: the run directory writes it at open and again at close, so what a rate sweep's gate
    // adds to its rate_sweep entry (on the run thread, before close) reaches the final manifest.
    private Map<String, Object> config;

    SweepExecution(Sweep sweep, StepSequence ladder) {
        this.sweep = sweep;
        this.targetKey = sweep.target().baseUrl().toString();
        claimTarget(targetKey, sweep.allowConcurrent());
        try {
            init(ladder);
        } catch (RuntimeException e) {
            releaseTarget();
            throw e;
        }
    }

    private static void claimTarget(String key, boolean allow) {
        synchronized (ACTIVE) {
            if (ACTIVE.containsKey(key) && !allow) {
                throw new IllegalStateException("another sweep in this JVM is already driving " + key
                        + ": two loads on one server mix their measurements. Wait for it (or close its handle),"
                        + " or call allowConcurrentRuns(true) on this sweep if the mix is intended.");
            }
            ACTIVE.merge(key, 1, Integer::sum);
        }
    }

    private synchronized void releaseTarget() {
        if (released) {
            return;
        }
        released = true;
        synchronized (ACTIVE) {
            ACTIVE.computeIfPresent(targetKey, (k, n) -> n == 1 ? null : n - 1);
        }
    }

    private void init(StepSequence ladder) {
        double warmupMs = sweep.clientWarmup() ? ClientWarmup.ensure(sweep.target()) : Double.NaN;
        Workload workload = sweep.workloadOrSynthetic();
        if (sweep.clientWarmup()) {
            workload.next(0); // deterministic by index: builds lazy prompt and tokenizer state before the clock runs
            if (sweep.traceWorkload() != null) {
                sweep.traceWorkload().next(0);
            }
        }
        this.config = new LinkedHashMap<>(sweep.describe());
        config.put("client_warmup_ms", Double.isNaN(warmupMs) ? "off" : warmupMs < 0 ? "failed" : warmupMs);
        Instant clockOrigin = Instant.now();
        RunClock clock = RunClock.system(); // its zero is clockOrigin, to a few microseconds
        this.directory = sweep.outputDir() == null ? null
                : RunDirectory.builder(sweep.outputDir()).slug(sweep.name()).clockOrigin(clockOrigin)
                        .targetUrl(sweep.target().baseUrl().toString()).model(sweep.target().model())
                        .config(config).slo(sweep.slo()).clientThresholds(sweep.clientThresholds()).open();
        this.aggregator = directory == null ? new RunAggregator(sweep.slo()).clientThresholds(sweep.clientThresholds())
                : directory.aggregator();
        if (sweep.backgroundStream() != null) {
            BackgroundStream bg = sweep.backgroundStream();
            aggregator.trackBackground(bg.tag(), bg.perStep() ? Double.NaN : bg.rateRps(), bg.arrival().label(),
                    bg.stepRatesRps());
        }
        this.client = new StreamingClient(sweep.target());
        RunListener listeners = directory == null ? aggregator : directory;
        this.loadRun = LoadRun.builder()
                .sender(client)
                .workload(workload)
                .listener(listeners)
                .clock(clock)
                .ladder(ladder.withGate(this::gate))
                .progress(sweep.progressListener() == null ? new LoadProgress() {} : sweep.progressListener())
                .background(sweep.backgroundStream())
                .build();
        if (directory != null && sweep.telemetrySettings().enabled()) {
            this.telemetry = TelemetryRecorder.start(sweep.telemetrySettings(), clock, sweep.target().baseUrl(),
                    directory.path(), () -> runHandle != null && runHandle.isDone());
        }
    }

    RunResult runBlocking() {
        LoadResult load;
        try {
            load = loadRun.run();
        } catch (RuntimeException e) {
            finish(null);
            throw e;
        }
        return finish(load);
    }

    SweepHandle startAsync() {
        RunHandle handle = loadRun.start();
        this.runHandle = handle;
        return new SweepHandle(handle, this);
    }

    /** Live progress of the step in flight, if any. */
    Optional<dev.kneepoint.metrics.StepProgress> progress() {
        return aggregator.progress(loadRun.clock().now());
    }

    /** Writes the final summary, closes the directory and the client; returns the run's result. */
    synchronized RunResult finish(LoadResult load) {
        boolean complete = load != null && load.ending() != LoadResult.Ending.INTERRUPTED
                && load.ending() != LoadResult.Ending.STOPPED;
        try {
            if (telemetry != null) {
                telemetry.close();
            }
            if (directory != null) {
                directory.close(complete, load == null ? "failed" : load.ending().name().toLowerCase(java.util.Locale.ROOT)
                        + ": " + load.reason());
                return directory.result(complete);
            }
            return aggregator.result(sweep.name(), complete, startTime, sweep.target().baseUrl().toString());
        } finally {
            client.close();
            releaseTarget();
        }
    }

    /** The telemetry recorder, or null when telemetry is off or there is no run directory. */
    TelemetryRecorder telemetry() {
        return telemetry;
    }

    RunDirectory directory() {
        return directory;
    }

    private GateDecision gate(StepInfo step, StepWindow window) {
        List<StepResult> results = aggregator.results();
        if (results.isEmpty()) {
            return GateDecision.proceed();
        }
        StepResult last = results.get(results.size() - 1);
        if (sweep.sweepsRates() && !step.isOpenLoop()) {
            // The probes: the throughput step overloads the server by design, so the user's stop bounds apply to the
            // open steps only (as GuideLLM skips its escalation check after the throughput step).
            @SuppressWarnings("unchecked")
            Map<String, Object> record = (Map<String, Object>) config.get("rate_sweep");
            return SweepRates.plan(sweep, results, record);
        }
        if (!Double.isNaN(sweep.stopFailureRate()) && last.failureRate() > sweep.stopFailureRate()) {
            return GateDecision.stop(String.format(java.util.Locale.ROOT,
                    "failure rate %.3f above the bound %.3f", last.failureRate(), sweep.stopFailureRate()));
        }
        if (!Double.isNaN(sweep.stopP99Ms())) {
            double p99 = step.isOpenLoop() ? last.ttftSched().p99() : last.ttft().p99();
            if (p99 > sweep.stopP99Ms()) {
                return GateDecision.stop(String.format(java.util.Locale.ROOT,
                        "p99 %s %.1f ms above the bound %.1f ms", step.isOpenLoop() ? "ttft_sched" : "ttft",
                        p99, sweep.stopP99Ms()));
            }
        }
        return GateDecision.proceed();
    }
}
