package dev.kneepoint.sweep;

import dev.kneepoint.analysis.SloCapacity;
import dev.kneepoint.client.Preflight;
import dev.kneepoint.client.ServerIdentity;
import dev.kneepoint.client.StreamingClient;
import dev.kneepoint.io.RunDirectory;
import dev.kneepoint.load.BackgroundStream;
import dev.kneepoint.load.GateDecision;
import dev.kneepoint.load.LoadResult;
import dev.kneepoint.load.LoadRun;
import dev.kneepoint.load.RunHandle;
import dev.kneepoint.load.StepSequence;
import dev.kneepoint.metrics.Problems;
import dev.kneepoint.metrics.RunAggregator;
import dev.kneepoint.metrics.RunClock;
import dev.kneepoint.metrics.RunListener;
import dev.kneepoint.metrics.RunResult;
import dev.kneepoint.metrics.StepInfo;
import dev.kneepoint.metrics.StepResult;
import dev.kneepoint.metrics.StepWindow;
import dev.kneepoint.request.RequestSender;
import dev.kneepoint.request.Workload;
import dev.kneepoint.sweep.SweepSpec.Mode;
import dev.kneepoint.telemetry.TelemetryRecorder;
import dev.kneepoint.workload.Calibration;
import dev.kneepoint.workload.DescribedWorkload;
import dev.kneepoint.workload.TraceWorkload;
import java.time.Instant;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;

/**
 * One validated sweep wired to its parts: the client, the load run, the aggregator and the run
 * directory. {@link #prepare} does what needs the network or a file before the first step: it measures the
 * target's tokenizer ({@code calibrate}) and reads a trace file. Package-private: users meet it through
 * {@link Sweep} and {@link SweepHandle}.
 */
final class SweepExecution {
    private final SweepSpec spec;
    private final SweepInputs inputs;
    /** The rate sweep whose probes {@link #gate} plans the open steps after, else null. */
    private final Mode.RateSweep rateSweep;
    private RunAggregator aggregator;
    private ProgressTracker tracker;
    private RunDirectory directory;
    private StreamingClient client;
    private LoadRun loadRun;
    private TelemetryRecorder telemetry;
    private volatile RunHandle runHandle;
    /** The prefix-cache resets between steps, when the sweep asked for them; else null. */
    private SweepPrefixCache prefixCache;
    private final Instant startTime = Instant.now();

    /** Targets (base URLs) driven by a sweep of this JVM right now, with how many sweeps drive each. */
    private static final java.util.Map<String, Integer> ACTIVE = new java.util.HashMap<>();

    private final String targetKey;
    private boolean released;
    // The manifest's config: the run directory writes it at open and again at close, so what a rate sweep's gate
    // adds to its rate_sweep entry (on the run thread, before close) reaches the final manifest.
    private Map<String, Object> config;

    /**
     * The run of a checked builder: measures the target's tokenizer when {@code calibrate} is on and reads a trace
     * file, then makes the last checks and plans the ladder. What the tokenizer or the file gets wrong is reported
     * with the settings' problems, all at once in one {@link IllegalArgumentException}, before anything is sent to
     * the target.
     */
    static SweepExecution prepare(SweepChecks.Checked checked) {
        SweepSpec spec = checked.spec();
        // What is found here joins the settings' problems where it belongs: the tokenizer's after the target's, the
        // trace file's after those of the trace settings.
        List<String> problems = new ArrayList<>(checked.problems());
        List<String> found = new ArrayList<>();
        Calibration measured = checked.measuresTokenizer()
                ? SweepCalibration.measure(spec.target(), spec.prompts().calibrate(), found) : null;
        Calibration calibration = measured != null && measured.exact() ? measured : null; // what prompts are cut with
        problems.addAll(checked.calibrationAt(), found);
        int traceAt = checked.traceAt() + found.size();
        found.clear();
        // The one switch on the mode: a trace is read (or taken as given); a rate sweep's probes are gated (see gate).
        TraceWorkload trace = null;
        Mode.RateSweep rateSweep = null;
        switch (spec.mode()) {
            case Mode.Trace t -> trace = switch (t.source()) {
                case SweepSpec.TraceSource.File file -> SweepTrace.read(spec, file, calibration, found);
                case SweepSpec.TraceSource.Given given -> given.workload();
            };
            case Mode.RateSweep r -> rateSweep = r;
            case Mode.SloSearch s -> { }
            case Mode.Closed c -> { }
            case Mode.Open o -> { }
        }
        problems.addAll(traceAt, found);
        StepSequence ladder = SweepChecks.finish(spec, trace, problems, traceAt + found.size());
        // Every input is right (finish threw otherwise): the target must now answer before the first step.
        Preflight.Result preflight = spec.preflight() ? Preflight.check(spec.target()) : null;
        // It answered: ask who it is (skipped with the preflight, for targets that cannot answer such questions).
        Map<String, Object> server = spec.preflight() ? ServerIdentity.probe(spec.target()) : null;
        List<String> late = new ArrayList<>();
        String resetAt = spec.steps().resetPrefixCache() ? SweepPrefixCache.endpoint(server, late) : null;
        new Problems().addAll(late).throwListIfAny("sweep");
        // Synthetic prompts are cut to the measured tokenizer; a trace was read with it (its prompts are its own).
        DescribedWorkload synthetic = calibration != null && trace == null ? SweepCalibration.synthetic(spec, calibration)
                : null;
        return new SweepExecution(spec, new SweepInputs(measured, synthetic, trace, preflight, server, resetAt), rateSweep, ladder);
    }

