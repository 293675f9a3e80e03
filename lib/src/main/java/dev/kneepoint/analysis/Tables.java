package dev.kneepoint.analysis;

import dev.kneepoint.metrics.ClientCheck;
import dev.kneepoint.metrics.Distribution;
import dev.kneepoint.metrics.RequestRecord;
import dev.kneepoint.metrics.RunResult;
import dev.kneepoint.metrics.StepFigures;
import dev.kneepoint.metrics.StepResult;
import java.time.Duration;
import java.util.List;
import java.util.Map;
import java.util.Objects;
import java.util.TreeMap;
import java.util.stream.Collectors;
import tech.tablesaw.api.BooleanColumn;
import tech.tablesaw.api.DoubleColumn;
import tech.tablesaw.api.IntColumn;
import tech.tablesaw.api.LongColumn;
import tech.tablesaw.api.NumericColumn;
import tech.tablesaw.api.StringColumn;
import tech.tablesaw.api.Table;

/**
 * The result tables of a run, as Tablesaw {@link Table}s whose column names carry their units
 * ({@code ttft_ms}, {@code output_tokens_per_s}). Every method returns a new table; none keeps a
 * reference to its input. Query helpers live in {@link Query}.
 */
public final class Tables {
    private Tables() {}

    /**
     * One row per request (warm-up and failures included, flagged), in the order given. Missing values
     * (no first token, a dropped request's dispatch) are NaN / Tablesaw's missing int.
     *
     * <p>Columns: {@code id, step, tag, outcome, token_source, warmup, retried} (resent on a fresh connection after a
     * stale kept-alive one, {@link RequestRecord.Response#retried()}), {@code intended_s, dispatch_s, end_s}
     * (seconds on the run clock), {@code schedule_lag_ms, ttft_ms, ttft_sched_ms, tpot_ms, e2e_ms,
     * e2e_sched_ms, chunk_gap_max_ms, user_tokens_per_s, prompt_tokens, output_tokens,
     * requested_output_tokens, chunks}.
     *
     * <p>Built in one streaming pass into primitive columns (about 120 bytes per request), so
     * {@code records} may be a lazily read file of millions of records.
     */
    public static Table requests(Iterable<RequestRecord> records) {
        return RequestColumns.of(Objects.requireNonNull(records, "records"));
    }

    /**
     * Reads a run directory in one streaming pass into its per-request table, time series and re-aggregated
     * run, keeping no records: see {@link RunTables}.
     */
    public static RunTables load(java.nio.file.Path runDirectory) {
        return RunTables.load(runDirectory);
    }

