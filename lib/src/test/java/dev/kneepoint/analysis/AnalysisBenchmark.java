package dev.kneepoint.analysis;

import dev.kneepoint.metrics.ClientHealth;
import dev.kneepoint.metrics.Outcome;
import dev.kneepoint.metrics.RequestRecord;
import dev.kneepoint.metrics.RunAggregator;
import dev.kneepoint.metrics.RunResult;
import dev.kneepoint.metrics.Slo;
import dev.kneepoint.metrics.StepInfo;
import dev.kneepoint.metrics.StepWindow;
import dev.kneepoint.metrics.TokenSource;
import dev.kneepoint.plot.ChartFiles;
import dev.kneepoint.plot.Plots;
import java.time.Duration;
import java.time.Instant;
import java.util.Iterator;
import java.util.Locale;
import java.util.SplittableRandom;
import tech.tablesaw.api.Table;

/**
 * The in-memory analysis benchmark of bench/reference/performance-history.md ("In memory, without parsing"): synthesizes a 1,000,000-request closed-loop
 * ladder (10 steps x 100,000 requests, 16 token-carrying events each) as a lazy stream (no record is kept),
 * then times: one streaming pass building the per-request table and the step results; the step summary
 * table; the four main plots (knee, percentiles vs load, TTFT CDF, time series incl. its streaming pass)
 * rendered to PNG; and measures the heap the per-request table holds per request.
 *
 * <p>Run: {@code java -Xmx2g -cp lib/target/classes:lib/target/test-classes:$(cat cp.txt)
 * dev.kneepoint.analysis.AnalysisBenchmark [requests]} (figures in the same file).
 */
public final class AnalysisBenchmark {
    static final int STEPS = 10;
    static final int CHUNKS = 16;
    static final long STEP_NANOS = 60_000_000_000L;

    private AnalysisBenchmark() {}

    /** A re-iterable, lazily generated stream of {@code n} records, deterministic for a seed. */
    static Iterable<RequestRecord> records(int n) {
        int[] bounds = bounds(n);
        return () -> new Iterator<>() {
            int i;
            int step;

            @Override
            public boolean hasNext() {
                return i < n;
            }

            @Override
            public RequestRecord next() {
                while (i >= bounds[step + 1]) {
                    step++;
                }
                return record(i, i++ - bounds[step], bounds[step + 1] - bounds[step], step);
            }
        };
    }

    /** Requests per step proportional to a saturating throughput c / (1 + c/32): first index of each step. */
    static int[] bounds(int n) {
        double[] w = new double[STEPS];
        double sum = 0;
        for (int s = 0; s < STEPS; s++) {
            w[s] = (1 << s) / (1 + (1 << s) / 32.0);
            sum += w[s];
        }
        int[] b = new int[STEPS + 1];
        double acc = 0;
        for (int s = 0; s < STEPS; s++) {
            acc += w[s];
            b[s + 1] = s == STEPS - 1 ? n : (int) Math.round(n * acc / sum);
        }
        return b;
    }

    static RequestRecord record(int i, int j, int perStep, int step) {
        SplittableRandom rnd = new SplittableRandom(i * 0x9E3779B97F4A7C15L);
        int c = 1 << step;
        double overload = Math.max(1, c / 32.0);                    // knee near c=32
        RequestRecord.Builder b = new RequestRecord.Builder();
        b.id = i;
        b.step = "c=" + c;
        b.intendedNanos = step * (STEP_NANOS + 10_000_000_000L) + (long) (j * (double) STEP_NANOS / perStep);
        b.dispatchNanos = b.intendedNanos + (long) (rnd.nextDouble() * 300_000);
        b.firstByteNanos = b.dispatchNanos + 5_000_000;
        long ttft = (long) (40e6 * overload * Math.exp(0.4 * gaussian(rnd)));
        long itl = (long) (8e6 * (1 + c / 64.0) * Math.exp(0.2 * gaussian(rnd)));
        b.promptTokens = 128 << rnd.nextInt(4);
        b.requestedOutputTokens = 16 * CHUNKS;
        if (step >= 8 && rnd.nextInt(100) == 0) {
            b.outcome = new Outcome.Timeout(Outcome.TimeoutKind.IDLE);
            b.endNanos = b.dispatchNanos + 30_000_000_000L;
            return b.build();
        }
        long[] t = new long[CHUNKS];
        int[] k = new int[CHUNKS];
        t[0] = b.dispatchNanos + ttft;
        k[0] = 16;
        for (int q = 1; q < CHUNKS; q++) {
            t[q] = t[q - 1] + 16 * itl;
            k[q] = 16;
        }
        b.chunkNanos = t;
        b.chunkTokens = k;
        b.firstTokenNanos = t[0];
        b.lastTokenNanos = t[CHUNKS - 1];
        b.endNanos = b.lastTokenNanos + 200_000;
        b.outputTokens = 16 * CHUNKS;
        b.tokenSource = TokenSource.SERVER_USAGE;
        b.finishReason = "length";
        return b.build();
    }