    private SweepExecution(SweepSpec spec, SweepInputs inputs, Mode.RateSweep rateSweep, StepSequence ladder) {
        this.spec = spec;
        this.inputs = inputs;
        this.rateSweep = rateSweep;
        this.targetKey = spec.target().baseUrl().toString();
        claimTarget(targetKey, spec.allowConcurrentRuns());
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
        double warmupMs = spec.clientWarmup() ? ClientWarmup.ensure(spec.target()) : Double.NaN;
        Workload workload = SweepPlan.workload(spec, inputs.calibratedSynthetic());
        if (spec.clientWarmup()) {
            workload.next(0); // deterministic by index: builds lazy prompt and tokenizer state before the clock runs
            if (inputs.trace() != null) {
                inputs.trace().next(0);
            }
        }
        this.config = new LinkedHashMap<>(SweepManifest.describe(spec, inputs));
        config.put("client_warmup_ms", Double.isNaN(warmupMs) ? "off" : warmupMs < 0 ? "failed" : warmupMs);
        if (inputs.prefixCacheReset() != null) { // after the client's warm-up: the first step starts cold
            prefixCache = SweepPrefixCache.start(spec.target(), inputs.prefixCacheReset());
            config.put("prefix_cache_reset", prefixCache.record());
        }
        Instant clockOrigin = Instant.now();
        RunClock clock = RunClock.system(); // its zero is clockOrigin, to a few microseconds
        this.directory = spec.outputDir() == null ? null
                : RunDirectory.builder(spec.outputDir()).slug(spec.name()).clockOrigin(clockOrigin)
                        .targetUrl(spec.target().baseUrl().toString()).model(spec.target().model())
                        .config(config).slo(spec.slo()).clientThresholds(spec.clientThresholds()).open();
        this.aggregator = directory == null ? new RunAggregator(spec.slo()).clientThresholds(spec.clientThresholds())
                : directory.aggregator();
        if (spec.background() != null) {
            BackgroundStream bg = spec.background();
            aggregator.trackBackground(bg.tag(), bg.perStep() ? Double.NaN : bg.rateRps(), bg.arrival().label(),
                    bg.stepRatesRps());
        }
        this.client = new StreamingClient(spec.target());
        RunListener listeners = directory == null ? aggregator : directory;
        this.tracker = new ProgressTracker(spec.progress(), spec.steps(), this::progress, System::nanoTime,
                label -> aggregator.results().stream().filter(r -> r.info().label().equals(label)).findFirst());
        tracker.plansAtMost(switch (spec.mode()) {
            // the rate search's synchronous step is not one of its probes; a rate sweep may double its throughput
            // probe three times
            case Mode.SloSearch s -> s.maxProbes() + (s.dimension().equals(SloCapacity.RATE) ? 1 : 0);
            case Mode.RateSweep r -> 2 + SweepRates.MAX_DOUBLINGS + r.openSteps();
            default -> 0;
        });
        this.loadRun = LoadRun.builder()
                .sender(sender(spec, client))
                .workload(workload)
                .listener(listeners)
                .clock(clock)
                .ladder(ladder.withGate(this::gateThenReset))
                .progress(tracker)
                .background(spec.background())
                .build();
        if (directory != null && spec.telemetry().enabled()) {
            this.telemetry = TelemetryRecorder.start(spec.telemetry(), clock, spec.target().baseUrl(),
                    directory.path(), () -> runHandle != null && runHandle.isDone());
        }
    }

