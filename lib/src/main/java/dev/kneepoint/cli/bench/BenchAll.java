package dev.kneepoint.cli.bench;

import java.io.IOException;
import java.io.PrintStream;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.time.ZoneOffset;
import java.time.ZonedDateTime;
import java.time.format.DateTimeFormatter;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.List;
import java.util.Locale;
import java.util.concurrent.TimeUnit;
import java.util.stream.Stream;

/**
 * {@code kneepoint bench --all}: describes the machine, then runs the client, simulator, kernel and analysis
 * benches one after the other, each in its own process(es), and writes {@code results.md} and
 * {@code results.json}. The measuring is the existing benches' own ({@code kneepoint bench},
 * {@code kneepoint bench-sim}, {@code kneepoint-kernel bench}, {@link LoadBenchmark}); this class only runs
 * them and hands their output to {@link BenchOutputs}.
 */
public final class BenchAll {
    /** The simulator issue's case: 2,000 streams at 50,000 tok/s, 3,000-token answers, outputs spread over 80 % of a step. */
    static final String SIM_CASE = "2000:50000:3000:0.8";
    static final int STREAMS = 2000;

    /**
     * What to run and where.
     *
     * @param quick smoke sizes: 5 s client scenarios, a 2 s simulator case, one kernel launch of 10 cells, a
     *              50,000-request analysis directory
     * @param parts the parts to run (run order is always client, sim, kernel, analysis)
     * @param out   folder for results.md, results.json and the parts' output
     * @param work  folder for the analysis run directory; null = a fresh temporary folder
     * @param keep  keep the analysis run directory instead of deleting it
     * @param root  the Kneepoint checkout (bin/kneepoint-kernel, .venv, git)
     * @param analysisRequests size of the analysis run directory (1,000,000 full, 50,000 quick; the targets
     *              are judged only at 1,000,000)
     */
    public record Options(boolean quick, List<Part> parts, Path out, Path work, boolean keep, Path root, int analysisRequests) {
        public Options {
            parts = List.copyOf(parts);
            if (parts.isEmpty() || out == null || root == null || analysisRequests < 1) {
                throw new IllegalArgumentException("bench --all needs at least one part, an output folder, the checkout root"
                        + " and a positive analysis size; got parts " + parts + ", out " + out + ", root " + root
                        + ", analysis requests " + analysisRequests);
            }
        }

        /** The sizes of {@code --quick} or of the full run. */
        public Options(boolean quick, List<Part> parts, Path out, Path work, boolean keep, Path root) {
            this(quick, parts, out, work, keep, root, quick ? 50_000 : BenchOutputs.ANALYSIS_TARGET_REQUESTS);
        }

        /** {@code ROOT/bench/results/<UTC yyyyMMdd-HHmmss>}. */
        public static Path defaultOut(Path root) {
            return root.resolve("bench/results").resolve(
                    DateTimeFormatter.ofPattern("yyyyMMdd-HHmmss", Locale.ROOT).format(ZonedDateTime.now(ZoneOffset.UTC)));
        }

        Duration childTimeout() {
            return quick ? Duration.ofMinutes(10) : Duration.ofMinutes(30);
        }
    }

    private final Options options;
    private final PrintStream progress;
    private final String java = Path.of(System.getProperty("java.home"), "bin", "java").toString();
    private final String classPath = System.getProperty("java.class.path");

    private BenchAll(Options options, PrintStream progress) {
        this.options = options;
        this.progress = progress;
    }

    /** Runs the parts, writes results.md and results.json into {@code options.out()} and returns the report. */
    public static BenchReport run(Options options, PrintStream progress) throws IOException, InterruptedException {
        return new BenchAll(options, progress).run();
    }

