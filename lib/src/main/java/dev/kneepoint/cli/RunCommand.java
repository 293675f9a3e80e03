package dev.kneepoint.cli;

import dev.kneepoint.Kneepoint;
import dev.kneepoint.client.ApiKind;
import dev.kneepoint.client.TargetConfig;
import dev.kneepoint.load.CapPolicy;
import dev.kneepoint.metrics.RunResult;
import dev.kneepoint.metrics.Slo;
import dev.kneepoint.report.RunReport;
import dev.kneepoint.sweep.Sweep;
import dev.kneepoint.telemetry.Gpu;
import dev.kneepoint.telemetry.Telemetry;
import java.nio.file.Path;
import java.time.Duration;
import java.util.List;
import java.util.Map;
import java.util.concurrent.Callable;
import picocli.CommandLine.Command;
import picocli.CommandLine.Option;

/** {@code kneepoint run}: a ladder against any OpenAI-compatible server, headless. */
@Command(name = "run", mixinStandardHelpOptions = true,
        description = "Run a concurrency or request-rate ladder, a rate sweep, or replay a request trace, against an "
                + "OpenAI-compatible server; prints the summary table and writes the run directory.")
final class RunCommand implements Callable<Integer> {
    @Option(names = "--url", required = true, description = "Server base URL, e.g. http://127.0.0.1:8000")
    String url;

    @Option(names = "--model", required = true, description = "Model name sent in each request")
    String model;

    @Option(names = "--api", defaultValue = "chat", description = "Server API: chat, completions (OpenAI-compatible), "
            + "tgi, ollama-generate, ollama-chat, llamacpp or sglang (native); see docs/SERVERS.md (default: ${DEFAULT-VALUE})")
    String api;

    @Option(names = "--concurrency", split = ",", description = "Closed-loop levels, e.g. 1,2,4,8")
    List<Integer> concurrency = List.of();

    @Option(names = "--rate", split = ",", description = "Open-loop request rates in req/s, e.g. 1,2,4")
    List<Double> rates = List.of();

    @Option(names = "--trace", description = "Replay this trace (JSON lines: timestamp ms, input_length, output_length, "
            + "optional hash_ids or text; see docs/SCENARIOS.md): each request fires at its recorded instant, open loop. "
            + "With --rate, one step per rate, the trace time-scaled to it")
    Path trace;

    @Option(names = "--rate-sweep", paramLabel = "N", description = "Find the range by itself (GuideLLM's sweep): a "
            + "one-user 'synchronous' step and a saturating 'throughput' step, then N open-loop steps (2-50) at rates "
            + "evenly spaced strictly between their measured request throughputs; see docs/SCENARIOS.md")
    Integer rateSweep;

    @Option(names = "--throughput-concurrency", paramLabel = "C", description = "Users of --rate-sweep's throughput "
            + "step (default: 256)")
    Integer throughputConcurrency;

    @Option(names = "--time-scale", description = "Trace speed-up: 2 replays twice as fast, 0.5 at half speed (default: 1)")
    Double timeScale;

    @Option(names = "--block-size", description = "Tokens per trace hash id (default: 512, Mooncake's)")
    Integer blockSize;

    @Option(names = "--arrival", defaultValue = "poisson", description = "constant, poisson or gamma (default: ${DEFAULT-VALUE})")
    String arrival;

    @Option(names = "--burstiness", defaultValue = "2.0", description = "Gamma arrivals' coefficient of variation")
    double burstiness;

    @Option(names = "--input-tokens", defaultValue = "128", description = "Synthetic prompt length (default: ${DEFAULT-VALUE})")
    int inputTokens;

    @Option(names = "--output-tokens", defaultValue = "128", description = "max_tokens per request (default: ${DEFAULT-VALUE})")
    int outputTokens;

    @Option(names = "--no-ignore-eos", description = "Do not send ignore_eos (outputs may end early)")
    boolean noIgnoreEos;

    @Option(names = "--calibrate", description = "Exact prompt lengths in the server's tokens: measure its tokenizer "
            + "(/tokenize; Ollama: prompt_eval_count) before the first step and cut synthetic or trace prompts to it")
    boolean calibrate;

    @Option(names = "--duration", description = "Measured length of each step (default: 30s; with --trace: the whole trace)")
    Duration duration;

