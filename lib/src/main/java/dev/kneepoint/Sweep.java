package dev.kneepoint;

import dev.kneepoint.client.OpenAiClient;
import dev.kneepoint.client.ApiKind;
import dev.kneepoint.client.TargetConfig;
import dev.kneepoint.io.RunDirectory;
import dev.kneepoint.load.ArrivalPlan;
import dev.kneepoint.load.BackgroundStream;
import dev.kneepoint.load.CapPolicy;
import dev.kneepoint.load.ClosedLoopStep;
import dev.kneepoint.load.Ladder;
import dev.kneepoint.load.LoadProgress;
import dev.kneepoint.load.LoadRun;
import dev.kneepoint.load.OpenLoopStep;
import dev.kneepoint.load.Workload;
import dev.kneepoint.metrics.ClientThresholds;
import dev.kneepoint.metrics.RunResult;
import dev.kneepoint.metrics.Slo;
import dev.kneepoint.telemetry.Gpu;
import dev.kneepoint.telemetry.Telemetry;
import dev.kneepoint.workload.DescribedWorkload;
import dev.kneepoint.workload.RequestSpec;
import dev.kneepoint.workload.SyntheticPrompts;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.Objects;

/**
 * A ladder of load steps against one target, as a fluent builder that ends in {@link #run()}
 * (blocking; interrupt the thread to stop it) or {@link #start()} (an {@link AutoCloseable} handle).
 *
 * <pre>{@code
 * RunResult r = Kneepoint.sweep(target)
 *         .concurrency(1, 2, 4, 8)
 *         .inputTokens(256).outputTokens(128)
 *         .stepDuration(Duration.ofSeconds(20)).warmup(Duration.ofSeconds(3))
 *         .run();
 * }</pre>
 *
 * <p>Either {@link #concurrency(int...)} (closed loop: N users, each waits for its answer) or
 * {@link #rates(double...)} (open loop: requests arrive on a schedule whether or not earlier ones
 * finished) defines the steps. Every request is written to the run directory as it finishes.
 * All settings are checked when the sweep starts and every problem is reported at once.
 */
public final class Sweep {
    private final TargetConfig baseTarget;
    private TargetConfig target;
    private String api;
    private List<Integer> concurrency = List.of();
    private List<Double> rates = List.of();
    private String arrival = "poisson";
    private double burstCv = 2.0;
    private long seed = 42;
    private int inputTokens = 128;
    private int outputTokens = 128;
    private boolean ignoreEos = true;
    private Workload workload;
    private Duration stepDuration = Duration.ofSeconds(10);
    private Duration warmup = Duration.ofSeconds(2);
    private Duration pause = Duration.ZERO;
    private Duration thinkTime = Duration.ZERO;
    private Duration drainTimeout = Duration.ofSeconds(30);
    private long maxRequestsPerStep = -1;
    private boolean baseline;
    private int maxInFlight = -1;
    private CapPolicy capPolicy = CapPolicy.QUEUE;
    private Slo slo = Slo.none();
    private ClientThresholds clientThresholds = ClientThresholds.defaults();
    private double stopFailureRate = Double.NaN;
    private double stopP99Ms = Double.NaN;
    private Path outputDir = Path.of("runs");
    private boolean writeRunDirectory = true;
    private String name = "sweep";
    private LoadProgress progress;
    private boolean allowConcurrent;
    private boolean clientWarmup = true;
    private BackgroundStream background;
    private double backgroundRate = Double.NaN;
    private Workload backgroundWorkload;
    private double[] backgroundStepRates;

    private Telemetry telemetry = Telemetry.defaults();

    Sweep(TargetConfig target) {
        this.baseTarget = Objects.requireNonNull(target, "target");
        this.target = target;
    }

    /**
     * The API the server speaks, overriding the target's: {@code chat}, {@code completions},
     * {@code tgi}, {@code ollama-generate}, {@code ollama-chat}, {@code llamacpp} or {@code sglang}
     * (see {@link ApiKind#parse}; docs/SERVERS.md). An unknown name is reported when the sweep
     * starts, with the valid ones.
     */
    public Sweep api(String name) {
        this.api = name;
        return this;
    }

    /** The API the server speaks, overriding the target's. */
    public Sweep api(ApiKind kind) {
        this.api = Objects.requireNonNull(kind, "kind").label();
        return this;
    }