    /**
     * One row per step with every step metric of METRICS.md: load, window, counts, failure classes,
     * windowed rates ({@code output_tokens_per_s}, the system's, then {@code user_tokens_per_s_p50}, one user's decode
     * rate, {@link #userTokensPerS}), goodput, {@code retried} (requests resent on a fresh connection after a stale kept-alive one,
     * {@link StepResult.Counts#retried()}; after {@code count_discrepancy}), and for each distribution {@code <name>_count, _mean_ms, _stddev_ms,
     * _min_ms, _p50_ms, _p90_ms, _p95_ms, _p99_ms, _p99.9_ms, _max_ms}; then the client self-check:
     * {@code client_bound, client_evidence, client_cpu_pct, gc_pause_ms, gc_pause_pct, probe_delay_p99_ms,
     * schedule_lag_limit_ms} (NaN where the client's health was not measured; {@code schedule_lag_p99_ms} is among
     * the distributions). When some step carried reasoning tokens (and only then): {@code reasoning_tokens,
     * mean_reasoning_tokens, reasoning_share, ttfat_count, ttfat_p50_ms, ttfat_p99_ms, answer_delay_p50_ms} last. A run of
     * pooling requests has {@code items_per_s} after {@code concurrency_mean}.
     */
    public static Table steps(RunResult run) {
        Table t = Table.create("steps");
        var steps = run.steps();
        int n = steps.size();
        t.addColumns(IntColumn.create("step_index", steps.stream().mapToInt(s -> s.info().index()).toArray()),
                StringColumn.create("step", steps.stream().map(s -> s.info().label())),
                StringColumn.create("mode", steps.stream().map(s -> s.info().mode())),
                DoubleColumn.create("load", steps.stream().mapToDouble(s -> s.info().load())),
                IntColumn.create("concurrency", steps.stream().mapToInt(s -> s.info().concurrency()).toArray()),
                DoubleColumn.create("rate_rps", steps.stream().mapToDouble(s -> s.info().rateRps())),
                DoubleColumn.create("window_s", steps.stream().mapToDouble(StepResult::windowS)),
                BooleanColumn.create("completed", steps.stream().map(s -> s.window().completed())));
        addCounts(t, steps, StepFigures.OUTCOMES);
        if (steps.stream().anyMatch(s -> s.counts().abandoned() > 0)) {
            addCounts(t, steps, List.of(StepFigures.ABANDONED));
        }
        if (steps.stream().anyMatch(s -> s.counts().outputInvalid() > 0)) {
            addCounts(t, steps, List.of(StepFigures.OUTPUT_INVALID));
        }
        t.addColumns(DoubleColumn.create("failure_rate", steps.stream().mapToDouble(s -> s.rates().failureRate())),
                StringColumn.create("failures_by_class", steps.stream().map(s -> joined(s.counts().failuresByClass()))),
                DoubleColumn.create("output_tokens_per_s",
                        steps.stream().mapToDouble(s -> s.rates().outputTokensPerS())),
                DoubleColumn.create("user_tokens_per_s_p50", steps.stream().mapToDouble(Tables::userTokensPerS)),
                DoubleColumn.create("input_tokens_per_s", steps.stream().mapToDouble(s -> s.rates().inputTokensPerS())),
                DoubleColumn.create("requests_per_s", steps.stream().mapToDouble(s -> s.rates().requestsPerS())),
                DoubleColumn.create("goodput_rps", steps.stream().mapToDouble(s -> s.rates().goodputRps())),
                DoubleColumn.create("good_fraction", steps.stream().mapToDouble(s -> s.rates().goodFraction())),
                DoubleColumn.create("concurrency_mean", steps.stream().mapToDouble(s -> s.rates().concurrencyMean())));
        if (steps.stream().anyMatch(s -> s.rates().itemsPerS() > 0)) { // pooling steps: embeddings, rerank, score
            t.addColumns(DoubleColumn.create("items_per_s", steps.stream().mapToDouble(s -> s.rates().itemsPerS())));
        }
        addCounts(t, steps, StepFigures.DISCREPANCIES);
        t.addColumns(StringColumn.create("token_sources", steps.stream().map(s -> joined(s.counts().tokenSources()))),
                StringColumn.create("slo", steps.stream().map(s -> s.slo().toString())));
        for (LatencyMetric m : LatencyMetric.values()) {
            String b = m.baseName();
            t.addColumns(LongColumn.create(b + "_count", steps.stream().mapToLong(s -> m.of(s).count())));
            addStat(t, b + "_mean_ms", run, m, Distribution::mean);
            addStat(t, b + "_stddev_ms", run, m, Distribution::stddev);
            addStat(t, b + "_min_ms", run, m, Distribution::min);
            addStat(t, b + "_p50_ms", run, m, Distribution::p50);
            addStat(t, b + "_p90_ms", run, m, Distribution::p90);
            addStat(t, b + "_p95_ms", run, m, Distribution::p95);
            addStat(t, b + "_p99_ms", run, m, Distribution::p99);
            addStat(t, b + "_p99.9_ms", run, m, Distribution::p999);
            addStat(t, b + "_max_ms", run, m, Distribution::max);
        }
        addClientColumns(t, run);
        addReasoningColumns(t, run);
        addCacheColumns(t, run);
        assert t.rowCount() == n;
        return t;
    }