    private BenchReport run() throws IOException, InterruptedException {
        Files.createDirectories(options.out());
        Machine machine = Machine.probe(options.root());
        LoadAverage start = LoadAverage.now();
        progress.printf(Locale.ROOT, "bench --all%s: %s, %d cores, load average %s; results in %s%n", options.quick() ? " --quick" : "",
                machine.cpuModel(), machine.cores(), start, options.out());
        List<PartResult> results = new ArrayList<>();
        int i = 0;
        for (Part part : options.parts()) {
            progress.printf(Locale.ROOT, "bench --all: %s (%d of %d)...%n", part.id(), ++i, options.parts().size());
            PartResult r = switch (part) {
                case CLIENT -> client();
                case SIM -> sim();
                case KERNEL -> kernel();
                case ANALYSIS -> analysis();
            };
            progress.printf(Locale.ROOT, "bench --all: %s %s in %.0f s%s%n", part.id(), r.status().name().toLowerCase(Locale.ROOT),
                    r.wallS(), r.reason().isEmpty() ? "" : ": " + r.reason());
            results.add(r);
        }
        BenchReport report = new BenchReport(options.quick(), machine, classPath, results, start, LoadAverage.now());
        Files.writeString(options.out().resolve("results.md"), report.markdown(), StandardCharsets.UTF_8);
        Files.writeString(options.out().resolve("results.json"), report.json(), StandardCharsets.UTF_8);
        return report;
    }

    private PartResult client() throws IOException, InterruptedException {
        // quick: 5 s, not 2 s, so that some 4 s answers of the streams scenario (40 tokens at 100 ms) end in the window
        int seconds = options.quick() ? 5 : 10;
        int warmup = options.quick() ? 1 : 3;
        Attempt a = new Attempt(Part.CLIENT, String.format(Locale.ROOT,
                "ingest c=16 and c=64, dispatch 1,000 req/s, %,d streams; %d s each after %d s warm-up", STREAMS, seconds, warmup));
        String out = a.exec("client", javaMain("dev.kneepoint.cli.Main", "bench", "--seconds", seconds, "--warmup", warmup,
                "--streams", STREAMS));
        return out == null ? a.failed() : a.parsed(() -> BenchOutputs.client(out, STREAMS));
    }

    private PartResult sim() throws IOException, InterruptedException {
        int seconds = options.quick() ? 2 : 10;
        Attempt a = new Attempt(Part.SIM, "case " + SIM_CASE + " (streams:tok/s:output:spread), NIO client, "
                + seconds + " s after 3 s warm-up");
        String out = a.exec("sim", javaMain("dev.kneepoint.cli.Main", "bench-sim", "--seconds", seconds, "--case", SIM_CASE));
        return out == null ? a.failed() : a.parsed(() -> BenchOutputs.sim(out));
    }

    private PartResult kernel() throws IOException, InterruptedException {
        int runs = options.quick() ? 1 : 3;
        int cells = options.quick() ? 10 : 50;
        String settings = String.format(Locale.ROOT, "%d kernel launch%s, %d trivial cells each", runs, runs == 1 ? "" : "es", cells);
        Path root = options.root();
        String missing = !Files.isExecutable(root.resolve("bin/kneepoint-kernel")) ? "bin/kneepoint-kernel is not in " + root
                : !Files.isExecutable(root.resolve(".venv/bin/python")) ? "no project virtual env (" + root.resolve(".venv") + ")"
                : !Files.isRegularFile(root.resolve(".venv/share/jupyter/kernels/kneepoint/kernel.json"))
                        ? "the kneepoint kernelspec is not installed in .venv" : null;
        if (missing != null) {
            return PartResult.skipped(Part.KERNEL, missing + "; run 'bin/kneepoint kernel install' (= bin/kneepoint-kernel install)"
                    + " once, then rerun", settings, LoadAverage.now());
        }
        Attempt a = new Attempt(Part.KERNEL, settings);
        String out = a.exec("kernel", List.of(root.resolve("bin/kneepoint-kernel").toString(), "bench", "--runs",
                Integer.toString(runs), "--cells", Integer.toString(cells)));
        return out == null ? a.failed() : a.parsed(() -> BenchOutputs.kernel(out));
    }

