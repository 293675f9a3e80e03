package dev.kneepoint.cli;

import com.sun.management.OperatingSystemMXBean;
import dev.kneepoint.Kneepoint;
import dev.kneepoint.cli.bench.BenchAll;
import dev.kneepoint.cli.bench.BenchReport;
import dev.kneepoint.cli.bench.Part;
import dev.kneepoint.client.TargetConfig;
import dev.kneepoint.load.LoadProgress;
import dev.kneepoint.metrics.RunResult;
import dev.kneepoint.metrics.StepInfo;
import dev.kneepoint.metrics.StepResult;
import dev.kneepoint.sweep.Sweep;
import java.io.BufferedReader;
import java.io.IOException;
import java.io.InputStreamReader;
import java.lang.management.GarbageCollectorMXBean;
import java.lang.management.ManagementFactory;
import java.nio.charset.StandardCharsets;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Locale;
import java.util.concurrent.Callable;
import java.util.concurrent.TimeUnit;
import java.util.function.Function;
import picocli.CommandLine.Command;
import picocli.CommandLine.Mixin;
import picocli.CommandLine.Model.CommandSpec;
import picocli.CommandLine.Option;
import picocli.CommandLine.Spec;

/**
 * {@code kneepoint bench}: the client-side performance figures of docs/PERFORMANCE.md. Each scenario
 * starts the simulator in a child JVM (so the client's CPU time is its own), drives it from this JVM
 * and reports the client's process CPU per streamed token, sustained ingest, open-loop dispatch
 * accuracy and concurrent streams held. Figures cover the window after warm-up; the JIT column is
 * compilation time inside it, and a per-thread-group CPU breakdown goes to stderr.
 *
 * <p>{@code kneepoint bench --all} instead runs every part's bench (client, simulator, kernel, analysis) one
 * after the other, each in its own process, and writes results.md and results.json ({@link BenchAll}).
 */
@Command(name = "bench", mixinStandardHelpOptions = true,
        description = "Measure the client: CPU per token, ingest rate, dispatch accuracy, concurrent streams.")
final class BenchCommand implements Callable<Integer> {
    @Mixin
    BenchOptions bench;

    @Option(names = "--streams", defaultValue = "2000", description = "Concurrent streams scenario size (default: ${DEFAULT-VALUE})")
    int streams;

    @Option(names = "--rate", defaultValue = "1000", description = "Dispatch-accuracy scenario rate, req/s (default: ${DEFAULT-VALUE})")
    double rate;

    @Option(names = "--only", description = "Run one scenario: ingest, dispatch or streams")
    String only;

    @Option(names = "--runs", defaultValue = "1", description = "Repeat each scenario this many times, one row each (default: ${DEFAULT-VALUE})")
    int runs;

    @Option(names = "--all", description = "Run every part (client, sim, kernel, analysis), each in its own process, and write "
            + "results.md and results.json with each figure, its target and the machine")
    boolean all;

    @Option(names = "--quick", description = "With --all: smoke sizes (5 s client scenarios, 2 s simulator case, one kernel launch, 50,000-request analysis directory)")
    boolean quick;

    @Option(names = "--parts", description = "With --all: the parts to run, comma-separated (default: client,sim,kernel,analysis)")
    String parts;

    @Option(names = "--out", description = "With --all: results folder (default: bench/results/<UTC date-time>)")
    Path out;

    @Option(names = "--work", description = "With --all: folder for the analysis part's run directory (default: a temporary folder)")
    Path work;

    @Option(names = "--keep", description = "With --all: keep the analysis run directory (default: deleted afterwards)")
    boolean keep;

    @Spec
    CommandSpec spec;

    private final OperatingSystemMXBean os = (OperatingSystemMXBean) ManagementFactory.getOperatingSystemMXBean();

