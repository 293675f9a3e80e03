package dev.kneepoint;

import dev.kneepoint.analysis.KneeReport;
import dev.kneepoint.analysis.Tables;
import dev.kneepoint.metrics.Outcome;
import dev.kneepoint.metrics.RequestRecord;
import dev.kneepoint.metrics.RunResult;
import dev.kneepoint.metrics.StepWindow;
import dev.kneepoint.scenario.DriftOptions;
import dev.kneepoint.scenario.DriftReport;
import dev.kneepoint.scenario.SoakDrift;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.Locale;
import tech.tablesaw.api.DoubleColumn;
import tech.tablesaw.api.Table;

/** What {@link SoakTest} computes from a soak's records, and its report. */
final class SoakFigures {
    private SoakFigures() {}

    /**
     * The drift test's metrics: the product's defaults (output tokens/s, TTFT p50/p99, ITL p50/p99) plus OK
     * requests/s and e2e latency p50/p99, which {@link Tables#timeSeries} does not have and {@link #drift} adds.
     * Throughput and medians are tested with {@link SoakDrift}'s default threshold, the tails with a wider one
     * (see {@link #drift}).
     */
    static final List<String> CENTRE = List.of("output_tokens_per_s", "requests_per_s", "ttft_p50_ms", "itl_p50_ms",
            "e2e_p50_ms");
    static final List<String> TAILS = List.of("ttft_p99_ms", "itl_p99_ms", "e2e_p99_ms");
    static final List<String> DRIFT_METRICS = java.util.stream.Stream.concat(CENTRE.stream(), TAILS.stream()).toList();

    /**
     * About 30 intervals whatever the length (10 early, 10 late: the same power at 3 and 30 minutes), at least 1 s
     * each; 6 s at the CI length, hundreds of requests and ~100 request lifetimes each, so neighbouring intervals
     * are nearly independent (SoakDrift's caveat).
     */
    static Duration driftInterval(long soakS) {
        return Duration.ofMillis(Math.max(1_000, soakS * 1000 / 30));
    }

    /**
     * The product's drift test ({@link SoakDrift}) over the intervals wholly inside the soak's window, the same
     * selection as {@link SoakDrift#analyze(Iterable, StepWindow, Duration, DriftOptions)}, with e2e columns added
     * (OK requests by end time, exact percentiles). A metric is flagged when its two-sided p < 0.01 (the default)
     * and its shift is at least a threshold share of the early median, both needed, so a shift that is significant
     * but small is reported, not failed.
     *
     * <p>Thresholds. Throughput and medians: the default 10 %. Measured on the 2-core box at 64 users, they moved
     * by at most 1.8 % (throughput 0.1 %), p >= 0.06, in three runs (30 s and twice 180 s); a client that slows
     * as it accumulates state moves the median of every request, so 10 % still catches it. Tails (p99): 30 %. On a
     * shared box a neighbour's burst lifts single intervals' p99 two to four times (TTFT p99 11 -> 44 ms in one
     * 6 s interval), and in two consecutive 180 s runs with nothing changed TTFT p99 shifted by -11.0 % (p =
     * 0.0035: flagged at 10 %) and +9.9 %, ITL p99 by -8.7 % (p = 0.0079) and +7.9 %: machine noise reaches the
     * default threshold with significance, so the tails get about three times the largest noise seen. A tail that
     * grows by a third between the first and last third of the run still fails.
     */
    static Drift drift(List<RequestRecord> records, StepWindow window, Duration interval) {
        Table ts = Tables.timeSeries(records, interval);
        long step = interval.toNanos();
        List<List<Long>> e2e = new ArrayList<>();
        for (int i = 0; i < ts.rowCount(); i++) {
            e2e.add(new ArrayList<>());
        }
        for (RequestRecord r : records) {
            int bin = (int) (r.timing().endNanos() / step);
            if (r.isOk() && bin < e2e.size()) {
                e2e.get(bin).add(r.timing().endNanos() - r.timing().dispatchNanos());
            }
        }
        ts.addColumns(DoubleColumn.create("e2e_p50_ms", e2e.stream().mapToDouble(v -> pct(v, 0.5))),
                DoubleColumn.create("e2e_p99_ms", e2e.stream().mapToDouble(v -> pct(v, 0.99))));
        double from = window.startNanos() / 1e9 - 1e-9;
        double to = window.endNanos() / 1e9 + 1e-9;
        Table inside = ts.where(ts.doubleColumn("t_start_s").isGreaterThanOrEqualTo(from)
                .and(ts.doubleColumn("t_end_s").isLessThanOrEqualTo(to)));
        return new Drift(inside, SoakDrift.analyze(inside, DriftOptions.builder()
                .metrics(CENTRE.toArray(String[]::new)).build()), SoakDrift.analyze(inside, DriftOptions.builder()
                .metrics(TAILS.toArray(String[]::new)).minRelativeChange(TAIL_CHANGE).build()));
    }

