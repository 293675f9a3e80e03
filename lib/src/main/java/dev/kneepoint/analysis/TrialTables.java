package dev.kneepoint.analysis;

import dev.kneepoint.metrics.RunResult;
import dev.kneepoint.metrics.Trials;
import java.util.ArrayList;
import java.util.List;
import java.util.Locale;
import tech.tablesaw.api.Table;

/**
 * How much a repeated run's loads moved from trial to trial ({@link Trials}): a table of one row per load and
 * headline metric, and the text block of {@code report.txt}.
 */
public final class TrialTables {
    private TrialTables() {}

    /** What the text shows: throughput, goodput and the p99 latencies (the table has every headline metric). */
    static final List<String> SHOWN = List.of("output_tokens_per_s", "requests_per_s", "ttft_p99_ms", "itl_p99_ms",
            "e2e_p99_ms");

    /** One row of the table. */
    private record Row(Trials.Load load, String metric, Trials.Stat stat) {}

    /**
     * One row per repeated load and headline metric ({@link Trials#METRICS}): {@code load, metric, trials} (how many
     * measured it), {@code mean, ci95_low, ci95_high} (95 % interval of the mean across trials), {@code cv}
     * (coefficient of variation), {@code min, max}. Empty (no rows) when nothing was repeated.
     */
    public static Table table(RunResult run) {
        List<Row> rows = new ArrayList<>();
        for (Trials.Load l : Trials.of(run)) {
            l.metrics().forEach((m, s) -> rows.add(new Row(l, m, s)));
        }
        return TableRows.of(rows)
                .text("load", r -> r.load().load())
                .text("metric", Row::metric)
                .ints("trials", r -> r.stat().n())
                .doubles("mean", r -> r.stat().mean())
                .doubles("ci95_low", r -> r.stat().ciLow())
                .doubles("ci95_high", r -> r.stat().ciHigh())
                .doubles("cv", r -> r.stat().cv())
                .doubles("min", r -> extreme(r.stat(), -1))
                .doubles("max", r -> extreme(r.stat(), 1))
                .table("repeats");
    }

    /**
     * The block of {@code report.txt}: per repeated load, mean ± half-interval and CV of the shown metrics, and the
     * widest relative interval, so that a reader sees at once whether the trials agree. Empty when nothing was
     * repeated.
     */
    public static String text(RunResult run) {
        List<Trials.Load> loads = Trials.of(run);
        if (loads.isEmpty()) {
            return "";
        }
        int n = loads.get(0).trials().size();
        StringBuilder sb = new StringBuilder("Repeat trials (" + n + " per load; mean ± 95 % interval of the mean, CV):\n");
        sb.append(String.format(Locale.ROOT, "  %-12s", "load"));
        SHOWN.forEach(m -> sb.append(String.format(Locale.ROOT, "  %-26s", m)));
        sb.append('\n');
        double widest = 0;
        String widestAt = "";
        for (Trials.Load l : loads) {
            sb.append(String.format(Locale.ROOT, "  %-12s", l.load()));
            for (String m : SHOWN) {
                Trials.Stat s = l.metric(m);
                sb.append(String.format(Locale.ROOT, "  %-26s", s.n() < 2 ? Format.num(s.mean()) + " (1 trial)"
                        : Format.num(s.mean()) + " ± " + Format.num(s.halfWidth()) + " (CV " + Format.pct(s.cv()) + ")"));
                double rel = s.halfWidth() / Math.abs(s.mean());
                if (Double.isFinite(rel) && rel > widest) {
                    widest = rel;
                    widestAt = m + " at " + l.load();
                }
            }
            sb.append('\n');
        }
        if (!widestAt.isEmpty()) {
            sb.append("  widest interval: ± ").append(Format.pct(widest)).append(" of the mean (").append(widestAt)
                    .append(")").append(widest > 0.10 ? ": trials disagree; measure longer or repeat more before "
                            + "trusting a difference of that size" : "").append('\n');
        }
        return sb.toString();
    }

    private static double extreme(Trials.Stat s, int sign) {
        return s.values().stream().mapToDouble(Double::doubleValue).filter(v -> !Double.isNaN(v))
                .reduce((a, b) -> sign > 0 ? Math.max(a, b) : Math.min(a, b)).orElse(Double.NaN);
    }
}
