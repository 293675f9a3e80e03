package dev.kneepoint.cli;

import dev.kneepoint.Kneepoint;
import dev.kneepoint.client.TargetConfig;
import dev.kneepoint.load.CapPolicy;
import dev.kneepoint.metrics.RunResult;
import dev.kneepoint.report.RunReport;
import dev.kneepoint.serve.ConfigRunner;
import dev.kneepoint.sweep.Sweep;
import dev.kneepoint.sweep.SweepDefaults;
import dev.kneepoint.workload.StructuredOutput;
import dev.kneepoint.workload.Trace;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.Callable;
import picocli.CommandLine.Command;
import picocli.CommandLine.Mixin;
import picocli.CommandLine.Option;

/**
 * {@code kneepoint run}: a ladder against any OpenAI-compatible server, headless. Every default is the library's
 * ({@link OptionDefaults}): a sweep started here and one started from a notebook measure the same thing.
 */
@Command(name = "run", mixinStandardHelpOptions = true, defaultValueProvider = OptionDefaults.class,
        description = "Run a concurrency or request-rate ladder, a rate sweep, or replay a request trace, against an "
                + "OpenAI-compatible server; prints the summary table and writes the run directory.",
        footer = ExitCodes.HELP)
final class RunCommand implements Callable<Integer> {
    @Mixin
    TargetOptions target;

    @Mixin
    AccessOptions access;

    @Option(names = "--concurrency", split = ",", description = "Closed-loop levels, e.g. 1,2,4,8")
    List<Integer> concurrency = List.of();

    @Option(names = "--rate", split = ",", description = "Open-loop request rates in req/s, e.g. 1,2,4")
    List<Double> rates = List.of();

    @Option(names = "--trace", description = "Replay this trace (JSON lines: timestamp ms, input_length, output_length, "
            + "optional hash_ids or text; see docs/SCENARIOS.md): each request fires at its recorded instant, open loop. "
            + "With --rate, one step per rate, the trace time-scaled to it. Unless given, "
            + "--duration is the whole trace and --warmup none")
    Path trace;

    @Option(names = "--rate-sweep", paramLabel = "N", description = "Find the range by itself (GuideLLM's sweep): a "
            + "one-user 'synchronous' step and a saturating 'throughput' step, then N open-loop steps (2-50) at rates "
            + "evenly spaced strictly between their measured request throughputs; see docs/SCENARIOS.md")
    Integer rateSweep;

    @Option(names = "--throughput-concurrency", paramLabel = "C", description = "Users of --rate-sweep's first throughput "
            + "step, doubled (at most 3 times) until throughput stops rising (default: "
            + SweepDefaults.THROUGHPUT_CONCURRENCY + ")")
    Integer throughputConcurrency;

    @Option(names = "--time-scale", description = "Trace speed-up: 2 replays twice as fast, 0.5 at half speed (default: 1)")
    Double timeScale;

    @Option(names = "--block-size", description = "Tokens per trace hash id (default: " + Trace.DEFAULT_BLOCK_SIZE
            + ", Mooncake's)")
    Integer blockSize;

    @Mixin
    ArrivalOptions arrival;

    @Mixin
    LengthOptions lengths;

    @Mixin
    ToolOptions tools;

    @Mixin
    DatasetOptions dataset;

    @Mixin
    AbandonOptions abandon;

    @Mixin
    MixOptions mix;

    @Mixin
    MediaOptions media;

    @Option(names = "--response-format", paramLabel = "json|json-schema[:FILE]", description = "Ask every answer "
            + "as JSON (response_format, guided decoding): json (any object), json-schema (a built-in schema) or "
            + "json-schema:FILE; each OK answer is checked and one that is not such an object is counted "
            + "output_invalid (not a failure). Answers cut by max_tokens end mid-JSON: with ignore_eos every answer "
            + "is, so add --no-ignore-eos")
    String responseFormat;

    @Option(names = "--batch", split = ",", paramLabel = "N[,N...]", description = "Inputs per request of a pooling "
            + "API (--api embeddings, ollama-embed, rerank, tei-rerank, score), each a prompt of --input-tokens (rerank,"
            + " score: scored against one more as the query); several sizes: a batch-size ladder at one --concurrency "
            + "level, steps b=N (default: 1)")
    List<Integer> batch = List.of();