    /**
     * Reasoning columns, last, and only when some step's OK requests carried reasoning tokens (so runs without
     * reasoning keep their table): {@code reasoning_tokens} (sum over the step's OK requests),
     * {@code mean_reasoning_tokens} (per OK request), {@code reasoning_share} (reasoning tokens / output tokens of
     * the OK requests, 0..1; NaN without output), and the time to the first answer token (METRICS.md {@code ttfat}):
     * {@code ttfat_count, ttfat_p50_ms, ttfat_p99_ms} and {@code answer_delay_p50_ms} = ttfat p50 − ttft p50 (the
     * reasoning phase a user waits through before the answer starts; NaN where the step measured no ttfat).
     */
    private static void addReasoningColumns(Table t, RunResult run) {
        var steps = run.steps();
        if (!hasReasoning(steps)) {
            return;
        }
        t.addColumns(LongColumn.create("reasoning_tokens", steps.stream().mapToLong(s -> s.tokens().reasoningTokens())),
                DoubleColumn.create("mean_reasoning_tokens",
                        steps.stream().mapToDouble(s -> s.tokens().meanReasoningTokens())),
                DoubleColumn.create("reasoning_share", steps.stream().mapToDouble(Tables::reasoningShare)),
                LongColumn.create("ttfat_count", steps.stream().mapToLong(s -> s.latency().ttfat().count())),
                DoubleColumn.create("ttfat_p50_ms", steps.stream().mapToDouble(s -> s.latency().ttfat().p50())),
                DoubleColumn.create("ttfat_p99_ms", steps.stream().mapToDouble(s -> s.latency().ttfat().p99())),
                DoubleColumn.create("answer_delay_p50_ms",
                        steps.stream().mapToDouble(s -> s.latency().ttfat().p50() - s.latency().ttft().p50())));
    }

    /**
     * Only when some step's server said how many prompt tokens its prefix cache held
     * ({@code prompt_tokens_details.cached_tokens}): {@code cached_prompt_tokens} and {@code cached_prompt_share} (of
     * the prompt tokens of the OK requests it said it for, 0..1; NaN in a step where it said nothing).
     */
    private static void addCacheColumns(Table t, RunResult run) {
        var steps = run.steps();
        if (!cacheReported(steps)) {
            return;
        }
        t.addColumns(LongColumn.create("cached_prompt_tokens", steps.stream().mapToLong(s -> s.tokens().cachedPromptTokens())),
                DoubleColumn.create("cached_prompt_share", steps.stream().mapToDouble(s -> s.tokens().cachedShare())));
    }

    /** True when some step's server said how many prompt tokens its prefix cache held. */
    static boolean cacheReported(List<StepResult> steps) {
        return steps.stream().anyMatch(s -> s.tokens().cacheReported());
    }

    /**
     * One user's decode rate in the step, {@code 1000 / TPOT p50} tok/s: the median of the requests'
     * {@code user_tokens_per_s} (a per-user rate: the system's is {@code output_tokens_per_s}); NaN without TPOT.
     */
    /**
     * Each step broken down by model (a model mix: {@code Sweep.models}, {@code --model A=W,B=W}): one row per step
     * and model, aggregated as a step is over the step's window ({@link Breakdown}); e.g. {@code
     * Tables.byModel(run.result(), run.records())} of a {@code LoadedRun}.
     */
    public static Table byModel(RunResult run, Iterable<RequestRecord> records) {
        return Breakdown.table(Breakdown.groups(run, records, Breakdown.By.MODEL), Breakdown.By.MODEL);
    }

    /** As {@link #byModel}, by tag: each traffic class of a mix, or the background stream apart. */
    public static Table byTag(RunResult run, Iterable<RequestRecord> records) {
        return Breakdown.table(Breakdown.groups(run, records, Breakdown.By.TAG), Breakdown.By.TAG);
    }