    /** Closed-loop steps, one per concurrency level (users each waiting for their answer). */
    public Sweep concurrency(int... levels) {
        this.concurrency = Arrays.stream(levels).boxed().toList();
        return this;
    }

    /** Open-loop steps, one per request rate (requests per second). */
    public Sweep rates(double... ratesRps) {
        this.rates = Arrays.stream(ratesRps).boxed().toList();
        return this;
    }

    /** Arrival process of open-loop steps: {@code constant}, {@code poisson} (default) or {@code gamma}. */
    public Sweep arrival(String process) {
        this.arrival = process;
        return this;
    }

    /** Coefficient of variation of gamma arrivals (burstiness; 1 = Poisson). */
    public Sweep burstiness(double cv) {
        this.burstCv = cv;
        this.arrival = "gamma";
        return this;
    }

    /** Seed for arrivals and synthetic prompts: the same seed replays the same load. */
    public Sweep seed(long value) {
        this.seed = value;
        return this;
    }

    /** Synthetic prompt length in tokens (words of the synthetic vocabulary). */
    public Sweep inputTokens(int tokens) {
        this.inputTokens = tokens;
        return this;
    }

    /** Output budget ({@code max_tokens}); with {@link #ignoreEos(boolean)} the exact output length. */
    public Sweep outputTokens(int tokens) {
        this.outputTokens = tokens;
        return this;
    }

    /** Send {@code ignore_eos: true} so every answer has exactly the output budget (default true). */
    public Sweep ignoreEos(boolean on) {
        this.ignoreEos = on;
        return this;
    }

    /**
     * Replace the synthetic prompts by a workload of your own. A {@link dev.kneepoint.load.SessionWorkload} (e.g.
     * {@code Workloads.multiTurn()}) runs as chat sessions with real history, one turn after the other.
     */
    public Sweep workload(Workload requests) {
        this.workload = requests;
        return this;
    }

    /** Measured length of each step, after warm-up. */
    public Sweep stepDuration(Duration d) {
        this.stepDuration = d;
        return this;
    }

    /** Warm-up at the start of each step: requests dispatched then are logged but not measured. */
    public Sweep warmup(Duration d) {
        this.warmup = d;
        return this;
    }

    /** Pause between steps, letting the server drain. */
    public Sweep pause(Duration d) {
        this.pause = d;
        return this;
    }

    /** Think time of closed-loop users between an answer and their next request. */
    public Sweep thinkTime(Duration d) {
        this.thinkTime = d;
        return this;
    }

    /** How long a finished step waits for its in-flight requests before cancelling them. */
    public Sweep drainTimeout(Duration d) {
        this.drainTimeout = d;
        return this;
    }

    /** Bound each step by a request count too (whichever bound comes first). */
    public Sweep maxRequestsPerStep(long count) {
        this.maxRequestsPerStep = count;
        return this;
    }

    /** Run a single-user baseline step first. */
    public Sweep baseline(boolean on) {
        this.baseline = on;
        return this;
    }

    /** Cap in-flight requests of open-loop steps; the policy says whether extra arrivals queue or drop. */
    public Sweep maxInFlight(int cap, CapPolicy policy) {
        this.maxInFlight = cap;
        this.capPolicy = policy;
        return this;
    }

    /** Service-level objectives for goodput. */
    public Sweep slo(Slo objectives) {
        this.slo = objectives;
        return this;
    }

    /**
     * Limits of the client self-check, which flags steps the load generator (not the server) limited
     * ({@code StepResult.clientCheck()}; defaults and rationale in docs/METRICS.md):
     * {@code .clientCheck(ClientCheck.thresholds().cpuFraction(0.95).build())}.
     */
    public Sweep clientCheck(ClientThresholds thresholds) {
        this.clientThresholds = thresholds;
        return this;
    }

    /** Stop the ladder after a step whose failure rate exceeds this fraction. */
    public Sweep stopWhenFailureRateAbove(double fraction) {
        this.stopFailureRate = fraction;
        return this;
    }

    /** Stop the ladder after a step whose p99 TTFT (sched basis in open loop) exceeds this. */
    public Sweep stopWhenP99TtftAbove(Duration bound) {
        this.stopP99Ms = bound.toNanos() / 1e6;
        return this;
    }

    /** Folder under which the run directory is created (default {@code runs}). */
    public Sweep outputDir(Path dir) {
        this.outputDir = dir;
        this.writeRunDirectory = dir != null;
        return this;
    }