    @Option(names = "--no-ignore-eos", description = "Do not send ignore_eos (outputs may end early)")
    boolean noIgnoreEos;

    @Option(names = "--calibrate", description = "Require exact prompt lengths in the server's tokens: measure its "
            + "tokenizer (/tokenize; Ollama: prompt_eval_count) before the first step and cut synthetic or trace "
            + "prompts to it, or stop when it has none. Default: exact where the server can tokenize, else words of a "
            + "synthetic vocabulary, flagged as estimates in the manifest and the report's header")
    boolean calibrate;

    @Option(names = "--no-calibrate", description = "Prompts of words of a synthetic vocabulary (about one token "
            + "each), without asking the server's tokenizer")
    boolean noCalibrate;

    @Mixin
    StepTimingOptions timing;

    @Option(names = "--max-requests", description = "Also bound each step by a request count")
    Long maxRequests;

    @Option(names = "--baseline", description = "Run a single-user baseline step first")
    boolean baseline;

    @Option(names = "--max-in-flight", description = "Open loop: cap on in-flight requests")
    Integer maxInFlight;

    @Option(names = "--cap-policy", defaultValue = "queue", description = "Open loop at the cap: queue or drop")
    String capPolicy;

    @Mixin
    SloOptions slo;

    @Mixin
    OutputOptions output;

    @Mixin
    TelemetryOptions telemetry;

    @Option(names = "--no-client-warmup", description = "Skip warming Kneepoint's own request path on an embedded simulator "
            + "before the first step (the first requests then carry the JVM's class loading and JIT)")
    boolean noClientWarmup;

    @Option(names = "--gpus", paramLabel = "N", description = "GPUs serving the target, for tokens/s per GPU "
            + "(default: counted in the GPU telemetry, if any)")
    Integer gpus;

    @Option(names = "--price-per-hour", paramLabel = "USD", description = "What the whole deployment measured costs per "
            + "hour (all its GPUs together), for $ per million output and input tokens")
    Double pricePerHour;

    @Option(names = "--label", paramLabel = "KEY=VALUE", description = "A label of the run, in its manifest and "
            + "report header (repeatable), e.g. --label gpu=H100 --label config=tp2")
    List<String> labels = List.of();

    @Option(names = "--no-preflight", description = "Skip the check before the first step (GET /v1/models where the "
            + "API has it, and one small request, must succeed; otherwise the run stops, exit 2, naming the cause)")
    boolean noPreflight;

    @Option(names = "--reset-prefix-cache", description = "Reset the server's prefix cache before every step, so each "
            + "starts cold (vLLM /reset_prefix_cache with VLLM_SERVER_DEV_MODE=1, SGLang /flush_cache, the simulator)")
    boolean resetPrefixCache;

    @Override
    public Integer call() {
        return execute().exitCode();
    }

    /**
     * Runs the sweep these options describe, writes its report and prints it; returns the run directory and the
     * exit code. {@code serve-sweep} calls it once per server configuration.
     */
    ConfigRunner.Finished execute() {
        Sweep sweep = configure(Kneepoint.sweep(targetConfig()));
        RunResult result = sweep.run();
        Path dir = output.directory(result);
        System.out.print(RunReport.write(dir, output.verbose));
        System.out.println("\nrun directory: " + dir + " (report.html, report.txt, steps.csv, plots as PNG)");
        return new ConfigRunner.Finished(dir, ExitCodes.of(result));
    }

    /** The target these options name, credentials and TLS included. */
    TargetConfig targetConfig() {
        return access.applyTo(target.builder()).build();
    }

