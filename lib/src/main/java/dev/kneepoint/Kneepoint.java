package dev.kneepoint;

import dev.kneepoint.analysis.SummaryText;
import dev.kneepoint.client.TargetConfig;
import dev.kneepoint.io.RunLoader;
import dev.kneepoint.metrics.RunResult;
import dev.kneepoint.sim.SimConfig;
import dev.kneepoint.sim.Simulator;
import dev.kneepoint.serve.ServeCommandLine;
import dev.kneepoint.serve.ServeParam;
import dev.kneepoint.serve.ServeSweep;
import dev.kneepoint.serve.ServerLauncher;
import dev.kneepoint.serve.SweepRunner;
import dev.kneepoint.sweep.Sweep;
import dev.kneepoint.sweep.SweepDefaults;
import dev.kneepoint.telemetry.GpuLogImport;
import java.nio.file.Path;
import java.time.Duration;
import java.util.List;
import java.util.function.UnaryOperator;

/**
 * The front door: every verb a notebook or JShell user needs, found by tab completion.
 *
 * <pre>{@code
 * try (var sim = Kneepoint.simulator("cpu-small")) {
 *     var target = Kneepoint.target(sim);
 *     RunResult r = Kneepoint.ladder(target, 1, 2, 4, 8).stepDuration(Duration.ofSeconds(10)).run();
 *     System.out.println(Kneepoint.table(r));
 * }
 * }</pre>
 */
public final class Kneepoint {
    private Kneepoint() {}

    /** An OpenAI-compatible chat target with default timeouts; use {@link #targetBuilder()} for more. */
    public static TargetConfig target(String baseUrl, String model) {
        return TargetConfig.builder().baseUrl(baseUrl).model(model).build();
    }

    /**
     * A target speaking {@code api}: {@code chat}, {@code completions}, {@code tgi},
     * {@code ollama-generate}, {@code ollama-chat}, {@code llamacpp} or {@code sglang}
     * (docs/SERVERS.md).
     *
     * @throws IllegalArgumentException for an unknown API, listing the valid ones
     */
    public static TargetConfig target(String baseUrl, String model, String api) {
        return TargetConfig.builder().baseUrl(baseUrl).model(model).api(api).build();
    }

    /** The embedded simulator as a chat target. */
    public static TargetConfig target(Simulator sim) {
        return target(sim.url(), sim.config().modelName());
    }

    /** A target builder: API kind, streaming, API key from an environment variable, headers, timeouts. */
    public static TargetConfig.Builder targetBuilder() {
        return TargetConfig.builder();
    }

    /** Starts the embedded LLM server simulator with a preset ({@code fast}, {@code cpu-small}, {@code gpu-8b}, {@code gpu-70b-tp8}). */
    public static Simulator simulator(String preset) {
        return Simulator.start(SimConfig.preset(preset));
    }

    /** Starts the simulator with a full configuration. */
    public static Simulator simulator(SimConfig config) {
        return Simulator.start(config);
    }

    /** A sweep to configure: add {@code concurrency(...)} or {@code rates(...)}, then {@code run()}. */
    public static Sweep sweep(TargetConfig target) {
        return Sweep.of(target);
    }

    /** A closed-loop concurrency ladder. */
    public static Sweep ladder(TargetConfig target, int... concurrency) {
        return sweep(target).concurrency(concurrency);
    }

    /** An open-loop request-rate ladder (Poisson arrivals by default). */
    public static Sweep rateLadder(TargetConfig target, double... ratesRps) {
        return sweep(target).rates(ratesRps);
    }

    /**
     * A rate sweep that finds the server's range by itself (GuideLLM's {@code sweep}): a one-user
     * {@code synchronous} step and a saturating {@code throughput} step, then {@code openSteps} open-loop steps at
     * rates evenly spaced strictly between their measured request throughputs; see {@link Sweep#rateSweep(int)}.
     */
    public static Sweep rateSweep(TargetConfig target, int openSteps) {
        return sweep(target).rateSweep(openSteps);
    }