    /** A short name for the run directory and reports. */
    public Sweep name(String runName) {
        this.name = runName;
        return this;
    }

    /** Live progress events (step start/end, pauses). */
    public Sweep progress(LoadProgress listener) {
        this.progress = listener;
        return this;
    }

    /**
     * Allow this sweep to run while another sweep of this JVM drives the same target (default: refused,
     * because two loads on one server silently mix their measurements). Each run still writes its own
     * directory, and the manifest records that concurrent runs were allowed.
     */
    public Sweep allowConcurrentRuns(boolean allow) {
        this.allowConcurrent = allow;
        return this;
    }

    /**
     * Warm Kneepoint's own request path before this JVM's first sweep (default on): a few thousand tokens
     * streamed from an embedded simulator on 127.0.0.1, never from the target, so class loading and the first
     * JIT compilations of the client do not inflate the first measured requests' dispatch lag and TTFT.
     * Once per JVM and transport/API combination; the manifest's {@code client_warmup_ms} says what it took.
     */
    public Sweep clientWarmup(boolean on) {
        this.clientWarmup = on;
        return this;
    }

    boolean clientWarmup() {
        return clientWarmup;
    }

    /**
     * Steady open-loop background traffic underneath the whole ladder: Poisson arrivals at {@code rateRps}
     * from the run's start to its last step's end, every request tagged {@code bg}. The steps of the result
     * (and the knee, the summary's {@code steps}) are the foreground's only; the background is measured apart
     * in {@link RunResult#background()} and summary.json's {@code background}. The stream's seed is derived
     * from {@link #seed(long)}.
     */
    public Sweep background(Workload requests, double rateRps) {
        this.background = null;
        this.backgroundWorkload = requests;
        this.backgroundRate = rateRps;
        this.backgroundStepRates = null;
        return this;
    }

    /**
     * Background traffic at a rate per ladder step: Poisson arrivals at {@code ratesRps[k]} during step {@code k}
     * only (its warm-up and drain included; 0: no background during that step), none in pauses; one rate per
     * step. Measured apart exactly like {@link #background(Workload, double)}; each background step result
     * carries its step's planned rate. For another arrival process, tag or drain use
     * {@code background(BackgroundStream...withStepRates(...))}.
     */
    public Sweep backgroundPerStep(Workload requests, double... ratesRps) {
        this.background = null;
        this.backgroundWorkload = requests;
        this.backgroundRate = Double.NaN;
        this.backgroundStepRates = ratesRps == null ? null : ratesRps.clone();
        return this;
    }

    /** Background traffic with full control of arrival process, tag and drain (see {@link BackgroundStream}). */
    public Sweep background(BackgroundStream stream) {
        this.background = Objects.requireNonNull(stream, "stream");
        this.backgroundWorkload = null;
        return this;
    }

    /**
     * What to sample beside the load into the run directory's {@code telemetry.jsonl} (default
     * {@link Telemetry#defaults()}: the server's {@code /metrics} and the host every 500 ms, GPUs when
     * nvidia-smi is present); {@link Telemetry#off()} samples nothing. See docs/TELEMETRY.md.
     */
    public Sweep telemetry(Telemetry settings) {
        this.telemetry = Objects.requireNonNull(settings, "settings");
        return this;
    }

    /** Scrape this Prometheus endpoint instead of {@code <target>/metrics}. */
    public Sweep metricsUrl(String url) {
        this.telemetry = telemetry.withMetricsUrl(url);
        return this;
    }

    /** GPU telemetry source: {@link Gpu#auto()} (default), {@link Gpu#nvidiaSmi()}, {@link Gpu#dcgm(String)}, {@link Gpu#off()}. */
    public Sweep gpu(Gpu source) {
        this.telemetry = telemetry.withGpu(Objects.requireNonNull(source, "source"));
        return this;
    }

    /** Time between telemetry samples (default 500 ms). */
    public Sweep telemetryInterval(Duration interval) {
        this.telemetry = telemetry.withInterval(Objects.requireNonNull(interval, "interval"));
        return this;
    }

    /** Runs the sweep on this thread and returns its result; interrupting the thread stops it, keeping what was measured. */
    public RunResult run() {
        return prepare().runBlocking();
    }

    /** Starts the sweep on a thread of its own; close the handle to stop it. */
    public SweepHandle start() {
        return prepare().startAsync();
    }

