package dev.kneepoint.cli.bench;

import dev.kneepoint.metrics.ClientHealth;
import dev.kneepoint.analysis.Knee;
import dev.kneepoint.analysis.KneeOptions;
import dev.kneepoint.analysis.KneeReport;
import dev.kneepoint.analysis.LatencyMetric;
import dev.kneepoint.analysis.RunTables;
import dev.kneepoint.analysis.SummaryText;
import dev.kneepoint.io.RunDirectory;
import dev.kneepoint.metrics.Outcome;
import dev.kneepoint.metrics.RequestRecord;
import dev.kneepoint.metrics.Slo;
import dev.kneepoint.metrics.StepInfo;
import dev.kneepoint.metrics.StepWindow;
import dev.kneepoint.metrics.TokenSource;
import dev.kneepoint.plot.ChartFiles;
import dev.kneepoint.plot.Plots;
import java.lang.management.ManagementFactory;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Locale;
import java.util.SplittableRandom;
import org.knowm.xchart.XYChart;
import tech.tablesaw.api.Table;

/**
 * The end-to-end analysis benchmark of docs/PERFORMANCE.md ("Analysis"), in two separate JVMs (the analysis part
 * of {@code kneepoint bench --all} runs both):
 *
 * <pre>
 * LoadBenchmark write PARENT [requests]   writes a real run directory (default 1,000,000 requests) with
 *                                         RunDirectory and prints its path
 * LoadBenchmark measure RUN_DIR            load + summary table + the four main plots (PNG), wall time,
 *                                         and the heap held per request after GC
 * </pre>
 *
 * The synthetic run is a closed-loop ladder c = 4, 8, ..., 1024 (9 steps of equal duration, so request
 * counts follow throughput), three tags with different prompt lengths, 16-64 token-carrying chunks per
 * request (1-4 tokens each), a knee near c = 64, HTTP 503s and idle timeouts above c = 256, and rare stream
 * errors everywhere. Records are deterministic for the request count.
 */
public final class LoadBenchmark {
    static final int STEPS = 9;
    static final long GAP_NANOS = 2_000_000_000L;

    private LoadBenchmark() {}

    public static void main(String[] args) throws Exception {
        if (args.length >= 2 && args[0].equals("write")) {
            int n = args.length > 2 ? Integer.parseInt(args[2]) : 1_000_000;
            System.out.println(write(Path.of(args[1]), n));
        } else if (args.length >= 2 && args[0].equals("measure")) {
            measure(Path.of(args[1]));
        } else {
            System.err.println("usage: LoadBenchmark write PARENT [requests] | measure RUN_DIR");
            System.exit(2);
        }
    }

    static int concurrency(int step) {
        return 4 << step;
    }

    static double ttftMeanNanos(int c) {
        return 30e6 * Math.pow(Math.max(1, c / 64.0), 1.5);
    }

    static double itlMeanNanos(int c) {
        return 6e6 * (1 + c / 128.0);
    }

    static double e2eMeanNanos(int c) {
        return ttftMeanNanos(c) + 40 * 1.45 * itlMeanNanos(c);
    }

    /** Writes the run directory under {@code parent}; returns its path. */
    public static Path write(Path parent, int n) throws Exception {
        Files.createDirectories(parent);
        double rpsSum = 0;
        for (int s = 0; s < STEPS; s++) {
            rpsSum += concurrency(s) / (e2eMeanNanos(concurrency(s)) / 1e9);
        }
        long stepNanos = (long) (n / rpsSum * 1e9);
        Slo slo = Slo.builder().ttftMs(500).e2eMs(4000).build();
        long id = 0;
        try (RunDirectory run = RunDirectory.builder(parent).slug("bench-" + n).targetUrl("http://synthetic:8000")
                .model("synthetic-8b").slo(slo).open()) {
            long stepStart = 0;
            for (int s = 0; s < STEPS; s++) {
                int c = concurrency(s);
                double rps = c / (e2eMeanNanos(c) / 1e9);
                long count = s == STEPS - 1 ? n - id : Math.round(stepNanos / 1e9 * rps);
                long warmup = stepNanos / 50;
                StepInfo info = new StepInfo(s, "c=" + c, StepInfo.CLOSED, c, Double.NaN, "", -1, "", warmup,
                        stepNanos, -1);
                run.stepStarted(info, stepStart, null);
                for (long j = 0; j < count; j++) {
                    long intended = stepStart + (long) (j * (double) (stepNanos - 2 * e2eMeanNanos(c)) / count);
                    run.requestFinished(record(id++, c, intended, intended < stepStart + warmup));
                    if (id % 20_000 == 0) {
                        run.flush(); // bounds the writer's queue
                    }
                }
                run.stepFinished(info, new StepWindow(stepStart, stepStart + warmup, stepStart + stepNanos, true), ClientHealth.NOT_MEASURED);
                stepStart += stepNanos + GAP_NANOS;
            }
            return run.path();
        }
    }