    /** Smallest relative shift of a p99 that counts as drift (see {@link #drift}). */
    static final double TAIL_CHANGE = 0.30;

    /** The per-interval series the drift test read, and its verdicts: throughput and medians, tails. */
    record Drift(Table series, DriftReport centre, DriftReport tails) {
        List<DriftReport> reports() {
            return List.of(centre, tails);
        }
    }

    private static double pct(List<Long> nanos, double q) {
        return pct(nanos.stream().mapToLong(Long::longValue).toArray(), q);
    }

    static double pct(long[] v, double q) {
        Arrays.sort(v);
        return v.length == 0 ? Double.NaN : v[(int) Math.min(v.length - 1, Math.floor(q * v.length))] / 1e6;
    }

    /** One half of the run: OK requests, their rate, TTFT and e2e medians, e2e p99. */
    record Half(int n, double perS, double ttftP50Ms, double e2eP50Ms, double e2eP99Ms) {
        static Half of(List<RequestRecord> rs, double seconds) {
            List<RequestRecord> ok = rs.stream().filter(RequestRecord::isOk).toList();
            long[] e2e = ok.stream().mapToLong(r -> r.timing().endNanos() - r.timing().dispatchNanos()).toArray();
            return new Half(ok.size(), ok.size() / seconds,
                    pct(ok.stream().mapToLong(r -> r.timing().firstTokenNanos() - r.timing().dispatchNanos())
                            .toArray(), 0.5), pct(e2e, 0.5), pct(e2e, 0.99));
        }
    }

    /** The halves of the run after its first sixth (ramp-up and warm-up), by completion time. */
    record Halves(Half first, Half second) {
        static Halves of(List<RequestRecord> records) {
            long first0 = records.stream().mapToLong(r -> r.timing().dispatchNanos()).min().orElseThrow();
            long end = records.stream().mapToLong(r -> r.timing().endNanos()).max().orElseThrow();
            long start = first0 + (end - first0) / 6;
            long mid = start + (end - start) / 2;
            return new Halves(Half.of(records.stream()
                            .filter(r -> r.timing().endNanos() >= start && r.timing().endNanos() < mid).toList(),
                    (mid - start) / 1e9),
                    Half.of(records.stream().filter(r -> r.timing().endNanos() >= mid).toList(), (end - mid) / 1e9));
        }
    }

    /**
     * The soak's books: requests the simulator received and served during it, and the records' outcomes.
     *
     * @param failedExamples the first few failed records' outcomes, for the assertion's message
     */
    record Accounting(int records, long received, long served, long ok, long cancelled, long failed, long uniqueIds,
                      List<String> failedExamples) {
        static Accounting of(List<RequestRecord> records, long received, long served) {
            return new Accounting(records.size(), received, served, records.stream().filter(RequestRecord::isOk).count(),
                    records.stream().filter(r -> r.outcome() instanceof Outcome.Cancelled).count(),
                    records.stream().filter(SoakTest::failed).count(),
                    records.stream().mapToLong(RequestRecord::id).distinct().count(),
                    records.stream().filter(SoakTest::failed).limit(5).map(r -> r.outcome().label()).toList());
        }
    }