    SweepExecution prepare() {
        List<String> problems = new ArrayList<>();
        try {
            target = effectiveTarget();
        } catch (IllegalArgumentException e) {
            problems.add(e.getMessage());
        }
        if (concurrency.isEmpty() == rates.isEmpty()) {
            problems.add("give either concurrency levels (closed loop) or request rates (open loop), not "
                    + (concurrency.isEmpty() ? "neither" : "both"));
        }
        concurrency.stream().filter(c -> c < 1).findFirst().ifPresent(c ->
                problems.add("concurrency must be >= 1, got " + c));
        rates.stream().filter(r -> !(r > 0) || r.isInfinite()).findFirst().ifPresent(r ->
                problems.add("request rate must be a positive finite number of requests per second, got " + r));
        if (!List.of("constant", "poisson", "gamma").contains(arrival)) {
            problems.add("arrival must be constant, poisson or gamma, got '" + arrival + "'");
        }
        if (workload == null && inputTokens < 1) {
            problems.add("inputTokens must be >= 1, got " + inputTokens);
        }
        if (workload == null && outputTokens < 1) {
            problems.add("outputTokens must be >= 1, got " + outputTokens);
        }
        if (stepDuration == null || stepDuration.isNegative() || stepDuration.isZero()) {
            problems.add("stepDuration must be positive, got " + stepDuration);
        }
        if (warmup == null || warmup.isNegative()) {
            problems.add("warmup must be >= 0, got " + warmup);
        }
        if (pause == null || pause.isNegative()) {
            problems.add("pause must be >= 0, got " + pause);
        }
        if (!Double.isNaN(stopFailureRate) && (stopFailureRate < 0 || stopFailureRate > 1)) {
            problems.add("stopWhenFailureRateAbove takes a fraction in [0, 1], got " + stopFailureRate);
        }
        if (clientThresholds == null) {
            problems.add("clientCheck thresholds must not be null (use ClientCheck.thresholds().build() for the defaults)");
        }
        if (name == null || !name.matches("[A-Za-z0-9._-]{1,60}")) {
            problems.add("name must be 1-60 letters, digits, '.', '_' or '-', got '" + name + "'");
        }
        if (telemetry.enabled()) {
            problems.addAll(telemetry.problems());
        }
        if (backgroundWorkload != null) {
            try {
                if (backgroundStepRates != null) {
                    double first = java.util.Arrays.stream(backgroundStepRates).filter(r -> r > 0).findFirst().orElse(1);
                    background = new BackgroundStream(backgroundWorkload, ArrivalPlan.poisson(first, seed ^ 0x6267L),
                            BackgroundStream.DEFAULT_TAG, drainTimeout).withStepRates(backgroundStepRates);
                } else {
                    background = new BackgroundStream(backgroundWorkload, ArrivalPlan.poisson(backgroundRate, seed ^ 0x6267L),
                            BackgroundStream.DEFAULT_TAG, drainTimeout);
                }
            } catch (IllegalArgumentException e) {
                problems.add("background: " + e.getMessage());
            }
        }
        int ladderSteps = concurrency.isEmpty() ? rates.size() : concurrency.size();
        if (background != null && background.perStep() && background.stepRatesRps().size() != ladderSteps) {
            problems.add("background: " + background.stepRatesRps().size() + " per-step rates for a ladder of "
                    + ladderSteps + " steps; give one rate per step (0 for none)");
        }
        Ladder ladder = null;
        try {
            ladder = ladder();
        } catch (IllegalArgumentException e) {
            if (problems.isEmpty()) {
                problems.add(e.getMessage());
            }
        }
        if (!problems.isEmpty()) {
            throw new IllegalArgumentException("Invalid sweep (" + problems.size() + " problem"
                    + (problems.size() == 1 ? "" : "s") + "):\n  - " + String.join("\n  - ", problems));
        }
        return new SweepExecution(this, ladder);
    }

    /** The target with the {@link #api} override applied; throws naming the problem when it is unknown. */
    TargetConfig effectiveTarget() {
        return api == null ? baseTarget : baseTarget.withApiKind(ApiKind.parse(api));
    }