    RunResult runBlocking() {
        LoadResult load;
        try (SweepWatch.Display shown = SweepWatch.show(tracker::snapshot)) {
            load = loadRun.run();
        } catch (RuntimeException e) {
            finish(null);
            throw e;
        }
        return finish(load);
    }

    /** Where the sweep is: step of steps, the running step's snapshot, time left. */
    SweepProgress sweepProgress() {
        return tracker.snapshot();
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
                addGpus(telemetry.gpuIdentity());
            }
            if (directory != null) {
                directory.close(complete, load == null ? "failed" : load.ending().name().toLowerCase(java.util.Locale.ROOT)
                        + ": " + load.reason());
                return directory.result(complete);
            }
            return aggregator.result(spec.name(), complete, startTime, spec.target().baseUrl().toString());
        } finally {
            client.close();
            releaseTarget();
        }
    }

    /**
     * The GPUs telemetry sampled join what the server said about itself ({@code config.server}), for the manifest the
     * run directory writes at close. Nothing when no GPU was sampled, or the server was not asked (no preflight).
     */
    private void addGpus(Map<String, Object> gpus) {
        if (!gpus.isEmpty() && config.get("server") instanceof Map<?, ?> server) {
            Map<String, Object> merged = new LinkedHashMap<>();
            server.forEach((k, v) -> merged.put(String.valueOf(k), v)); // a copy: the probe's answer stays as it was
            merged.putAll(gpus);
            config.put("server", merged);
        }
    }

    /** The telemetry recorder, or null when telemetry is off or there is no run directory. */
    TelemetryRecorder telemetry() {
        return telemetry;
    }

    RunDirectory directory() {
        return directory;
    }

    /** The gate's decision; before a next step, the prefix cache reset when the sweep asked for it. */
    /** The client, checking structured answers and giving up the abandoned requests, as the spec says. */
    private static RequestSender sender(SweepSpec spec, RequestSender client) {
        RequestSender s = spec.prompts().shape().structured() == null ? client : spec.prompts().shape().structured().checking(client);
        return spec.abandonment() == null ? s : spec.abandonment().applyTo(s);
    }

    private GateDecision gateThenReset(StepInfo step, StepWindow window) {
        GateDecision d = gate(step, window);
        if (prefixCache != null && !(d instanceof GateDecision.Stop)) {
            prefixCache.reset();
        }
        return d;
    }

    private GateDecision gate(StepInfo step, StepWindow window) {
        List<StepResult> results = aggregator.results();
        if (results.isEmpty()) {
            return GateDecision.proceed();
        }
        StepResult last = results.get(results.size() - 1);
        if (spec.mode() instanceof Mode.SloSearch search) {
            return SweepSloSearch.plan(spec, search, results);
        }
        if (rateSweep != null && !step.isOpenLoop()) {
            // The probes: the throughput step overloads the server by design, so the user's stop bounds apply to the
            // open steps only (as GuideLLM skips its escalation check after the throughput step).
            @SuppressWarnings("unchecked")
            Map<String, Object> record = (Map<String, Object>) config.get("rate_sweep");
            return SweepRates.plan(spec, rateSweep, results, record);
        }
        if (!Double.isNaN(spec.stopFailureRate()) && last.rates().failureRate() > spec.stopFailureRate()) {
            return GateDecision.stop(String.format(java.util.Locale.ROOT,
                    "failure rate %.3f above the bound %.3f", last.rates().failureRate(), spec.stopFailureRate()));
        }
        if (!Double.isNaN(spec.stopP99Ms())) {
            double p99 = step.isOpenLoop() ? last.latency().ttftSched().p99() : last.latency().ttft().p99();
            if (p99 > spec.stopP99Ms()) {
                return GateDecision.stop(String.format(java.util.Locale.ROOT,
                        "p99 %s %.1f ms above the bound %.1f ms", step.isOpenLoop() ? "ttft_sched" : "ttft",
                        p99, spec.stopP99Ms()));
            }
        }
        return GateDecision.proceed();
    }
}
