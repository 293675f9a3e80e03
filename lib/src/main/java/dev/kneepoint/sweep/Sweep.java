package dev.kneepoint.sweep;

import dev.kneepoint.client.ApiKind;
import dev.kneepoint.client.TargetConfig;
import dev.kneepoint.load.Abandonment;
import dev.kneepoint.load.BackgroundStream;
import dev.kneepoint.load.CapPolicy;
import dev.kneepoint.load.LoadProgress;
import dev.kneepoint.metrics.ClientThresholds;
import dev.kneepoint.metrics.RunResult;
import dev.kneepoint.metrics.Slo;
import dev.kneepoint.request.Workload;
import dev.kneepoint.telemetry.Gpu;
import dev.kneepoint.telemetry.Telemetry;
import dev.kneepoint.workload.LengthDistribution;
import dev.kneepoint.workload.Lengths;
import dev.kneepoint.workload.MediaInputs;
import dev.kneepoint.workload.ModelMix;
import dev.kneepoint.workload.StructuredOutput;
import dev.kneepoint.workload.ToolUse;
import dev.kneepoint.workload.TraceWorkload;
import java.nio.file.Path;
import java.time.Duration;
import java.util.Arrays;
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
 * <p>Either {@link #concurrency(int...)} (closed loop: N users, each waits for its answer),
 * {@link #rates(double...)} (open loop: requests arrive on a schedule whether or not earlier ones
 * finished), {@link #trace(Path)} (open loop at a recorded trace's instants) or {@link #rateSweep(int)} (open-loop
 * rates planned from two measured closed-loop probes) defines the steps. Every request is written to the run directory
 * as it finishes. All settings are checked when the sweep starts, or by {@link #validate()}, all problems at once.
 */
public final class Sweep {
    // The raw settings: the setters below write them, SweepChecks reads them into a SweepSpec.
    final SweepSettings settings;

    private Sweep(TargetConfig target) {
        this.settings = new SweepSettings(target);
    }

    /** A sweep of {@code target} to configure; {@link dev.kneepoint.Kneepoint#sweep} is the same. */
    public static Sweep of(TargetConfig target) {
        return new Sweep(target);
    }

    /**
     * The API the server speaks, overriding the target's: a name {@link ApiKind#parse} knows ({@code chat},
     * {@code completions}, {@code ollama-chat}...; docs/SERVERS.md); an unknown one is reported with the valid ones.
     */
    public Sweep api(String name) { settings.api = name; return this; }

    /** The API the server speaks, overriding the target's. */
    public Sweep api(ApiKind kind) { settings.api = Objects.requireNonNull(kind, "kind").label(); return this; }

    /** Closed-loop steps, one per concurrency level (users each waiting for their answer). */
    public Sweep concurrency(int... levels) { settings.concurrency = Arrays.stream(levels).boxed().toList(); return this; }

    /** Open-loop steps, one per request rate (requests per second). */
    public Sweep rates(double... ratesRps) { settings.rates = Arrays.stream(ratesRps).boxed().toList(); return this; }

    /**
     * A rate sweep that finds the server's range by itself (GuideLLM's {@code sweep} profile): closed-loop probes
     * {@code synchronous} (one user: r_sync) and {@code throughput} ({@link #throughputConcurrency(int)} users: r_max),
     * then {@code openSteps} (2..50) open-loop steps at rates evenly spaced strictly between them, planned during the
     * run and recorded in the manifest. Not with {@link #concurrency}, {@link #rates}, a trace, {@link #baseline}
     * or per-step background rates. The rules and the stops: docs/SCENARIOS.md, "Finding the range by itself".
     */
    public Sweep rateSweep(int openSteps) { settings.rateSweepSteps = openSteps; return this; }

    /**
     * Search for the highest load at which the {@link #slo(Slo) SLO set} holds for at least
     * {@link #sloAttainment(double) 99 %} of requests (failures count as misses): {@code "concurrency"} (closed-loop
     * users from 1) or {@code "rate"} (open-loop request rates from a one-user probe's rate; latency from the
     * intended start). Loads double until one fails, then the bracket is bisected until it closes (adjacent users;
     * rates within {@link #sloSearchTolerance(double) 5 %}), each probe a full step written to the run directory;
     * at most {@link #sloSearchMaxProbes(int) 12} probes. The answer, with a 95 % interval on each probe's
     * attainment, is {@code analysis.SloCapacity} ({@code slo_search} in {@code analysis.json}). Needs a latency SLO;
     * replaces concurrency levels and rates.
     */
    public Sweep sloSearch(String dimension) { settings.sloSearch = Objects.requireNonNull(dimension); return this; }

    /**
     * What the measured deployment costs, for the reports' cost figures ({@code analysis.Efficiency}): {@code gpus}
     * serving the target (0: count them in the GPU telemetry) and {@code pricePerHourUsd}, the whole deployment's
     * price per hour (all its GPUs together; NaN: none). Each step then has output tok/s per GPU and dollars per
     * million output and input tokens; energy per token comes from sampled GPU power.
     */
    public Sweep cost(int gpus, double pricePerHourUsd) { settings.gpus = gpus; settings.pricePerHour = pricePerHourUsd; return this; }

    /**
     * A label of the run, recorded in its manifest ({@code config.labels}) and its report's header, e.g.
     * {@code label("gpu", "H100")} or {@code label("config", "tp2-fp8")}: what the server cannot say about itself.
     */
    public Sweep label(String key, String value) {
        settings.labels.put(Objects.requireNonNull(key, "key"), Objects.requireNonNull(value, "value"));
        return this;
    }

    /** The share of requests an SLO search's load must keep within every objective, in (0, 1); default 0.99. */
    public Sweep sloAttainment(double fraction) { settings.sloAttainment = fraction; return this; }

    /** A rate search ends when the bracket is this narrow relative to its passing rate, in (0, 1); default 0.05. */
    public Sweep sloSearchTolerance(double fraction) { settings.sloTolerance = fraction; return this; }

    /** The most probes of an SLO search (2 to 40; default 12; not counting a rate search's synchronous step). */
    public Sweep sloSearchMaxProbes(int probes) { settings.sloMaxProbes = probes; return this; }

    /**
     * Users of a {@link #rateSweep(int) rate sweep}'s first {@code throughput} step (default
     * {@value SweepDefaults#THROUGHPUT_CONCURRENCY}); the sweep doubles them (at most 3 times) until throughput
     * stops rising, so too few costs probes and too many only queues in the server.
     */
    public Sweep throughputConcurrency(int users) {
        settings.throughputConcurrency = users;
        settings.throughputConcurrencySet = true;
        return this;
    }

    /** Arrival process of open-loop steps: {@code constant}, {@code poisson} (default) or {@code gamma}. */
    public Sweep arrival(String process) { settings.arrival = process; return this; }

    /** Coefficient of variation of gamma arrivals (burstiness; 1 = Poisson). */
    public Sweep burstiness(double cv) { settings.burstCv = cv; settings.arrival = "gamma"; return this; }

    /** Seed for arrivals and synthetic prompts: the same seed replays the same load. */
    public Sweep seed(long value) { settings.seed = value; return this; }

    /** Synthetic prompt length: words of the synthetic vocabulary, or the server's tokens with {@link #calibrate}. */
    public Sweep inputTokens(int tokens) { settings.inputTokens = tokens; settings.inputLengths = null; return this; }

    /** Synthetic prompt lengths drawn per request ({@link Lengths}: uniform, normal, log-normal, empirical). */
    public Sweep inputTokens(LengthDistribution lengths) {
        settings.inputLengths = Objects.requireNonNull(lengths, "lengths");
        return this;
    }

    /** Output budget ({@code max_tokens}); with {@link #ignoreEos(boolean)} the exact output length. */
    public Sweep outputTokens(int tokens) { settings.outputTokens = tokens; settings.outputLengths = null; return this; }

    /** Output budgets drawn per request, so answers end at different times as users' do (exact with ignore_eos). */
    public Sweep outputTokens(LengthDistribution lengths) {
        settings.outputLengths = Objects.requireNonNull(lengths, "lengths");
        return this;
    }

    /** The synthetic prompts share a prefix of {@code tokens} (of {@link #inputTokens}) in {@code groups} groups. */
    public Sweep sharedPrefix(int tokens, int groups) { settings.sharedPrefix = new SweepSpec.SharedPrefix(tokens, groups); return this; }

    /** Users who give up: a seeded {@code rate} share of requests is closed {@code after} dispatch ({@link Abandonment}). */
    public Sweep abandon(double rate, Duration after) { settings.abandon(rate, after, 0); return this; }

    /** As {@link #abandon(double, Duration)}, each chosen request given up once it received {@code tokens} tokens. */
    public Sweep abandonAfterTokens(double rate, int tokens) { settings.abandon(rate, null, tokens); return this; }

    /** Adds a class of synthetic prompts tagged {@code tag}: a {@code weight} share of requests, its own lengths. */
    public Sweep mix(String tag, double weight, int in, int out) { settings.mix.add(new SweepSpec.MixClass(tag, weight, in, out)); return this; }

    /** Chat sessions of {@code turns} turns, each a new {@link #inputTokens} message on the real history (1: none). */
    public Sweep multiTurn(int turns) { settings.turns = turns; return this; }

    /** Send {@code ignore_eos: true} so every answer has exactly the output budget (default true). */
    public Sweep ignoreEos(boolean on) { settings.ignoreEos = on; return this; }

    /**
     * Make prompt lengths exact in the server's own tokens: before the first step the target's tokenizer is measured
     * once ({@code /tokenize} of vLLM, SGLang, llama.cpp, TGI, llama_cpp.server; Ollama's {@code prompt_eval_count})
     * and the prompts of {@link #inputTokens} or of a {@link #trace(Path) trace} are cut to the exact count, chat
     * template included. With {@code true} no reachable tokenizer is an error naming every endpoint tried; with
     * {@code false} prompts are words of a synthetic vocabulary (one token each on the simulator only; records still
     * carry the server's {@code prompt_tokens}). Left alone: {@link Calibrate#AUTO}, exact where the target can
     * tokenize and flagged as an estimate where it cannot. Calibrate a workload of your own when you build it
     * ({@code Workloads.synthetic().calibrate(target)}).
     */
    public Sweep calibrate(boolean on) { settings.calibrate = on ? Calibrate.ON : Calibrate.OFF; return this; }

    /**
     * Replace the synthetic prompts by a workload of your own. A {@link dev.kneepoint.request.SessionWorkload} (e.g.
     * {@code Workloads.multiTurn()}) runs as chat sessions with real history, one turn after the other.
     */
    public Sweep workload(Workload requests) { settings.workload = requests; return this; }

    /** Ask every request for JSON answers ({@code response_format}), each answer checked; METRICS.md "Structured output". */
    public Sweep structuredOutput(StructuredOutput format) { settings.structured = Objects.requireNonNull(format); return this; }

    /** Images and audio on every request's last message ({@link MediaInputs}); docs/SERVERS.md "Request shapes". */
    public Sweep media(MediaInputs inputs) { settings.media = Objects.requireNonNull(inputs); return this; }

    /**
     * Inputs per request of a pooling API (embeddings, rerank, score; default {@value SweepDefaults#BATCH}), each a
     * prompt of {@link #inputTokens} (rerank, score: scored against one more as the query); several sizes make a
     * batch-size ladder at one concurrency level, steps {@code b=N}. METRICS.md "Pooling requests".
     */
    public Sweep batch(int... sizes) { settings.batch = Arrays.stream(sizes).boxed().toList(); return this; }

    /** Send each request to one model of {@code mix} by weight (LoRA adapters, several models); METRICS.md "Model mixes". */
    public Sweep models(ModelMix mix) { settings.models = Objects.requireNonNull(mix, "mix"); return this; }

    /** Offer these functions ({@code tools}, {@code tool_choice}) on every chat request; METRICS.md "Tool calls". */
    public Sweep tools(ToolUse tools) { settings.tools = Objects.requireNonNull(tools, "tools"); return this; }

    /**
     * Replays a request trace open loop (format: {@link dev.kneepoint.workload.Trace}): each line's request fires at
     * its recorded instant, time-scaled by {@link #timeScale(double)}, with the line's lengths and shared prefix
     * blocks; prompts are synthetic words of the sweep's {@link #seed(long)} (exact lengths on the simulator; in a
     * server's tokens with {@link #calibrate(boolean)}).
     * The file is read when the sweep starts; every bad line is reported then. One step, {@code trace} (or
     * {@code trace x2}), over the whole trace with no warm-up unless {@link #warmup} / {@link #stepDuration} are set;
     * with {@link #rates(double...)}, one step per rate, the trace time-scaled to it. Not with concurrency levels.
     * See docs/TRACES.md.
     */
    public Sweep trace(Path file) { settings.trace(Objects.requireNonNull(file, "file"), null); return this; }

    /** Replays a trace workload built with {@code Workloads.trace(file)} (calibrated, tagged...); see {@link #trace(Path)}. */
    public Sweep trace(TraceWorkload workload) { settings.trace(null, Objects.requireNonNull(workload)); return this; }

    /** Tokens per {@code hash_ids} entry of a trace given by {@link #trace(Path)} (default 512, Mooncake's). */
    public Sweep traceBlockSize(int tokens) { settings.traceBlockSize = tokens; return this; }

    /** Speed-up of a trace replay: 2 fires the trace twice as fast, 0.5 at half speed (default 1: as recorded). */
    public Sweep timeScale(double factor) { settings.timeScale = factor; return this; }

    /** Measured length of each step, after warm-up. */
    public Sweep stepDuration(Duration d) { settings.stepDuration = d; settings.stepDurationSet = true; return this; }

    /** Warm-up at the start of each step: requests dispatched then are logged but not measured. */
    public Sweep warmup(Duration d) { settings.warmup = d; settings.warmupSet = true; return this; }

    /** Pause between steps, letting the server drain. */
    public Sweep pause(Duration d) { settings.pause = d; return this; }

    /** Think time of closed-loop users between an answer and their next request. */
    public Sweep thinkTime(Duration d) { settings.thinkTime = d; return this; }

    /**
     * Closed loop: the users of each step start evenly over this time (default {@link SweepDefaults#RAMP_UP}), not
     * in lock-step; {@code Duration.ZERO} starts them all at once, as the report then says.
     */
    public Sweep rampUp(Duration d) { settings.rampUp = d; return this; }

    /** How long a finished step waits for its in-flight requests before cancelling them. */
    public Sweep drainTimeout(Duration d) { settings.drainTimeout = d; return this; }

    /** Bound each step by a request count too (whichever bound comes first). */
    public Sweep maxRequestsPerStep(long count) { settings.maxRequestsPerStep = count; return this; }

    /**
     * Measure each load {@code n} times (1 to {@value SweepDefaults#MAX_REPEAT}; default 1), trial after trial across
     * the ladder ({@code c=1 #1, c=2 #1, c=1 #2, ...}) so that drift spreads over every level; open-loop trials draw
     * their own arrivals. Each trial is a full step in the run directory; the analysis pools a load's trials, and
     * {@code metrics.Trials} gives each headline metric's mean, 95 % interval across trials and coefficient of
     * variation ({@code repeats} in {@code summary.json}). Not with a rate sweep or an SLO search.
     */
    public Sweep repeat(int n) { settings.repeat = n; return this; }

    /**
     * Reset the server's prefix cache before every step, so that no step reuses prompt prefixes an earlier one
     * cached (vLLM's {@code /reset_prefix_cache}, which needs {@code VLLM_SERVER_DEV_MODE=1}; SGLang's
     * {@code /flush_cache}; the simulator's): each step then measures a cold cache. Needs the preflight, which asks
     * the server which engine it is; another engine is an error before the first step. Default off.
     */
    public Sweep resetPrefixCache(boolean on) { settings.resetPrefixCache = on; return this; }

    /** Run a single-user baseline step first. */
    public Sweep baseline(boolean on) { settings.baseline = on; return this; }

    /** Cap in-flight requests of open-loop steps; the policy says whether extra arrivals queue or drop. */
    public Sweep maxInFlight(int cap, CapPolicy policy) {
        settings.maxInFlight = cap;
        settings.capPolicy = policy;
        return this;
    }

    /** Service-level objectives for goodput. */
    public Sweep slo(Slo objectives) { settings.slo = objectives; return this; }

    /**
     * Limits of the client self-check, which flags steps the load generator (not the server) limited
     * ({@code StepResult.clientCheck()}; defaults and rationale in docs/METRICS.md):
     * {@code .clientCheck(ClientCheck.thresholds().cpuFraction(0.95).build())}.
     */
    public Sweep clientCheck(ClientThresholds thresholds) { settings.clientThresholds = thresholds; return this; }

    /** Stop the ladder after a step whose failure rate exceeds this fraction. */
    public Sweep stopWhenFailureRateAbove(double fraction) { settings.stopFailureRate = fraction; return this; }

    /** Stop the ladder after a step whose p99 TTFT (sched basis in open loop) exceeds this. */
    public Sweep stopWhenP99TtftAbove(Duration bound) { settings.stopP99Ms = bound.toNanos() / 1e6; return this; }

    /** Folder under which the run directory is created (default {@code runs}). */
    public Sweep outputDir(Path dir) { settings.outputDir = dir; settings.writeRunDirectory = dir != null; return this; }

    /** A short name for the run directory and reports. */
    public Sweep name(String runName) { settings.name = runName; return this; }

    /** Live progress events (step start/end, pauses). */
    public Sweep progress(LoadProgress listener) { settings.progress = listener; return this; }

    /**
     * Allow this sweep to run while another sweep of this JVM drives the same target (default: refused,
     * because two loads on one server silently mix their measurements). Each run still writes its own
     * directory, and the manifest records that concurrent runs were allowed.
     */
    public Sweep allowConcurrentRuns(boolean allow) { settings.allowConcurrent = allow; return this; }

    /**
     * Warm Kneepoint's own request path before this JVM's first sweep (default on): tokens streamed from an embedded
     * simulator, never the target, so class loading and JIT do not inflate the first requests' dispatch lag and TTFT.
     * Once per JVM and transport/API (the manifest's {@code client_warmup_ms} says what it took).
     */
    public Sweep clientWarmup(boolean on) { settings.clientWarmup = on; return this; }

    /**
     * Check the target before the first step (default on, {@link dev.kneepoint.client.Preflight}): where the API has
     * it {@code GET /v1/models} must answer, and one small request must come back OK; otherwise the run stops before
     * measuring anything with a {@link dev.kneepoint.client.PreflightException} that names the cause (connection
     * refused, DNS, TLS, a refused key, an unknown model with the served names). Off to measure a target that is
     * expected to fail.
     */
    public Sweep preflight(boolean on) { settings.preflight = on; return this; }

    /**
     * Steady open-loop background traffic underneath the whole ladder: Poisson arrivals at {@code rateRps} from the
     * run's start to its last step's end, every request tagged {@code bg}. The steps of the result (and the knee, the
     * summary's {@code steps}) are the foreground's only; the background is measured apart in
     * {@link RunResult#background()} and summary.json's {@code background}, seeded from {@link #seed(long)}.
     */
    public Sweep background(Workload requests, double rateRps) { settings.background(null, requests, rateRps, null); return this; }

    /**
     * Background at a rate per ladder step: Poisson at {@code ratesRps[k]} during step {@code k} (warm-up and drain
     * included; 0: none), none in pauses; measured apart like {@link #background(Workload, double)}. Another process,
     * tag or drain: {@code background(BackgroundStream...withStepRates(...))}.
     */
    public Sweep backgroundPerStep(Workload requests, double... ratesRps) {
        settings.background(null, requests, Double.NaN, ratesRps == null ? null : ratesRps.clone());
        return this;
    }

    /** Background traffic with full control of arrival process, tag and drain (see {@link BackgroundStream}). */
    public Sweep background(BackgroundStream stream) {
        settings.background(Objects.requireNonNull(stream), null, Double.NaN, null);
        return this;
    }

    /**
     * What to sample into {@code telemetry.jsonl} (default {@link Telemetry#defaults()}: the server's {@code /metrics}
     * and the host every 500 ms, GPUs with nvidia-smi; {@link Telemetry#off()}: nothing). docs/TELEMETRY.md.
     */
    public Sweep telemetry(Telemetry settings) { this.settings.telemetry = Objects.requireNonNull(settings); return this; }

    /** Scrape this Prometheus endpoint instead of {@code <target>/metrics}. */
    public Sweep metricsUrl(String url) { settings.telemetry = settings.telemetry.withMetricsUrl(url); return this; }

    /** GPU telemetry source: {@link Gpu#auto()} (default), {@link Gpu#nvidiaSmi()}, {@link Gpu#dcgm(String)}, {@link Gpu#off()}. */
    public Sweep gpu(Gpu source) { settings.telemetry = settings.telemetry.withGpu(Objects.requireNonNull(source)); return this; }

    /** Time between telemetry samples (default 500 ms). */
    public Sweep telemetryInterval(Duration d) {
        settings.telemetry = settings.telemetry.withInterval(Objects.requireNonNull(d));
        return this;
    }

    /**
     * Checks every setting and returns them resolved as an immutable {@link SweepSpec} (the {@link #api(String) api}
     * override applied, the background built, the {@link SweepSpec.Mode mode} with what only it needs), reporting
     * every problem at once in one {@link IllegalArgumentException}. Nothing is sent and no file is read: the
     * tokenizer is measured and a trace read by {@link #run()} / {@link #start()}. This builder is left as it was.
     */
    public SweepSpec validate() {
        return SweepChecks.validate(SweepChecks.check(this));
    }

    /** Runs the sweep on this thread and returns its result; interrupting the thread stops it, keeping what was measured. */
    public RunResult run() {
        return prepare().runBlocking();
    }

    /** Starts the sweep on a thread of its own; close the handle to stop it. */
    public SweepHandle start() {
        return prepare().startAsync();
    }

    /** Checks every setting, measures and reads what the run needs, and plans it (all problems at once). */
    SweepExecution prepare() {
        return SweepExecution.prepare(SweepChecks.check(this));
    }
}