    @Option(names = "--warmup", description = "Warm-up per step, excluded from statistics (default: 5s; with --trace: none)")
    Duration warmup;

    @Option(names = "--pause", defaultValue = "0s", description = "Pause between steps (default: ${DEFAULT-VALUE})")
    Duration pause;

    @Option(names = "--max-requests", defaultValue = "-1", description = "Also bound each step by a request count")
    long maxRequests;

    @Option(names = "--baseline", description = "Run a single-user baseline step first")
    boolean baseline;

    @Option(names = "--max-in-flight", defaultValue = "-1", description = "Open loop: cap on in-flight requests")
    int maxInFlight;

    @Option(names = "--cap-policy", defaultValue = "queue", description = "Open loop at the cap: queue or drop")
    String capPolicy;

    @Option(names = "--seed", defaultValue = "42", description = "Seed for arrivals and prompts")
    long seed;

    @Option(names = "--slo-ttft", description = "SLO on TTFT for goodput, e.g. 500ms")
    Duration sloTtft;

    @Option(names = "--slo-tpot", description = "SLO on TPOT for goodput, e.g. 50ms")
    Duration sloTpot;

    @Option(names = "--slo-e2e", description = "SLO on end-to-end latency for goodput, e.g. 10s")
    Duration sloE2e;

    @Option(names = "--stop-failure-rate", defaultValue = "NaN", description = "Stop the ladder after a step failing more than this fraction")
    double stopFailureRate;

    @Option(names = "--stop-p99-ttft", description = "Stop the ladder after a step whose p99 TTFT exceeds this")
    Duration stopP99Ttft;

    @Option(names = "--api-key-env", description = "Environment variable holding the API key (sent as a Bearer token)")
    String apiKeyEnv;

    @Option(names = "--api-key-file", description = "File whose first line is the API key (sent as a Bearer token)")
    Path apiKeyFile;

    @Option(names = "--ca-cert", description = "PEM file of the certificate(s) to trust for https:// (self-signed or private CA)")
    Path caCert;

    @Option(names = "--insecure-skip-tls-verify", description = "Do not verify the server's TLS certificate (test servers only)")
    boolean insecureSkipTlsVerify;

    @Option(names = "--header", description = "Extra request header NAME=VALUE (repeatable)")
    Map<String, String> headers = Map.of();

    @Option(names = "--no-stream", description = "Non-streaming requests (TTFT equals E2E)")
    boolean noStream;

    @Option(names = "--continuous-usage", description = "Ask vLLM for per-chunk usage (continuous_usage_stats)")
    boolean continuousUsage;

    @Option(names = "--out", defaultValue = "runs", description = "Parent folder of run directories (default: ${DEFAULT-VALUE})")
    Path out;

    @Option(names = "--name", defaultValue = "run", description = "Run name (default: ${DEFAULT-VALUE})")
    String name;

    @Option(names = "--no-telemetry", description = "Sample no server /metrics, host or GPU telemetry")
    boolean noTelemetry;

    @Option(names = "--no-client-warmup", description = "Skip warming Kneepoint's own request path on an embedded simulator "
            + "before the first step (the first requests then carry the JVM's class loading and JIT)")
    boolean noClientWarmup;

    @Option(names = "--metrics-url", description = "Server Prometheus endpoint (default: <url>/metrics)")
    String metricsUrl;

    @Option(names = "--telemetry-interval", defaultValue = "500ms", description = "Telemetry sampling interval (default: ${DEFAULT-VALUE})")
    Duration telemetryInterval;

    @Option(names = "--gpu", defaultValue = "auto", description = "GPU telemetry: auto, nvidia-smi, off, or a DCGM exporter URL (default: ${DEFAULT-VALUE})")
    String gpu;