    static void report(long soakS, RunResult ladder, KneeReport knee, int users, Resources before,
                       List<SoakTest.Sample> samples, Halves halves, double heapA, double heapB, Drift drift,
                       Accounting books) throws Exception {
        StringBuilder s = new StringBuilder();
        s.append(String.format(Locale.ROOT, "soak %d s (+%d s warm-up) at %d users, fast simulator in-process; cores %d%n",
                soakS, SoakTest.WARMUP.toSeconds(), users, Runtime.getRuntime().availableProcessors()));
        s.append(String.format(Locale.ROOT, "ladder %s, %d s a step (+1 s warm-up), run %s:%n",
                Arrays.toString(SoakTest.LADDER), SoakTest.LADDER_STEP.toSeconds(), ladder.runId()));
        Table steps = knee.steps();
        for (int i = 0; i < steps.rowCount(); i++) {
            s.append(String.format(Locale.ROOT, "  %-6s %s %9.1f  %s %8.2f  %s%s%n", steps.stringColumn("step").get(i),
                    knee.throughputColumn(), steps.numberColumn(knee.throughputColumn()).getDouble(i), knee.latencyColumn(),
                    steps.numberColumn(knee.latencyColumn()).getDouble(i), steps.stringColumn("role").get(i),
                    steps.booleanColumn("client_bound").get(i) ? ", client-bound" : ""));
        }
        s.append("knee: ").append(knee.kneeStep()).append(", recommended: ").append(knee.recommendedStep())
                .append("; soaked at the knee, ").append(users).append(" users\n");
        s.append(String.format(Locale.ROOT, "before: threads %d, fds %d, sockets %d%n", before.allThreads(), before.fds(),
                before.sockets()));
        for (SoakTest.Sample x : samples) {
            s.append(String.format(Locale.ROOT, "t=%7.1f s heap %7.2f MB threads %4d fds %4d sockets %4d served %d%n",
                    x.atS(), x.heapBytes() / 1e6, x.threads(), x.fds(), x.sockets(), x.served()));
        }
        s.append(String.format(Locale.ROOT, "heap after GC: 1st half %.2f MB, 2nd half %.2f MB%n", heapA, heapB));
        for (Half h : List.of(halves.first(), halves.second())) {
            s.append(String.format(Locale.ROOT, "half: %d OK, %.1f req/s, ttft p50 %.2f ms, e2e p50 %.2f ms, p99 %.2f ms%n",
                    h.n(), h.perS(), h.ttftP50Ms(), h.e2eP50Ms(), h.e2eP99Ms()));
        }
        s.append(String.format(Locale.ROOT, "records %d (unique ids %d): OK %d, cancelled %d, failed %d; "
                        + "simulator received %d, served %d%n", books.records(), books.uniqueIds(), books.ok(),
                books.cancelled(), books.failed(), books.received(), books.served()));
        s.append("per interval (t from run start, s): ").append(String.join(" ", DRIFT_METRICS)).append('\n');
        Table ts = drift.series();
        for (int i = 0; i < ts.rowCount(); i++) {
            s.append(String.format(Locale.ROOT, "  %7.1f", ts.doubleColumn("t_start_s").getDouble(i)));
            for (String m : DRIFT_METRICS) {
                s.append(String.format(Locale.ROOT, " %9.2f", ts.numberColumn(m).getDouble(i)));
            }
            s.append('\n');
        }
        s.append("throughput and medians: ").append(drift.centre().text());
        s.append("tails: ").append(drift.tails().text());
        Path out = Path.of("target", "soak-report.txt");
        Files.createDirectories(out.getParent());
        Files.writeString(out, s);
    }
}