    public static double userTokensPerS(StepResult s) {
        double tpot = s.latency().tpot().p50();
        return Double.isNaN(tpot) || tpot <= 0 ? Double.NaN : 1000 / tpot;
    }

    /** True when some step's OK requests carried reasoning tokens. */
    /**
     * True for the steps of a run of pooling requests (embeddings, rerank, score): items returned and no output token
     * anywhere; their tables and texts speak of items/s instead of tokens.
     */
    static boolean pooling(List<StepResult> steps) {
        return steps.stream().anyMatch(s -> s.rates().itemsPerS() > 0)
                && steps.stream().noneMatch(s -> s.rates().outputTokensPerS() > 0);
    }

    static boolean hasReasoning(List<StepResult> steps) {
        return steps.stream().anyMatch(s -> s.tokens().reasoningTokens() > 0);
    }

    /**
     * Reasoning tokens over output tokens of a step's OK requests (both means are over the same OK requests, so
     * their ratio is the ratio of the sums); NaN when there is no output.
     */
    static double reasoningShare(StepResult s) {
        double out = s.tokens().meanOutputTokens();
        double r = s.tokens().meanReasoningTokens();
        return Double.isNaN(out) || out <= 0 || Double.isNaN(r) ? Double.NaN : r / out;
    }

    /** The client self-check ({@code StepResult.clientCheck()}), after the distributions. */
    private static void addClientColumns(Table t, RunResult run) {
        var steps = run.steps();
        t.addColumns(BooleanColumn.create("client_bound", steps.stream().map(StepResult::clientBound)),
                StringColumn.create("client_evidence", steps.stream().map(s -> s.clientCheck().evidenceText())),
                DoubleColumn.create("client_cpu_pct", steps.stream().mapToDouble(s -> s.clientCheck().value(ClientCheck.CPU))),
                DoubleColumn.create("gc_pause_ms", steps.stream().mapToDouble(s -> s.clientCheck().health().measured()
                        ? s.clientCheck().health().gcPauseNanos() / 1e6 : Double.NaN)),
                DoubleColumn.create("gc_pause_pct", steps.stream().mapToDouble(s -> s.clientCheck().value(ClientCheck.GC))),
                DoubleColumn.create("probe_delay_p99_ms", steps.stream().mapToDouble(s -> s.clientCheck().value(ClientCheck.PROBE))),
                DoubleColumn.create("schedule_lag_limit_ms", steps.stream().mapToDouble(s -> s.clientCheck().signal(ClientCheck.LAG).limit())));
    }

    /**
     * {@link #steps(RunResult)} with telemetry columns for each step's window: see {@link TelemetryTables#joinSteps}.
     */
    public static Table steps(RunResult run, dev.kneepoint.telemetry.TelemetryData telemetry) {
        return TelemetryTables.steps(run, telemetry);
    }

    private static void addCounts(Table t, List<StepResult> steps, List<StepFigures.Count> counts) {
        for (StepFigures.Count c : counts) {
            t.addColumns(LongColumn.create(c.name(), steps.stream().mapToLong(c.value())));
        }
    }

    private static void addStat(Table t, String name, RunResult run, LatencyMetric m,
                                java.util.function.ToDoubleFunction<Distribution> stat) {
        t.addColumns(DoubleColumn.create(name, run.steps().stream().mapToDouble(s -> stat.applyAsDouble(m.of(s)))));
    }

    private static String joined(Map<String, Long> m) {
        return new TreeMap<>(m).entrySet().stream().map(e -> e.getKey() + "=" + e.getValue())
                .collect(Collectors.joining("; "));
    }