    @Override
    public Integer call() {
        ApiKind kind;
        try {
            kind = ApiKind.parse(api);
        } catch (IllegalArgumentException e) {
            throw new IllegalArgumentException("--api: " + e.getMessage(), e);
        }
        TargetConfig.Builder tb = Kneepoint.targetBuilder().baseUrl(url).model(model).apiKind(kind)
                .stream(!noStream).continuousUsageStats(continuousUsage);
        headers.forEach(tb::header);
        if (apiKeyEnv != null) {
            tb.apiKeyFromEnv(apiKeyEnv);
        }
        if (apiKeyFile != null) {
            tb.apiKeyFromFile(apiKeyFile);
        }
        if (caCert != null) {
            tb.trustCertificate(caCert);
        }
        tb.insecureSkipTlsVerify(insecureSkipTlsVerify);
        Sweep sweep = configure(Kneepoint.sweep(tb.build()));
        RunResult result = sweep.run();
        Path dir = result.directory().orElse(out.resolve(result.runId()));
        System.out.print(RunReport.write(dir));
        System.out.println("\nrun directory: " + dir + " (report.txt, steps.csv, plots as PNG)");
        return result.complete() ? 0 : 3;
    }

    Sweep configure(Sweep sweep) {
        checkRateSweep();
        if (rateSweep != null) {
            sweep.rateSweep(rateSweep);
            if (throughputConcurrency != null) {
                sweep.throughputConcurrency(throughputConcurrency);
            }
        }
        if (trace == null && (timeScale != null || blockSize != null)) {
            throw new IllegalArgumentException((timeScale != null ? "--time-scale" : "--block-size")
                    + " applies to a trace replay only: add --trace FILE");
        }
        if (trace != null) {
            sweep.trace(trace);
            if (timeScale != null) {
                sweep.timeScale(timeScale);
            }
            if (blockSize != null) {
                sweep.traceBlockSize(blockSize);
            }
        }
        if (duration != null || trace == null) {
            sweep.stepDuration(duration != null ? duration : Duration.ofSeconds(30));
        }
        if (warmup != null || trace == null) {
            sweep.warmup(warmup != null ? warmup : Duration.ofSeconds(5));
        }
        if (!concurrency.isEmpty()) {
            sweep.concurrency(concurrency.stream().mapToInt(Integer::intValue).toArray());
        }
        if (!rates.isEmpty()) {
            sweep.rates(rates.stream().mapToDouble(Double::doubleValue).toArray());
        }
        sweep.arrival(arrival).seed(seed).inputTokens(inputTokens).outputTokens(outputTokens)
                .ignoreEos(!noIgnoreEos).calibrate(calibrate).pause(pause)
                .maxRequestsPerStep(maxRequests).baseline(baseline).outputDir(out).name(name)
                .progress(new ConsoleProgress(System.err));
        if (arrival.equals("gamma")) {
            sweep.burstiness(burstiness);
        }
        if (maxInFlight > 0) {
            sweep.maxInFlight(maxInFlight, capPolicy.equalsIgnoreCase("drop") ? CapPolicy.DROP : CapPolicy.QUEUE);
        }
        if (sloTtft != null || sloTpot != null || sloE2e != null) {
            Slo.Builder slo = Slo.builder();
            if (sloTtft != null) {
                slo.ttftMs(sloTtft.toNanos() / 1e6);
            }
            if (sloTpot != null) {
                slo.tpotMs(sloTpot.toNanos() / 1e6);
            }
            if (sloE2e != null) {
                slo.e2eMs(sloE2e.toNanos() / 1e6);
            }
            sweep.slo(slo.build());
        }
        if (!Double.isNaN(stopFailureRate)) {
            sweep.stopWhenFailureRateAbove(stopFailureRate);
        }
        if (stopP99Ttft != null) {
            sweep.stopWhenP99TtftAbove(stopP99Ttft);
        }
        sweep.clientWarmup(!noClientWarmup);
        if (noTelemetry) {
            sweep.telemetry(Telemetry.off());
        } else {
            sweep.telemetryInterval(telemetryInterval).gpu(switch (gpu.toLowerCase(java.util.Locale.ROOT)) {
                case "auto" -> Gpu.auto();
                case "nvidia-smi" -> Gpu.nvidiaSmi();
                case "off", "none" -> Gpu.off();
                default -> Gpu.dcgm(gpu);
            });
            if (metricsUrl != null) {
                sweep.metricsUrl(metricsUrl);
            }
        }
        return sweep;
    }

    /** The rate sweep's options, in the command line's terms, every problem at once. */
    private void checkRateSweep() {
        List<String> problems = new java.util.ArrayList<>();
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
            List<String> others = new java.util.ArrayList<>();
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