    @Override
    public Integer call() throws Exception {
        List<String> misplaced = new ArrayList<>();
        var parsed = spec.commandLine().getParseResult();
        for (String o : all ? List.of("--only", "--runs", "--seconds", "--warmup", "--streams", "--rate", "--transport")
                : List.of("--quick", "--parts", "--out", "--work", "--keep")) {
            if (parsed.hasMatchedOption(o)) {
                misplaced.add(o);
            }
        }
        if (!misplaced.isEmpty()) {
            throw new IllegalArgumentException(all ? "bench --all sets each part's sizes itself (full or --quick); drop "
                    + String.join(", ", misplaced) + ", or run the client bench alone without --all"
                    : String.join(", ", misplaced) + " only go with --all; add --all to run every part");
        }
        if (all) {
            return runAll();
        }
        System.err.println("bench: client figures only; 'bench --all' runs every part (client, sim, kernel, analysis) and"
                + " writes results.md and results.json (docs/PERFORMANCE.md)");
        List<String> rows = new ArrayList<>();
        rows.add("| scenario | load | out tok/s | client CPU ns/token | tokens/s per client core | conc mean | ttft p99 ms | itl p50 / p99 ms | schedule_lag p50 / p99 / p99.9 / max ms | client CPU % | GC ms | JIT ms | failures |");
        rows.add("|---|---|---|---|---|---|---|---|---|---|---|---|---|");
        for (int run = 0; run < runs; run++) {
            scenarios(rows);
        }
        rows.forEach(System.out::println);
        return 0;
    }

    private int runAll() throws IOException, InterruptedException {
        String home = System.getenv("KNEEPOINT_HOME");
        Path root = Path.of(home != null && !home.isBlank() ? home : System.getProperty("user.dir")).toAbsolutePath();
        List<Part> selected = parts == null ? List.of(Part.values()) : Part.parseList(parts);
        BenchAll.Options options = new BenchAll.Options(quick, selected, out != null ? out : BenchAll.Options.defaultOut(root),
                work, keep, root);
        BenchReport report = BenchAll.run(options, System.err);
        System.out.print(report.markdown());
        System.err.println("bench --all: wrote " + options.out().resolve("results.md") + " and results.json");
        return report.noPartFailed() ? 0 : 1;
    }

    private void scenarios(List<String> rows) throws IOException, InterruptedException {
        Duration warm = Duration.ofSeconds(bench.warmupSeconds);
        Duration d = Duration.ofSeconds(bench.seconds);
        if (only == null || only.equals("ingest")) {
            for (int c : new int[] {16, 64}) {
                rows.add(scenario("ingest", "closed c=" + c, List.of("--max-num-seqs", "1024", "--kv-tokens", "16000000",
                        "--max-model-len", "40000", "--step-overhead", "1ms", "--decode-us", "0", "--prefill-us", "0",
                        "--attention-ns", "0", "--jitter", "0"),
                        t -> Kneepoint.ladder(t, c).inputTokens(16).outputTokens(30000).warmup(warm)
                                .stepDuration(d).drainTimeout(Duration.ZERO)));
            }
        }
        if (only == null || only.equals("dispatch")) {
            rows.add(scenario("dispatch", String.format(Locale.ROOT, "open %.0f req/s constant", rate),
                    List.of("--max-num-seqs", "4096", "--max-batched-tokens", "65536", "--kv-tokens", "16000000", "--step-overhead", "1ms",
                            "--decode-us", "0", "--prefill-us", "0", "--attention-ns", "0", "--jitter", "0"),
                    t -> Kneepoint.rateLadder(t, rate).arrival("constant").inputTokens(16).outputTokens(2)
                            .warmup(warm).stepDuration(d)));
        }
        if (only == null || only.equals("streams")) {
            rows.add(scenario("streams", "closed c=" + streams, List.of("--max-num-seqs", "8192", "--kv-tokens",
                            "32000000", "--max-batched-tokens", "65536", "--step-overhead", "100ms", "--decode-us", "0",
                            "--prefill-us", "0", "--attention-ns", "0", "--jitter", "0"),
                    t -> Kneepoint.ladder(t, streams).inputTokens(16).outputTokens(40).warmup(warm)
                            .stepDuration(d).drainTimeout(Duration.ofSeconds(10))));
        }
    }