    private static double gaussian(SplittableRandom r) {
        return Math.sqrt(-2 * Math.log(1 - r.nextDouble())) * Math.cos(2 * Math.PI * r.nextDouble());
    }

    static StepInfo info(int step) {
        return new StepInfo(step, "c=" + (1 << step), StepInfo.CLOSED, 1 << step, Double.NaN, "", -1, "", 0,
                STEP_NANOS, -1);
    }

    /** One pass: the records feed the step aggregators as the request table consumes them. */
    static Object[] load(int n) {
        RunAggregator agg = new RunAggregator(Slo.builder().ttftMs(500).build());
        for (int s = 0; s < STEPS; s++) {
            agg.stepStarted(info(s), s * (STEP_NANOS + 10_000_000_000L), null);
        }
        Iterable<RequestRecord> source = records(n);
        Iterable<RequestRecord> teed = () -> {
            Iterator<RequestRecord> it = source.iterator();
            return new Iterator<>() {
                public boolean hasNext() { return it.hasNext(); }
                public RequestRecord next() {
                    RequestRecord r = it.next();
                    agg.requestFinished(r);
                    return r;
                }
            };
        };
        Table requests = Tables.requests(teed);
        for (int s = 0; s < STEPS; s++) {
            long start = s * (STEP_NANOS + 10_000_000_000L);
            agg.stepFinished(info(s), new StepWindow(start, start, start + STEP_NANOS + 5_000_000_000L, true), ClientHealth.NOT_MEASURED);
        }
        return new Object[] {requests, agg.result("bench", true, Instant.EPOCH, "synthetic 1M")};
    }

    static long usedHeap() {
        Runtime rt = Runtime.getRuntime();
        for (int i = 0; i < 4; i++) {
            System.gc();
            try {
                Thread.sleep(100);
            } catch (InterruptedException e) {
                Thread.currentThread().interrupt();
            }
        }
        return rt.totalMemory() - rt.freeMemory();
    }

    public static void main(String[] args) {
        int n = args.length > 0 ? Integer.parseInt(args[0]) : 1_000_000;
        for (int round = 1; round <= 2; round++) {
            long g0 = System.nanoTime();
            long tokens = 0;
            for (RequestRecord r : records(n)) {
                tokens += r.tokens().outputTokens();
            }
            double generateS = (System.nanoTime() - g0) / 1e9;
            long before = usedHeap();
            long t0 = System.nanoTime();
            Object[] loaded = load(n);
            long t1 = System.nanoTime();
            Table requests = (Table) loaded[0];
            RunResult run = (RunResult) loaded[1];
            Table steps = Tables.steps(run);
            long t2 = System.nanoTime();
            long pngBytes = ChartFiles.png(Plots.knee(run)).length;
            pngBytes += ChartFiles.png(Plots.percentilesVsLoad(run)).length;
            pngBytes += ChartFiles.png(Plots.cdf(run, LatencyMetric.TTFT)).length;
            long t3 = System.nanoTime();
            Table ts = Tables.timeSeries(records(n), Duration.ofSeconds(1));
            pngBytes += ChartFiles.png(Plots.timeSeries(ts)).length;
            long t4 = System.nanoTime();
            long after = usedHeap();
            double perRequest = (after - before) / (double) requests.rowCount();
            System.out.printf(Locale.ROOT, "round %d: %d requests, %d steps, %d intervals; load+table %.2f s, "
                            + "summary table %.3f s, 3 run plots %.2f s, time series pass+plot %.2f s, total %.2f s; "
                            + "heap held %.0f bytes/request; png %d bytes; knee %s; (generating the records alone: %.2f s, %d tokens)%n",
                    round, requests.rowCount(), steps.rowCount(), ts.rowCount(), (t1 - t0) / 1e9, (t2 - t1) / 1e9,
                    (t3 - t2) / 1e9, (t4 - t3) / 1e9, (t4 - t0) / 1e9, perRequest, pngBytes,
                    Knee.analyze(run).kneeStep(), generateS, tokens);
            loaded = null;
            requests = null;
        }
    }
}
