package dev.kneepoint.analysis;

import dev.kneepoint.metrics.RunResult;
import dev.kneepoint.metrics.StepResult;
import java.util.ArrayList;
import java.util.List;
import java.util.Locale;
import java.util.function.Function;

/**
 * Formats a run's steps as a fixed-width text table: one row per step, the columns an engineer
 * reads first. Deterministic ({@link Locale#ROOT}); NaN prints as {@code -}. When some step's OK requests
 * carried reasoning tokens, four columns follow: {@code reason_tok} (per OK request), {@code reason%}
 * (share of the output tokens), {@code ttfat_p50} and {@code ttfat_p99} (time to the first answer token); without
 * reasoning the table is unchanged. Notes follow the table, per step: nothing measured, client-bound, requests resent
 * on a fresh connection after a stale kept-alive one (only when some were: {@link StepResult.Counts#retried()}),
 * failures by class, cancellations. Every outcome is counted in a column: {@code ok}, {@code fail} (every failure,
 * {@code UNFINISHED} and {@code DROPPED} included) and {@code cancel} (stopped by the user: neutral, never hidden).
 */
public final class SummaryText {
    private record Column(String header, Function<StepResult, String> value) {}

    private static final List<Column> COLUMNS = List.of(
            new Column("step", s -> s.info().label()),
            new Column("ok", s -> Long.toString(s.counts().requestsOk())),
            new Column("fail", s -> Long.toString(s.counts().requestsFailed())),
            new Column("cancel", s -> Long.toString(s.counts().cancelled())),
            new Column("conc", s -> num(s.rates().concurrencyMean(), 1)),
            new Column("req/s", s -> num(s.rates().requestsPerS(), 2)),
            new Column("out_tok/s", s -> num(s.rates().outputTokensPerS(), 0)),
            new Column("user_tok/s", s -> num(Tables.userTokensPerS(s), 1)),
            new Column("ttft_p50", s -> num(s.latency().ttft().p50(), 1)),
            new Column("ttft_p99", s -> num(s.latency().ttft().p99(), 1)),
            new Column("ttft_sched_p99", s -> num(s.latency().ttftSched().p99(), 1)),
            new Column("itl_p50", s -> num(s.latency().itl().p50(), 2)),
            new Column("itl_p99", s -> num(s.latency().itl().p99(), 2)),
            new Column("tpot_p50", s -> num(s.latency().tpot().p50(), 2)),
            new Column("e2e_p99", s -> num(s.latency().e2e().p99(), 0)),
            new Column("lag_p99", s -> num(s.latency().scheduleLag().p99(), 2)),
            new Column("goodput", s -> num(s.rates().goodputRps(), 2)));

    /**
     * Shown only when some step carried reasoning tokens: reasoning tokens per OK request, their share, and the time
     * to the first answer token.
     */
    private static final List<Column> REASONING = List.of(
            new Column("reason_tok", s -> num(s.tokens().meanReasoningTokens(), 1)),
            new Column("reason%", s -> num(100 * Tables.reasoningShare(s), 1)),
            new Column("ttfat_p50", s -> num(s.latency().ttfat().p50(), 1)),
            new Column("ttfat_p99", s -> num(s.latency().ttfat().p99(), 1)));

    /**
     * The table of a run of pooling requests (embeddings, rerank, score): items/s and items per request instead of the
     * token columns (no output tokens: no ITL, TPOT or per-user rate), TTFT equal to E2E (a whole answer) left out.
     */
    private static final List<Column> POOLING = List.of(COLUMNS.get(0), COLUMNS.get(1), COLUMNS.get(2),
            COLUMNS.get(3), COLUMNS.get(4), COLUMNS.get(5),
            new Column("items/s", s -> num(s.rates().itemsPerS(), 1)),
            new Column("items/req", s -> num(s.rates().itemsPerS() / s.rates().requestsPerS(), 1)),
            new Column("in_tok/s", s -> num(s.rates().inputTokensPerS(), 0)),
            new Column("e2e_p50", s -> num(s.latency().e2e().p50(), 1)),
            new Column("e2e_p99", s -> num(s.latency().e2e().p99(), 1)),
            new Column("e2e_sched_p99", s -> num(s.latency().e2eSched().p99(), 1)),
            new Column("lag_p99", s -> num(s.latency().scheduleLag().p99(), 2)),
            new Column("goodput", s -> num(s.rates().goodputRps(), 2)));

    /** Shown only when some step's server said how many prompt tokens its prefix cache held. */
    private static final Column CACHED = new Column("cached%", s -> num(100 * s.tokens().cachedShare(), 1));

