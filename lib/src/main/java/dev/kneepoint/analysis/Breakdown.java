package dev.kneepoint.analysis;

import dev.kneepoint.io.RunLoader;
import dev.kneepoint.metrics.ClientThresholds;
import dev.kneepoint.metrics.RequestRecord;
import dev.kneepoint.metrics.RunResult;
import dev.kneepoint.metrics.StepAggregator;
import dev.kneepoint.metrics.StepResult;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.function.Function;
import tech.tablesaw.api.Table;

/**
 * A run's steps broken down by a request attribute, its model (a model mix) or its tag (traffic classes): each
 * step's requests of one group aggregated exactly as a step is (METRICS.md "Step metrics"), over the step's own
 * window, so a group's rates are its share of the step's. Requests that named no model of their own are the group
 * {@value #TARGET_MODEL} (the target's model).
 */
public final class Breakdown {
    /** The group of the requests sent to the target's own model. */
    public static final String TARGET_MODEL = "(target)";

    /** What to break the steps down by. */
    public enum By {
        /** The model each request asked for ({@code RequestSpec.model}, {@code model} in requests.jsonl). */
        MODEL(r -> r.model() == null ? TARGET_MODEL : r.model()),
        /** The request's tag (its traffic class, or {@code bg} for background traffic). */
        TAG(RequestRecord::tag);

        private final Function<RequestRecord, String> key;

        By(Function<RequestRecord, String> key) {
            this.key = key;
        }

        /** The column name of the group. */
        String column() {
            return name().toLowerCase(java.util.Locale.ROOT);
        }
    }

    /** One step's requests of one group, as a step result. */
    public record Group(String step, String group, StepResult result) {}

    private Breakdown() {}

    /**
     * Each step of {@code run} broken down by {@code by}, from {@code records} (each step's requests, warm-up ones
     * included: windowed rates count them as the step's do), in step order and then the order the groups appeared.
     */
    public static List<Group> groups(RunResult run, Iterable<RequestRecord> records, By by) {
        Collector c = new Collector(run, by);
        records.forEach(c::add);
        return c.groups();
    }

    /**
     * As {@link #groups(RunResult, Iterable, By)} for the run directory {@code dir}, whose result is {@code run}
     * (read before), its records streamed once and none kept.
     */
    public static List<Group> groups(Path dir, RunResult run, By by) {
        Collector c = new Collector(run, by);
        RunLoader.stream(dir, c::add);
        return c.groups();
    }

    /** One aggregator per step and group, each over its step's known window (no token times kept). */
    private static final class Collector {
        private final Map<String, StepResult> steps = new LinkedHashMap<>();
        private final Map<String, Map<String, StepAggregator>> aggregators = new LinkedHashMap<>();
        private final By by;

        Collector(RunResult run, By by) {
            this.by = by;
            run.steps().forEach(s -> steps.put(s.info().label(), s));
        }

        void add(RequestRecord r) {
            StepResult s = steps.get(r.step());
            if (s != null) {
                aggregators.computeIfAbsent(r.step(), k -> new LinkedHashMap<>()).computeIfAbsent(by.key.apply(r),
                        g -> StepAggregator.forKnownWindow(s.info(), s.slo(), ClientThresholds.defaults(), s.window()))
                        .accept(r);
            }
        }

        List<Group> groups() {
            List<Group> out = new ArrayList<>();
            steps.forEach((label, s) -> aggregators.getOrDefault(label, Map.of()).forEach((g, a) ->
                    out.add(new Group(label, g, a.finish(s.window())))));
            return out;
        }
    }

    /**
     * The groups as the text report's block: {@code by model:} and one aligned row per step and group (ms; NaN as
     * {@code -}); empty when every step has one group only (nothing to break down).
     */
    public static String text(List<Group> groups, By by) {
        long steps = groups.stream().map(Group::step).distinct().count();
        if (groups.size() <= steps) {
            return "";
        }
        boolean pooling = Tables.pooling(groups.stream().map(Group::result).toList());
        List<String[]> rows = new ArrayList<>();
        rows.add(new String[] {"step", by.column(), "ok", "fail", "req/s", pooling ? "items/s" : "out_tok/s",
            "ttft_p50", "ttft_p99", "e2e_p99"});
        for (Group g : groups) {
            StepResult r = g.result();
            rows.add(new String[] {g.step(), g.group(), Long.toString(r.counts().requestsOk()),
                Long.toString(r.counts().requestsFailed()), SummaryText.num(r.rates().requestsPerS(), 2),
                SummaryText.num(pooling ? r.rates().itemsPerS() : r.rates().outputTokensPerS(), 0),
                SummaryText.num(r.latency().ttft().p50(), 1), SummaryText.num(r.latency().ttft().p99(), 1),
                SummaryText.num(r.latency().e2e().p99(), 0)});
        }
        return "by " + by.column() + " (each step's requests of one " + by.column() + ", over the step's window):\n"
                + TextColumns.of(rows);
    }

    /** The groups as a table: one row per step and group, the step table's headline columns. */
    public static Table table(List<Group> groups, By by) {
        boolean pooling = Tables.pooling(groups.stream().map(Group::result).toList());
        TableRows<Group> t = TableRows.of(groups).text("step", Group::step).text(by.column(), Group::group)
                .longs("requests_ok", g -> g.result().counts().requestsOk())
                .longs("requests_failed", g -> g.result().counts().requestsFailed())
                .doubles("failure_rate", g -> g.result().rates().failureRate())
                .doubles("requests_per_s", g -> g.result().rates().requestsPerS());
        t = pooling ? t.doubles("items_per_s", g -> g.result().rates().itemsPerS())
                : t.doubles("output_tokens_per_s", g -> g.result().rates().outputTokensPerS())
                .doubles("ttft_p50_ms", g -> g.result().latency().ttft().p50())
                .doubles("ttft_p99_ms", g -> g.result().latency().ttft().p99())
                .doubles("itl_p50_ms", g -> g.result().latency().itl().p50());
        return t.doubles("e2e_p50_ms", g -> g.result().latency().e2e().p50())
                .doubles("e2e_p99_ms", g -> g.result().latency().e2e().p99())
                .doubles("goodput_rps", g -> g.result().rates().goodputRps())
                .table("by_" + by.column());
    }
}