    private String scenario(String name, String load, List<String> simArgs, Function<TargetConfig, Sweep> sweep)
            throws IOException, InterruptedException {
        System.err.println("bench: " + name + " (" + load + ")");
        Process child = startSimulator(simArgs);
        try {
            String url = readUrl(child);
            TargetConfig target = Kneepoint.targetBuilder().baseUrl(url).model("sim-fast").transport(bench.transport)
                    .idleTimeout(Duration.ofSeconds(120)).build();
            // CPU and GC are sampled from the end of warm-up (when the window opens) to the end of the run.
            long[] start = new long[4];
            ThreadCpu[] threads = new ThreadCpu[1];
            Sweep configured = sweep.apply(target).outputDir(null).name("bench-" + name).progress(new LoadProgress() {
                @Override
                public void stepStarting(StepInfo step, int stepCount) {
                    Thread.ofVirtual().start(() -> {
                        try {
                            Thread.sleep(Duration.ofNanos(step.warmupNanos()));
                        } catch (InterruptedException e) {
                            return;
                        }
                        synchronized (start) {
                            start[0] = os.getProcessCpuTime();
                            start[1] = gcMillis();
                            start[2] = System.nanoTime();
                            start[3] = jitMillis();
                            threads[0] = ThreadCpu.snapshot();
                        }
                    });
                }
            });
            RunResult r = configured.run();
            long cpu;
            long gc;
            long jit;
            double wall;
            synchronized (start) {
                cpu = os.getProcessCpuTime() - start[0];
                gc = gcMillis() - start[1];
                jit = jitMillis() - start[3];
                wall = (System.nanoTime() - start[2]) / 1e9;
                if (threads[0] != null) {
                    System.err.println("bench: " + name + " client CPU by thread: " + ThreadCpu.snapshot().since(threads[0], wall));
                }
            }
            StepResult s = r.steps().get(r.steps().size() - 1);
            StepResult.Latency lat = s.latency();
            long tokens = r.steps().stream().mapToLong(x -> Math.round(x.rates().outputTokensPerS() * x.windowS()))
                    .sum();
            double nsPerToken = tokens == 0 ? Double.NaN : (double) cpu / tokens;
            return String.format(Locale.ROOT,
                    "| %s | %s | %.0f | %.0f | %.0f | %.0f | %.1f | %.1f / %.1f | %.3f / %.3f / %.3f / %.1f | %.0f | %d | %d | %d |",
                    name, load, s.rates().outputTokensPerS(), nsPerToken, 1e9 / nsPerToken, s.rates().concurrencyMean(),
                    lat.ttft().p99(), lat.itl().p50(), lat.itl().p99(), lat.scheduleLag().p50(), lat.scheduleLag().p99(),
                    lat.scheduleLag().p999(), lat.scheduleLag().max(), 100.0 * cpu / 1e9 / wall, gc, jit,
                    s.counts().requestsFailed());
        } finally {
            child.destroy();
            if (!child.waitFor(5, TimeUnit.SECONDS)) {
                child.destroyForcibly();
            }
        }
    }

    private static Process startSimulator(List<String> simArgs) throws IOException {
        List<String> cmd = new ArrayList<>(List.of(ProcessHandle.current().info().command().orElse("java"),
                "-cp", System.getProperty("java.class.path"), "-XX:+UseParallelGC", Main.class.getName(),
                "sim", "--port", "0", "--preset", "fast"));
        cmd.addAll(simArgs);
        return new ProcessBuilder(cmd).redirectError(ProcessBuilder.Redirect.INHERIT).start();
    }

    private static String readUrl(Process child) throws IOException {
        BufferedReader out = new BufferedReader(new InputStreamReader(child.getInputStream(), StandardCharsets.UTF_8));
        String line = out.readLine();
        if (line == null || !line.contains(" at http")) {
            throw new IOException("the simulator child did not start (first line: " + line + ")");
        }
        return line.substring(line.indexOf(" at http") + 4, line.indexOf(" (Ctrl-C"));
    }

    /** Wall time the JIT compilers spent compiling (all compiler threads), ms. */
    private static long jitMillis() {
        var jit = ManagementFactory.getCompilationMXBean();
        return jit != null && jit.isCompilationTimeMonitoringSupported() ? jit.getTotalCompilationTime() : -1;
    }

    private static long gcMillis() {
        return ManagementFactory.getGarbageCollectorMXBeans().stream()
                .mapToLong(GarbageCollectorMXBean::getCollectionTime).filter(t -> t > 0).sum();
    }
}