    /**
     * Replays a request trace open loop: each line of {@code traceJsonl} ({@code timestamp} in ms,
     * {@code input_length}, {@code output_length}, optional {@code hash_ids} or {@code text}; the Mooncake / AIPerf
     * shape, see {@link dev.kneepoint.workload.Trace}) is fired at its recorded instant, never waiting for earlier
     * answers. Add {@code .timeScale(2)} to replay twice as fast, then {@code run()}; see {@link Sweep#trace(Path)}.
     */
    public static Sweep replay(TargetConfig target, Path traceJsonl) {
        return sweep(target).trace(traceJsonl);
    }

    /**
     * A server-config sweep ({@code bin/kneepoint serve-sweep}, docs/SERVE-SWEEP.md): for each
     * combination of {@code params} ({@code "parallel=1,2,4"}, the first varying slowest) start {@code serve} (a
     * command line with {@code {port}} and a {@code {NAME}} per parameter) on a free 127.0.0.1 port, wait until it
     * answers (health, then a first request of {@code model}), run {@code ladder} against it, stop it; one run
     * directory per configuration under {@code runs/NAME-serve-sweep/}, then a table and a chart across them
     * ({@link ServeSweep.Result#table()}). Blocks until every configuration ran.
     *
     * <pre>{@code
     * var r = Kneepoint.serveSweep("slots", "llama-server -m m.gguf --parallel {parallel} --port {port}",
     *         List.of("parallel=1,2,4"), "m", s -> s.concurrency(1, 4, 16));
     * r.table().table();   // one row per configuration: peak tok/s, knee, capacity, $/Mtok
     * }</pre>
     *
     * @throws InterruptedException when interrupted: the running server is stopped first
     */
    public static ServeSweep.Result serveSweep(String name, String serve, List<String> params, String model,
                                               UnaryOperator<Sweep> ladder) throws InterruptedException {
        List<ServeParam> swept = params.stream().map(ServeParam::parse).toList();
        ServeCommandLine command = ServeCommandLine.parse(serve, swept);
        ServeSweep.Plan plan = new ServeSweep.Plan(name, SweepDefaults.OUTPUT_DIR, serve, swept, List.of(),
                ServeSweep.READY_TIMEOUT, false);
        return ServeSweep.run(plan, ServerLauncher.processes(command, ServeSweep.STOP_GRACE),
                new SweepRunner(model, ladder), System.out);
    }

    /** Loads a run directory written earlier (also one from a run that was killed: it is marked incomplete). */
    public static RunResult load(Path runDirectory) {
        return RunLoader.stream(runDirectory, r -> { }).result();
    }

    /**
     * Adds a GPU log written on the server host during a run ({@code nvidia-smi --query-gpu=timestamp,index,... --format=csv
     * -lms 500 -f gpu.csv}) to that run's telemetry, on the run's clock; {@code zone} is the GPU host's time zone.
     * Its series carry the label {@code host=server}. See {@link GpuLogImport}.
     */
    public static GpuLogImport.Result importGpuLog(Path runDirectory, Path csv, java.time.ZoneId zone) {
        return GpuLogImport.into(runDirectory, csv, zone);
    }

    /** The per-step summary as a text table. */
    public static String table(RunResult run) {
        return SummaryText.format(run);
    }

    /**
     * A duration of {@code seconds} (fractions allowed, rounded to the nanosecond): what a notebook makes of its
     * {@code step_seconds}-style parameters.
     *
     * @throws IllegalArgumentException if {@code seconds} is negative, NaN or infinite
     */
    public static Duration seconds(double seconds) {
        if (!(seconds >= 0) || Double.isInfinite(seconds) || seconds > Long.MAX_VALUE / 1e9) {
            throw new IllegalArgumentException("a duration in seconds must be a finite number >= 0, got " + seconds);
        }
        return Duration.ofNanos(Math.round(seconds * 1e9));
    }

    /**
     * {@code seconds(given)}, or {@code seconds(fallback)} when {@code given} is negative: a notebook's duration
     * parameter left at {@code -1} means "the notebook's default" (usually shorter in fast mode), e.g.
     * {@code Kneepoint.seconds(step_seconds, fast ? 3 : 30)}.
     */
    public static Duration seconds(double given, double fallback) {
        return seconds(given < 0 ? fallback : given);
    }
}