    static RequestRecord record(long i, int c, long intended, boolean warmup) {
        SplittableRandom rnd = new SplittableRandom(i * 0x9E3779B97F4A7C15L + 17);
        RequestRecord.Builder b = new RequestRecord.Builder();
        b.id = i;
        b.step = "c=" + c;
        int tagDraw = rnd.nextInt(10);
        b.tag = tagDraw < 6 ? "chat" : tagDraw < 9 ? "summarize" : "code";
        b.warmup = warmup;
        b.intendedNanos = intended;
        b.dispatchNanos = intended + 20_000 + rnd.nextInt(200_000);
        b.requestedPromptTokens = (b.tag.equals("summarize") ? 2048 : b.tag.equals("code") ? 768 : 256)
                + rnd.nextInt(256);
        b.promptTokens = b.requestedPromptTokens + 7;
        int chunks = 16 + rnd.nextInt(49);
        b.requestedOutputTokens = -1;
        b.tokenSource = TokenSource.SERVER_USAGE;
        double fail = rnd.nextDouble();
        if (c >= 256 && fail < 0.02) {
            b.outcome = new Outcome.HttpError(503, "Service Unavailable: engine queue full");
            b.firstByteNanos = b.dispatchNanos + 3_000_000;
            b.endNanos = b.firstByteNanos + 100_000;
            return b.build();
        }
        long ttft = (long) (ttftMeanNanos(c) * Math.exp(0.35 * gaussian(rnd)));
        double itl = itlMeanNanos(c) * Math.exp(0.15 * gaussian(rnd));
        boolean timeout = c >= 256 && fail < 0.025;
        boolean streamError = !timeout && fail > 0.9995;
        int delivered = timeout || streamError ? 1 + rnd.nextInt(chunks) : chunks;
        long[] t = new long[delivered];
        int[] k = new int[delivered];
        int tokens = 0;
        long at = b.dispatchNanos + ttft;
        for (int q = 0; q < delivered; q++) {
            k[q] = rnd.nextInt(5) == 0 ? 2 + rnd.nextInt(3) : 1;
            at += q == 0 ? 0 : (long) (k[q] * itl * (0.7 + 0.6 * rnd.nextDouble()));
            t[q] = at;
            tokens += k[q];
        }
        b.chunkNanos = t;
        b.chunkTokens = k;
        b.firstByteNanos = b.dispatchNanos + ttft - 1_000_000;
        b.firstTokenNanos = t[0];
        b.lastTokenNanos = t[delivered - 1];
        b.outputTokens = tokens;
        b.clientCountedTokens = tokens;
        if (timeout) {
            b.outcome = new Outcome.Timeout(Outcome.TimeoutKind.IDLE);
            b.endNanos = b.lastTokenNanos + 10_000_000_000L;
        } else if (streamError) {
            b.outcome = new Outcome.StreamError("connection reset mid-stream");
            b.endNanos = b.lastTokenNanos + 1_000_000;
        } else {
            b.finishReason = "stop";
            b.endNanos = b.lastTokenNanos + 150_000;
        }
        return b.build();
    }

    private static double gaussian(SplittableRandom r) {
        return Math.sqrt(-2 * Math.log(1 - r.nextDouble())) * Math.cos(2 * Math.PI * r.nextDouble());
    }

