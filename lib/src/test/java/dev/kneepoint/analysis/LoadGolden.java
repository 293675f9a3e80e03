package dev.kneepoint.analysis;

import dev.kneepoint.io.SyntheticRun;
import dev.kneepoint.metrics.Distribution;
import dev.kneepoint.metrics.RunResult;
import dev.kneepoint.metrics.StepResult;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import tech.tablesaw.api.Table;
import tech.tablesaw.columns.Column;

/**
 * Every number {@link RunTables#load} produces for the {@link SyntheticRun}s, at full precision: each step's
 * result and the background's (all fields, every distribution's statistics and histogram counts), the step
 * and time-series tables cell by cell, and a digest of each request-table column. The golden file was
 * written by the loader before its optimisation (commit d3913de): {@code LoadGolden PARENT OUT}.
 */
public final class LoadGolden {
    private LoadGolden() {}

    public static void main(String[] args) throws Exception {
        SyntheticRun.Dirs dirs = SyntheticRun.write(Path.of(args[0]), 20_000);
        Files.writeString(Path.of(args[1]), dump(dirs));
    }

    static String dump(SyntheticRun.Dirs dirs) {
        StringBuilder sb = new StringBuilder();
        for (Path dir : List.of(dirs.complete(), dirs.crashed())) {
            RunTables t = RunTables.load(dir);
            RunResult run = t.run();
            sb.append("== ").append(dir.getFileName().toString().startsWith("crashed") ? "crashed" : "complete")
                    .append(" complete=").append(run.complete()).append(" truncated=")
                    .append(t.source().truncatedLastLine()).append(" problems=").append(t.problems()).append('\n');
            for (StepResult s : run.steps()) {
                step(sb, "step", s);
            }
            run.background().ifPresent(b -> {
                sb.append("background ").append(b.tag()).append(' ').append(b.rateRps()).append(' ')
                        .append(b.arrival()).append('\n');
                b.steps().forEach(s -> step(sb, "bg-step", s));
                step(sb, "bg-total", b.total());
            });
            cells(sb, Tables.steps(run));
            cells(sb, t.timeSeries());
            sb.append("interval ").append(t.interval()).append('\n');
            Table r = t.requests();
            sb.append("requests rows=").append(r.rowCount()).append('\n');
            for (Column<?> c : r.columns()) {
                long h = 17;
                for (int i = 0; i < c.size(); i++) {
                    h = 31 * h + String.valueOf(c.get(i)).hashCode();
                }
                sb.append("  ").append(c.name()).append(' ').append(Long.toHexString(h)).append('\n');
            }
        }
        return sb.toString();
    }

    private static void step(StringBuilder sb, String kind, StepResult s) {
        StepResult.Counts c = s.counts();
        StepResult.Rates r = s.rates();
        StepResult.Latency l = s.latency();
        sb.append(kind).append(' ').append(s.info()).append(" window=").append(s.window())
                .append(" ok=").append(c.requestsOk()).append(" failed=").append(c.requestsFailed())
                .append(" cancelled=").append(c.cancelled()).append(" warmup=").append(c.warmupRequests())
                .append(" failures=").append(c.failuresByClass())
                .append(" out_tok_s=").append(r.outputTokensPerS()).append(" in_tok_s=").append(r.inputTokensPerS())
                .append(" rps=").append(r.requestsPerS()).append(" goodput=").append(r.goodputRps())
                .append(" good=").append(r.goodFraction()).append(" conc=").append(r.concurrencyMean())
                .append(" sources=").append(c.tokenSources()).append('\n');
        for (Distribution d : List.of(l.ttft(), l.ttftSched(), l.itl(), l.chunkGap(), l.tpot(), l.e2e(),
                l.e2eSched(), l.scheduleLag())) {
            sb.append("  ").append(d.count()).append(' ').append(d.mean()).append(' ').append(d.stddev())
                    .append(' ').append(d.min()).append(' ').append(d.p50()).append(' ').append(d.p90())
                    .append(' ').append(d.p95()).append(' ').append(d.p99()).append(' ').append(d.p999())
                    .append(' ').append(d.max()).append(" hist=").append(d.histogram().hashCode()).append('\n');
        }
    }

    private static void cells(StringBuilder sb, Table t) {
        sb.append("table ").append(t.name()).append(' ').append(t.columnNames()).append('\n');
        for (int row = 0; row < t.rowCount(); row++) {
            for (Column<?> c : t.columns()) {
                sb.append(c.get(row)).append(';');
            }
            sb.append('\n');
        }
    }
}