    private SummaryText() {}

    /** The table for all steps of a run, with a header line naming the run and the units. */
    public static String format(RunResult run) {
        StringBuilder sb = new StringBuilder();
        sb.append("run ").append(run.runId()).append(run.complete() ? "" : " (INCOMPLETE)")
                .append(" against ").append(run.target()).append('\n');
        sb.append(format(run.steps()));
        sb.append(Tables.pooling(run.steps()) ? "latencies in ms (a pooling answer arrives whole: its TTFT is its E2E);"
                + " items/s = vectors or scores returned in the window; items/req = their mean per request; e2e_sched"
                + " includes client-side wait (open loop)\n"
                : "latencies in ms; out_tok/s = system output token throughput in the window; user_tok/s = one user's"
                + " decode rate (1000 / TPOT p50); ttft_sched includes client-side wait (open loop)\n");
        if (Tables.hasReasoning(run.steps())) {
            sb.append("reason_tok = reasoning tokens per OK request; reason% = their share of the output tokens"
                    + " (part of out_tok/s, itl and tpot); ttfat = time to the first answer token (ttft counts"
                    + " reasoning)\n");
        }
        if (Tables.cacheReported(run.steps())) {
            sb.append("cached% = share of the OK requests' prompt tokens the server's prefix cache held, as its usage"
                    + " said (prompt_tokens_details.cached_tokens)\n");
        }
        return sb.toString();
    }

    /** The table for the given steps. */
    public static String format(List<StepResult> steps) {
        List<Column> columns = new ArrayList<>(Tables.pooling(steps) ? POOLING : COLUMNS);
        if (Tables.hasReasoning(steps)) {
            columns.addAll(REASONING);
        }
        if (Tables.cacheReported(steps)) {
            columns.add(CACHED);
        }
        List<String[]> rows = new ArrayList<>();
        rows.add(columns.stream().map(Column::header).toArray(String[]::new));
        for (StepResult s : steps) {
            rows.add(columns.stream().map(c -> c.value().apply(s)).toArray(String[]::new));
        }
        StringBuilder sb = new StringBuilder(TextColumns.of(rows));
        for (StepResult s : steps) {
            StepResult.Counts c = s.counts();
            if (c.requestsOk() + c.requestsFailed() == 0 && c.warmupRequests() > 0) {
                sb.append("note: step ").append(s.info().label()).append(" measured no request (all ")
                        .append(c.warmupRequests()).append(" were sent during warm-up); latency needs a step longer"
                                + " than one request's latency\n");
            }
            if (s.clientBound()) {
                sb.append("client-bound: the load generator limited step ").append(s.info().label()).append(" (")
                        .append(s.clientCheck().evidenceText()).append("); its numbers understate the server\n");
            }
            if (c.retried() > 0) {
                sb.append(c.retried()).append(c.retried() == 1 ? " request" : " requests").append(" in ")
                        .append(s.info().label()).append(c.retried() == 1 ? " was" : " were")
                        .append(" resent on a fresh connection (stale keep-alive: the server had closed the connection;"
                                + " latency counts from the first attempt)\n");
            }
            if (!c.failuresByClass().isEmpty()) {
                sb.append("failures in ").append(s.info().label()).append(": ").append(c.failuresByClass()).append('\n');
            }
            if (c.cancelled() > 0) {
                sb.append(c.cancelled()).append(c.cancelled() == 1 ? " request" : " requests").append(" in ")
                        .append(s.info().label()).append(c.cancelled() == 1 ? " was" : " were")
                        .append(" cancelled before they ended (a stop, or never sent when the step ended):"
                                + " neither OK nor failed\n");
            }
            if (c.abandoned() > 0) {
                sb.append(c.abandoned()).append(c.abandoned() == 1 ? " request" : " requests").append(" in ")
                        .append(s.info().label()).append(c.abandoned() == 1 ? " was" : " were")
                        .append(" abandoned by the workload mid-request (a user giving up): neither OK nor failed,"
                                + " outside the latency figures\n");
            }
            if (c.outputInvalid() > 0) {
                sb.append(c.outputInvalid()).append(" of ").append(c.requestsOk()).append(" answers in ")
                        .append(s.info().label()).append(" were not the JSON asked for (structured output; a "
                                + "max_tokens cut ends mid-JSON, as every answer does with ignore_eos): served and "
                                + "counted, but not usable\n");
            }
        }
        return sb.toString();
    }

    static String num(double v, int decimals) {
        return Double.isNaN(v) ? "-" : String.format(Locale.ROOT, "%." + decimals + "f", v);
    }
}