    Sweep configure(Sweep sweep) {
        checkRateSweep();
        if (rateSweep != null) {
            sweep.rateSweep(rateSweep);
            Given.set(throughputConcurrency, sweep::throughputConcurrency);
        }
        if (trace == null && (timeScale != null || blockSize != null)) {
            throw new IllegalArgumentException((timeScale != null ? "--time-scale" : "--block-size")
                    + " applies to a trace replay only: add --trace FILE");
        }
        if (trace != null) {
            sweep.trace(trace);
            Given.set(timeScale, sweep::timeScale);
            Given.set(blockSize, sweep::traceBlockSize);
        }
        timing.applyTo(sweep, trace != null);
        if (!concurrency.isEmpty()) {
            sweep.concurrency(concurrency.stream().mapToInt(Integer::intValue).toArray());
        }
        if (!rates.isEmpty()) {
            sweep.rates(rates.stream().mapToDouble(Double::doubleValue).toArray());
        }
        arrival.applyTo(sweep);
        lengths.applyTo(sweep);
        dataset.applyTo(sweep, lengths.outputTokens, !noIgnoreEos, arrival.seed, System.err);
        mix.applyTo(sweep);
        media.applyTo(sweep);
        if (target.modelMix() != null) {
            sweep.models(target.modelMix());
        }
        if (!batch.isEmpty()) {
            sweep.batch(batch.stream().mapToInt(Integer::intValue).toArray());
        }
        if (responseFormat != null) {
            sweep.structuredOutput(StructuredOutput.parse(responseFormat));
        }
        tools.applyTo(sweep);
        abandon.applyTo(sweep);
        output.applyTo(sweep);
        slo.applyTo(sweep);
        telemetry.applyTo(sweep);
        if (noIgnoreEos) {
            sweep.ignoreEos(false);
        }
        for (String l : labels) {
            int eq = l.indexOf('=');
            if (eq < 1) {
                throw new IllegalArgumentException("--label takes KEY=VALUE, e.g. --label gpu=H100; got '" + l + "'");
            }
            sweep.label(l.substring(0, eq).strip(), l.substring(eq + 1).strip());
        }
        if (gpus != null || pricePerHour != null) {
            sweep.cost(gpus == null ? 0 : gpus, pricePerHour == null ? Double.NaN : pricePerHour);
        }
        if (calibrate && noCalibrate) {
            throw new IllegalArgumentException("--calibrate and --no-calibrate contradict each other: give one");
        }
        if (calibrate || noCalibrate) {
            sweep.calibrate(calibrate);
        }
        Given.set(maxRequests, sweep::maxRequestsPerStep);
        if (baseline) {
            sweep.baseline(true);
        }
        if (maxInFlight != null) {
            sweep.maxInFlight(maxInFlight, capPolicy.equalsIgnoreCase("drop") ? CapPolicy.DROP : CapPolicy.QUEUE);
        }
        if (noClientWarmup) {
            sweep.clientWarmup(false);
        }
        if (noPreflight) {
            sweep.preflight(false);
        }
        if (resetPrefixCache) {
            sweep.resetPrefixCache(true);
        }
        return sweep.progress(new ConsoleProgress(System.err));
    }

    /** The rate sweep's options, in the command line's terms, every problem at once. */
    private void checkRateSweep() {
        List<String> problems = new ArrayList<>();
        if (rateSweep == null) {
            if (throughputConcurrency != null) {
                problems.add("--throughput-concurrency applies to --rate-sweep only: add --rate-sweep N");
            }
        } else {
            if (rateSweep < 2 || rateSweep > 50) {
                problems.add("--rate-sweep takes 2 to 50 open-loop steps, got " + rateSweep);
            }
            if (throughputConcurrency != null && throughputConcurrency < 2) {
                problems.add("--throughput-concurrency must be >= 2 users, got " + throughputConcurrency);
            }
            List<String> others = new ArrayList<>();
            if (!concurrency.isEmpty()) {
                others.add("--concurrency");
            }
            if (!rates.isEmpty()) {
                others.add("--rate");
            }
            if (trace != null) {
                others.add("--trace");
            }
            if (baseline) {
                others.add("--baseline (its synchronous step is the baseline)");
            }
            if (!others.isEmpty()) {
                problems.add("--rate-sweep plans its own steps: remove " + String.join(", ", others));
            }
        }
        if (!problems.isEmpty()) {
            throw new IllegalArgumentException(String.join("\n", problems));
        }
    }
}