    /**
     * Fixed-interval time series over the whole run (warm-up included: it is about time, not step
     * membership). Interval {@code i} covers {@code [i·interval, (i+1)·interval)} on the run clock.
     *
     * <p>Columns: {@code t_start_s, t_end_s, step} (the step that dispatched most requests in the
     * interval), {@code output_tokens_per_s} (token arrivals in the interval), {@code requests_per_s}
     * (OK completions), {@code in_flight_mean} (exact time-average), {@code failures} (non-OK, cancelled
     * excluded, by end time), {@code ttft_p50_ms, ttft_p99_ms, ttft_sched_p99_ms} (OK requests by
     * first-token time), {@code itl_p50_ms, itl_p99_ms} (per-token samples by arrival time).
     * Percentiles here have 2 significant digits (1% resolution); NaN when the interval has none.
     */
    public static Table timeSeries(Iterable<RequestRecord> records, Duration interval) {
        TimeSeriesColumns ts = new TimeSeriesColumns(interval);
        for (RequestRecord r : records) {
            ts.add(r);
        }
        return ts.toTable();
    }

    /**
     * Load levels from result files of other load generators and Kneepoint runs, one row each, in Kneepoint's terms
     * (docs/METRICS.md "Names in other tools"), so a run sits beside one someone made with another tool: any of
     * AIPerf's {@code profile_export_aiperf.json}, GuideLLM's {@code benchmarks.json}, a {@code vllm bench serve}
     * result file, a Kneepoint run directory, or a directory holding one. Columns: {@code tool, mode} ({@code closed}:
     * {@code load} is concurrency; {@code open}: a target rate, req/s), {@code load, requests_ok, requests_failed,
     * output_tokens, duration_s, ttft_p50_ms, ttft_p99_ms, tpot_p50_ms} (AIPerf's and GuideLLM's ITL),
     * {@code output_tokens_per_s, requests_per_s} (as the tool reports them), {@code lag_p50_ms, lag_p99_ms} (the
     * tool's own dispatch lag), {@code dispatch_rps} (from its per-request start times), {@code source}; NaN where a
     * tool does not say.
     *
     * @throws java.io.UncheckedIOException naming the path that is missing or none of those results
     */
    public static Table peers(java.nio.file.Path... results) {
        return PeerTables.of(results);
    }

    /**
     * Histogram of a token-count column of the {@link #requests} table ({@code output_tokens},
     * {@code prompt_tokens}, ...): bins {@code [k·binWidth, (k+1)·binWidth)}, empty bins between the
     * smallest and largest included. Columns: {@code bin_start_tokens, bin_end_tokens, requests, fraction}.
     */
    public static Table lengthHistogram(Table requests, String column, int binWidthTokens) {
        if (binWidthTokens <= 0) {
            throw new IllegalArgumentException("binWidthTokens must be positive, got " + binWidthTokens);
        }
        NumericColumn<?> col = requests.numberColumn(column);
        long min = Long.MAX_VALUE;
        long max = Long.MIN_VALUE;
        int counted = 0;
        for (int i = 0; i < col.size(); i++) {
            if (!col.isMissing(i)) {
                long bin = Math.floorDiv((long) col.getDouble(i), binWidthTokens);
                min = Math.min(min, bin);
                max = Math.max(max, bin);
                counted++;
            }
        }
        int bins = counted == 0 ? 0 : (int) (max - min + 1);
        long[] counts = new long[bins];
        for (int i = 0; i < col.size(); i++) {
            if (!col.isMissing(i)) {
                counts[(int) (Math.floorDiv((long) col.getDouble(i), binWidthTokens) - min)]++;
            }
        }
        LongColumn startCol = LongColumn.create("bin_start_tokens", bins);
        LongColumn endCol = LongColumn.create("bin_end_tokens", bins);
        LongColumn req = LongColumn.create("requests", counts);
        DoubleColumn frac = DoubleColumn.create("fraction", bins);
        for (int b = 0; b < bins; b++) {
            startCol.set(b, (min + b) * binWidthTokens);
            endCol.set(b, (min + b + 1) * binWidthTokens);
            frac.set(b, (double) counts[b] / counted);
        }
        return Table.create(column + "_histogram", startCol, endCol, req, frac);
    }
}