    private PartResult analysis() throws IOException, InterruptedException {
        int n = options.analysisRequests();
        Attempt a = new Attempt(Part.ANALYSIS, String.format(Locale.ROOT, "%,d-request run directory, measured in a fresh JVM", n));
        boolean tempWork = options.work() == null;
        Path work = tempWork ? Files.createTempDirectory("kneepoint-bench-") : Files.createDirectories(options.work());
        Path runDir = null;
        try {
            long t0 = System.nanoTime();
            String written = a.exec("analysis-write", javaMain("-Xmx6g", "dev.kneepoint.cli.bench.LoadBenchmark", "write", work, n));
            double writeS = (System.nanoTime() - t0) / 1e9;
            if (written == null) {
                return a.failed();
            }
            String[] lines = written.strip().split("\n");
            runDir = Path.of(lines[lines.length - 1].strip());
            String measured = a.exec("analysis-measure", javaMain("-Xmx3g", "dev.kneepoint.cli.bench.LoadBenchmark", "measure", runDir));
            return measured == null ? a.failed() : a.parsed(() -> BenchOutputs.analysis(measured, writeS));
        } finally {
            if (options.keep()) {
                progress.println("bench --all: kept the analysis run directory " + (runDir != null ? runDir : work));
            } else {
                if (runDir != null && runDir.toAbsolutePath().normalize().startsWith(work.toAbsolutePath().normalize())) {
                    deleteTree(runDir);
                }
                if (tempWork) {
                    deleteTree(work);
                }
            }
        }
    }

    private List<String> javaMain(Object... args) {
        List<String> cmd = new ArrayList<>(List.of(java));
        int i = 0;
        while (args[i].toString().startsWith("-X")) {
            cmd.add(args[i++].toString());
        }
        cmd.addAll(List.of("-cp", classPath));
        for (; i < args.length; i++) {
            cmd.add(args[i].toString());
        }
        return cmd;
    }

    private static void deleteTree(Path dir) throws IOException {
        if (!Files.exists(dir)) {
            return;
        }
        try (Stream<Path> s = Files.walk(dir)) {
            for (Path p : s.sorted(Comparator.reverseOrder()).toList()) {
                Files.deleteIfExists(p);
            }
        }
    }

    /** A source of figures that may reject the output it parses. */
    private interface Parse {
        List<Figure> figures();
    }

    /** One part's run: its children, their logs, the load before, the wall time; then its result. */
    private final class Attempt {
        private final Part part;
        private final String settings;
        private final LoadAverage before = LoadAverage.now();
        private final long t0 = System.nanoTime();
        private final List<String> commands = new ArrayList<>();
        private final List<String> logs = new ArrayList<>();
        private String failure = "";

        Attempt(Part part, String settings) {
            this.part = part;
            this.settings = settings;
        }

        /** Runs one child with stdout and stderr into NAME.out / NAME.err; its stdout, or null after a failure. */
        String exec(String name, List<String> cmd) throws IOException, InterruptedException {
            commands.add(String.join(" ", cmd.stream().map(c -> c.equals(classPath) ? "\"$CP\"" : c).toList()));
            Path out = options.out().resolve(name + ".out");
            Path err = options.out().resolve(name + ".err");
            logs.add(out.getFileName().toString());
            logs.add(err.getFileName().toString());
            Process p = new ProcessBuilder(cmd).directory(options.root().toFile()).redirectOutput(out.toFile())
                    .redirectError(err.toFile()).start();
            try {
                if (!p.waitFor(options.childTimeout().toMillis(), TimeUnit.MILLISECONDS)) {
                    stop(p);
                    failure = String.format(Locale.ROOT, "%s ran past %d min and was stopped; see %s", name,
                            options.childTimeout().toMinutes(), err.getFileName());
                    return null;
                }
            } catch (InterruptedException e) {
                stop(p);
                throw e;
            }
            if (p.exitValue() != 0) {
                failure = name + " exited with " + p.exitValue() + "; see " + err.getFileName();
                return null;
            }
            return Files.readString(out, StandardCharsets.UTF_8);
        }

        PartResult failed() {
            return result(PartResult.Status.FAILED, failure, List.of());
        }

        PartResult parsed(Parse parse) {
            try {
                return result(PartResult.Status.OK, "", parse.figures());
            } catch (IllegalArgumentException e) {
                return result(PartResult.Status.FAILED, "output not understood: " + e.getMessage(), List.of());
            }
        }

        private PartResult result(PartResult.Status status, String reason, List<Figure> figures) {
            return new PartResult(part, status, reason, settings, figures, before, LoadAverage.now(),
                    (System.nanoTime() - t0) / 1e9, commands, logs);
        }

        private static void stop(Process p) throws InterruptedException {
            p.descendants().forEach(ProcessHandle::destroy);
            p.destroy();
            if (!p.waitFor(5, TimeUnit.SECONDS)) {
                p.descendants().forEach(ProcessHandle::destroyForcibly);
                p.destroyForcibly();
            }
        }
    }
}
