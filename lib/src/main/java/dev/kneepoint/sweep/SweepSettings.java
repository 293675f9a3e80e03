package dev.kneepoint.sweep;

import java.util.ArrayList;
import dev.kneepoint.client.TargetConfig;
import dev.kneepoint.load.BackgroundStream;
import dev.kneepoint.load.CapPolicy;
import dev.kneepoint.load.LoadProgress;
import dev.kneepoint.metrics.ClientThresholds;
import dev.kneepoint.metrics.Slo;
import dev.kneepoint.request.Workload;
import dev.kneepoint.telemetry.Telemetry;
import dev.kneepoint.workload.ToolUse;
import dev.kneepoint.workload.TraceWorkload;
import java.nio.file.Path;
import java.time.Duration;
import java.util.List;
import java.util.Objects;

/**
 * A {@link Sweep} builder's settings as its setters left them: mutable and unchecked. Only the setters write them
 * and only {@link SweepChecks} reads them, to make the immutable {@link SweepSpec}; nothing writes them back.
 * The defaults a user meets are {@link SweepDefaults}'; the rest here mean "not set".
 */
final class SweepSettings {
    final TargetConfig baseTarget;
    String api;
    List<Integer> concurrency = List.of();
    List<Double> rates = List.of();
    int rateSweepSteps;
    String sloSearch;
    int gpus;
    java.util.Map<String, String> labels = new java.util.LinkedHashMap<>();
    double pricePerHour = Double.NaN;
    double sloAttainment = SweepDefaults.SLO_ATTAINMENT;
    double sloTolerance = SweepDefaults.SLO_SEARCH_TOLERANCE;
    int sloMaxProbes = SweepDefaults.SLO_SEARCH_MAX_PROBES;
    int throughputConcurrency = SweepDefaults.THROUGHPUT_CONCURRENCY;
    boolean throughputConcurrencySet;
    String arrival = SweepDefaults.ARRIVAL;
    double burstCv = SweepDefaults.BURST_CV;
    long seed = SweepDefaults.SEED;
    int inputTokens = SweepDefaults.INPUT_TOKENS;
    int outputTokens = SweepDefaults.OUTPUT_TOKENS;
    /** Varying lengths, when set: they replace {@link #inputTokens} / {@link #outputTokens}. */
    dev.kneepoint.workload.LengthDistribution inputLengths;
    dev.kneepoint.workload.LengthDistribution outputLengths;
    boolean ignoreEos = true;
    Calibrate calibrate = SweepDefaults.CALIBRATE;
    Workload workload;
    /** The share of requests given up mid-request (NaN: none), and how long after dispatch. */
    double abandonRate = Double.NaN;
    Duration abandonAfter;
    int abandonAfterTokens;
    /** Turns of each synthetic chat session; 1: single requests. */
    int turns = 1;
    /** The synthetic prompts' shared prefix, or null. */
    SweepSpec.SharedPrefix sharedPrefix;
    /** Tools offered on every request, or null. */
    ToolUse tools;
    dev.kneepoint.workload.StructuredOutput structured;
    dev.kneepoint.workload.MediaInputs media;
    /** Inputs per pooling request; several sizes: a batch-size ladder. */
    List<Integer> batch = List.of(SweepDefaults.BATCH);
    /** Each request to one of these models by weight, or null: the target's. */
    dev.kneepoint.workload.ModelMix models;
    Duration stepDuration = SweepDefaults.STEP_DURATION;
    Duration warmup = SweepDefaults.WARMUP;
    boolean stepDurationSet;
    boolean warmupSet;
    /** A trace file to read before the first step, or null; at most one of traceFile and trace is set. */
    Path traceFile;
    int traceBlockSize = dev.kneepoint.workload.Trace.DEFAULT_BLOCK_SIZE;
    /** A trace workload the user built, or null. */
    TraceWorkload trace;
    double timeScale = 1.0;
    Duration pause = SweepDefaults.PAUSE;
    Duration thinkTime = SweepDefaults.THINK_TIME;
    Duration rampUp = SweepDefaults.RAMP_UP;
    Duration drainTimeout = SweepDefaults.DRAIN_TIMEOUT;
    long maxRequestsPerStep = -1;
    int repeat = SweepDefaults.REPEAT;
    boolean resetPrefixCache;
    final List<SweepSpec.MixClass> mix = new ArrayList<>();
    boolean baseline;
    int maxInFlight = -1;
    CapPolicy capPolicy = CapPolicy.QUEUE;
    Slo slo = Slo.none();
    ClientThresholds clientThresholds = ClientThresholds.defaults();
    double stopFailureRate = Double.NaN;
    double stopP99Ms = Double.NaN;
    Path outputDir = SweepDefaults.OUTPUT_DIR;
    boolean writeRunDirectory = true;
    String name = SweepDefaults.NAME;
    LoadProgress progress;
    boolean allowConcurrent;
    boolean clientWarmup = true;
    boolean preflight = true;
    /** A background stream the user built, or null; else the next three make one. */
    BackgroundStream background;
    double backgroundRate = Double.NaN;
    Workload backgroundWorkload;
    double[] backgroundStepRates;
    Telemetry telemetry = Telemetry.defaults();

    SweepSettings(TargetConfig target) {
        this.baseTarget = Objects.requireNonNull(target, "target");
    }

    /** Replays the trace file or the trace workload: one is null. */
    void trace(Path file, TraceWorkload workload) {
        this.traceFile = file;
        this.trace = workload;
    }

    /** Background traffic: a stream the user built, or one of {@code workload} at a steady or per-step rate. */
    void background(BackgroundStream stream, Workload workload, double rateRps, double[] stepRatesRps) {
        this.background = stream;
        this.backgroundWorkload = workload;
        this.backgroundRate = rateRps;
        this.backgroundStepRates = stepRatesRps;
    }

    /** Gives up a {@code rate} share of the requests {@code after} dispatch, or (null) after {@code tokens} tokens. */
    void abandon(double rate, Duration after, int tokens) {
        this.abandonRate = rate;
        this.abandonAfter = after;
        this.abandonAfterTokens = tokens;
    }

    boolean replaysTrace() {
        return trace != null || traceFile != null;
    }

    boolean sweepsRates() {
        return rateSweepSteps != 0;
    }

    /**
     * The steps given directly, for a mode that plans its own to name what to remove: "concurrency levels",
     * "request rates", "a trace" (a new, mutable list).
     */
    java.util.List<String> givenSteps() {
        java.util.List<String> given = new java.util.ArrayList<>();
        if (!concurrency.isEmpty()) {
            given.add("concurrency levels");
        }
        if (!rates.isEmpty()) {
            given.add("request rates");
        }
        if (replaysTrace()) {
            given.add("a trace");
        }
        return given;
    }

    boolean searchesSlo() {
        return sloSearch != null;
    }
}