    /** Load + summary table + four plots, timed; then the heap held per request with the results reachable. */
    public static void measure(Path dir) {
        long baseline = usedAfterGc();
        var threads = ManagementFactory.getThreadMXBean();
        var os = (com.sun.management.OperatingSystemMXBean) ManagementFactory.getOperatingSystemMXBean();
        long[] parseCpu = {0};
        Thread watcher = Thread.ofPlatform().daemon(true).start(() -> watchParsingThread(parseCpu));
        long p0 = os.getProcessCpuTime();
        long c0 = threads.getCurrentThreadCpuTime();
        long t0 = System.nanoTime();
        RunTables tables = RunTables.load(dir);
        long t1 = System.nanoTime();
        long c1 = threads.getCurrentThreadCpuTime();
        long p1 = os.getProcessCpuTime();
        watcher.interrupt();
        Table steps = tables.steps();
        String summary = SummaryText.format(tables.run());
        long t2 = System.nanoTime();
        long c2 = threads.getCurrentThreadCpuTime();
        XYChart[] charts = {Plots.knee(tables.run()), Plots.percentilesVsLoad(tables.run()),
            Plots.cdf(tables.run(), LatencyMetric.TTFT), Plots.timeSeries(tables.timeSeries())};
        long pngBytes = 0;
        for (XYChart c : charts) {
            pngBytes += ChartFiles.png(c).length;
        }
        long t3 = System.nanoTime();
        long c3 = threads.getCurrentThreadCpuTime();
        long p3 = os.getProcessCpuTime();
        KneeReport knee = Knee.analyze(tables.run(), KneeOptions.builder().requests(tables.requests()).build());
        long t4 = System.nanoTime();
        long held = usedAfterGc() - baseline;
        long rows = tables.requests().rowCount();
        long fileBytes = dir.resolve("requests.jsonl").toFile().length();
        System.out.printf(Locale.ROOT, "requests %,d  problems %d  file %,d bytes (%.0f bytes/line)  interval %s%n",
                rows, tables.problems().size(), fileBytes, (double) fileBytes / rows, tables.interval());
        System.out.printf(Locale.ROOT, "load (parse + aggregate + request table + time series) %.2f s (main thread cpu %.2f s,"
                + " parsing thread cpu %.2f s, process cpu %.2f s)%n",
                (t1 - t0) / 1e9, (c1 - c0) / 1e9, parseCpu[0] / 1e9, (p1 - p0) / 1e9);
        System.out.printf(Locale.ROOT, "summary table (Tables.steps + text) %.3f s (cpu %.3f s)%n", (t2 - t1) / 1e9,
                (c2 - c1) / 1e9);
        System.out.printf(Locale.ROOT, "4 plots rendered to PNG (%,d bytes) %.2f s (cpu %.2f s)%n", pngBytes,
                (t3 - t2) / 1e9, (c3 - c2) / 1e9);
        System.out.printf(Locale.ROOT, "TOTAL %.2f s (main thread cpu %.2f s, process cpu %.2f s)%n", (t3 - t0) / 1e9,
                (c3 - c0) / 1e9, (p3 - p0) / 1e9);
        // With no other load, two cores can do no better than the busiest thread or half of all the CPU time
        // (GC and JIT included): the wall time to expect on an idle 2-core machine, give or take scheduling.
        System.out.printf(Locale.ROOT, "idle 2-core estimate: load max(main %.2f, parsing %.2f, process/2 %.2f) s"
                + " + summary and plots max(main %.2f, process/2 %.2f) s = %.2f s%n", (c1 - c0) / 1e9, parseCpu[0] / 1e9,
                (p1 - p0) / 2e9, (c3 - c1) / 1e9, (p3 - p1) / 2e9,
                (Math.max(Math.max(c1 - c0, parseCpu[0]), (p1 - p0) / 2) + Math.max(c3 - c1, (p3 - p1) / 2)) / 1e9);
        System.out.printf(Locale.ROOT, "extra, not in the budget: knee readings with the request table %.2f s%n",
                (t4 - t3) / 1e9);
        System.out.printf(Locale.ROOT, "heap held %,d bytes = %.0f bytes/request (steps %d rows, summary %d chars, knee %s)%n",
                held, (double) held / rows, steps.rowCount(), summary.length(),
                knee.knee().orElse("none"));
        System.out.println("cpu by JVM thread group, whole process (Linux /proc): " + cpuByThreadGroup());
        System.out.printf(Locale.ROOT, "cpu (process) %.1f s%n",
                ((com.sun.management.OperatingSystemMXBean) ManagementFactory.getOperatingSystemMXBean())
                        .getProcessCpuTime() / 1e9);
    }

    /** Polls the CPU time of the loader's parsing thread every 10 ms (it ends before the load returns). */
    private static void watchParsingThread(long[] cpu) {
        var mx = ManagementFactory.getThreadMXBean();
        long id = -1;
        while (!Thread.currentThread().isInterrupted()) {
            if (id < 0) {
                id = Thread.getAllStackTraces().keySet().stream().filter(t -> t.getName().equals("kneepoint-parse"))
                        .mapToLong(Thread::threadId).findFirst().orElse(-1);
            } else {
                cpu[0] = Math.max(cpu[0], mx.getThreadCpuTime(id)); // -1 once it has ended
            }
            try {
                Thread.sleep(10);
            } catch (InterruptedException e) {
                return;
            }
        }
    }

    /** CPU seconds per thread-name group from /proc/self/task (JIT and GC threads are invisible to JMX). */
    private static String cpuByThreadGroup() {
        java.util.Map<String, Double> cpu = new java.util.TreeMap<>();
        try (var tasks = Files.list(Path.of("/proc/self/task"))) {
            for (Path task : tasks.toList()) {
                String stat = Files.readString(task.resolve("stat"));
                String name = stat.substring(stat.indexOf('(') + 1, stat.lastIndexOf(')'));
                String[] f = stat.substring(stat.lastIndexOf(')') + 2).split(" ");
                double seconds = (Long.parseLong(f[11]) + Long.parseLong(f[12])) / 100.0; // utime + stime, ticks
                String group = name.startsWith("C2 ") ? "C2 JIT" : name.startsWith("C1 ") ? "C1 JIT"
                        : name.startsWith("G1") || name.startsWith("GC ") ? "GC" : name.equals("java") ? "main" : "other";
                cpu.merge(group, seconds, Double::sum);
            }
        } catch (Exception e) {
            return "unavailable (" + e.getMessage() + ")";
        }
        StringBuilder sb = new StringBuilder();
        cpu.forEach((g, s) -> sb.append(String.format(Locale.ROOT, "%s %.2f s  ", g, s)));
        return sb.toString().trim();
    }

    private static long usedAfterGc() {
        Runtime rt = Runtime.getRuntime();
        for (int i = 0; i < 3; i++) {
            System.gc();
        }
        return rt.totalMemory() - rt.freeMemory();
    }
}