    private Ladder ladder() {
        Ladder l;
        if (!concurrency.isEmpty()) {
            ClosedLoopStep.Builder b = ClosedLoopStep.builder().concurrency(concurrency.get(0))
                    .warmup(warmup).duration(stepDuration).thinkTime(thinkTime).drainTimeout(drainTimeout);
            if (maxRequestsPerStep > 0) {
                b.maxRequests(maxRequestsPerStep);
            }
            l = Ladder.concurrency(concurrency, b.build());
        } else {
            OpenLoopStep.Builder b = OpenLoopStep.builder().arrival(arrivalPlan(rates.get(0)))
                    .warmup(warmup).duration(stepDuration).drainTimeout(drainTimeout);
            if (maxRequestsPerStep > 0) {
                b.maxRequests(maxRequestsPerStep);
            }
            if (maxInFlight > 0) {
                b.maxInFlight(maxInFlight, capPolicy);
            }
            l = Ladder.rates(rates, b.build());
        }
        if (baseline) {
            l = l.withBaseline();
        }
        return l.withPause(pause);
    }

    private ArrivalPlan arrivalPlan(double rate) {
        return switch (arrival) {
            case "constant" -> ArrivalPlan.constant(rate);
            case "gamma" -> ArrivalPlan.gamma(rate, burstCv, seed);
            default -> ArrivalPlan.poisson(rate, seed);
        };
    }

    Workload workloadOrSynthetic() {
        if (workload != null) {
            return workload;
        }
        SyntheticPrompts prompts = new SyntheticPrompts(seed);
        Map<String, Object> extra = ignoreEos ? Map.of("ignore_eos", true) : Map.of();
        int in = inputTokens;
        int out = outputTokens;
        return index -> new RequestSpec(prompts.prompt(index, in), List.of(), out, in, extra, "default");
    }

    /** The run's configuration as written to {@code manifest.json} (no secrets). */
    Map<String, Object> describe() {
        Map<String, Object> m = new LinkedHashMap<>();
        m.put("name", name);
        m.put("target", target.describe());
        m.put("mode", concurrency.isEmpty() ? "open" : "closed");
        if (concurrency.isEmpty()) {
            m.put("rates_rps", rates);
            m.put("arrival", arrival);
            if (arrival.equals("gamma")) {
                m.put("burstiness_cv", burstCv);
            }
            m.put("max_in_flight", maxInFlight);
            m.put("cap_policy", maxInFlight > 0 ? capPolicy.name().toLowerCase(Locale.ROOT) : "");
        } else {
            m.put("concurrency", concurrency);
            m.put("think_time_s", thinkTime.toNanos() / 1e9);
        }
        m.put("workload", workload == null
                ? Map.of("kind", "synthetic", "input_tokens", inputTokens, "output_tokens", outputTokens,
                        "ignore_eos", ignoreEos)
                : workload instanceof DescribedWorkload d ? d.describe() : Map.of("kind", workload.getClass().getName()));
        m.put("seed", seed);
        m.put("step_duration_s", stepDuration.toNanos() / 1e9);
        m.put("warmup_s", warmup.toNanos() / 1e9);
        m.put("pause_s", pause.toNanos() / 1e9);
        m.put("max_requests_per_step", maxRequestsPerStep);
        m.put("baseline", baseline);
        m.put("slo", slo.toString());
        m.put("concurrent_runs_allowed", allowConcurrent);
        m.put("telemetry", telemetry.describe());
        if (background != null) {
            Map<String, Object> bg = new LinkedHashMap<>();
            bg.put("tag", background.tag());
            bg.put("rate_rps", background.perStep() ? null : background.rateRps());
            if (background.perStep()) {
                bg.put("step_rates_rps", background.stepRatesRps());
            }
            bg.put("arrival", background.arrival().label());
            bg.put("seed", background.arrival().seed());
            bg.put("workload", background.workload() instanceof DescribedWorkload d ? d.describe()
                    : Map.of("kind", background.workload().getClass().getName()));
            m.put("background", bg);
        }
        return m;
    }

    TargetConfig target() { return target; }
    Slo slo() { return slo; }
    ClientThresholds clientThresholds() { return clientThresholds; }
    double stopFailureRate() { return stopFailureRate; }
    double stopP99Ms() { return stopP99Ms; }
    Path outputDir() { return writeRunDirectory ? outputDir : null; }
    String name() { return name; }
    LoadProgress progressListener() { return progress; }
    boolean allowConcurrent() { return allowConcurrent; }
    BackgroundStream backgroundStream() { return background; }
    Telemetry telemetrySettings() { return telemetry; }
}
