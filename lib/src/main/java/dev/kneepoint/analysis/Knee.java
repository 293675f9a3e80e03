package dev.kneepoint.analysis;

import dev.kneepoint.metrics.RunResult;
import dev.kneepoint.metrics.Trials;
import dev.kneepoint.metrics.Slo;
import java.util.ArrayList;
import java.util.List;
import java.util.stream.IntStream;
import tech.tablesaw.api.Table;

/**
 * The knee and the efficient zone of a ladder (METRICS.md "The knee and the efficient zone";
 * the full method is in docs/ANALYSIS.md).
 *
 * <ol>
 *   <li>Steps are ordered by load x. T(x) is a step rate ({@link KneeOptions.Throughput}, default
 *       {@code output_tokens_per_s}); L(x) is a percentile (default p99) of a latency distribution
 *       (default {@code e2e_sched}, for open- and closed-loop ladders alike).</li>
 *   <li>Between neighbouring steps, elasticity {@code e = Δln T / Δln L}. A segment is <em>elastic</em> when
 *       latency did not rise and throughput did not fall ({@code e} reported as +inf), or when both rose
 *       and {@code e ≥ 1}. It is <em>inelastic</em> when {@code e < 1}, when throughput fell, or when either
 *       step lacks data (no tokens, no OK requests).</li>
 *   <li>The knee is the first step k such that the next {@code persistence} segments (default 2), or all
 *       remaining segments when fewer remain, are inelastic. A ladder of fewer than 3 steps has no knee
 *       verdict; a ladder whose inelastic segments never persist has no knee in the tested range.</li>
 *   <li>A step meets the SLO set when the chosen percentile of each bounded latency is within bound
 *       (TTFT/E2E on the SLO's basis), the pooled ITL at the SLO's ITL percentile is within bound, it has
 *       OK requests and its failure rate (requests cut by the drain count as failed) is at most
 *       {@code maxFailureRate} (default 1%); an open-loop step also needs OK completions of at least 95% of
 *       its offered rate, less a Poisson allowance.</li>
 *   <li>The efficient zone is the set of steps at or below the knee (all steps when there is none) that
 *       meet the SLO set; its top is the recommended operating point. The max sustainable load is the
 *       highest step such that it and every lower step meet the SLO set, knee or not; an open-loop step must
 *       also have kept up with its offered rate, and a closed-loop ladder without a latency SLO has none
 *       (a closed loop throttles itself, so only an SLO can say which load is too much).</li>
 * </ol>
 */
public final class Knee {
    private Knee() {}

    /** Analyses {@code run} with {@link KneeOptions#defaults()}. */
    public static KneeReport analyze(RunResult run) {
        return analyze(run, KneeOptions.defaults());
    }

    /** Analyses {@code run} against {@code slo}, with L(x) the p99 of {@code latency}. */
    public static KneeReport analyze(RunResult run, Slo slo, LatencyMetric latency) {
        return analyze(run, KneeOptions.builder().slo(slo).latency(latency).build());
    }

    /** The canonical form. */
    public static KneeReport analyze(RunResult measured, KneeOptions given) {
        RunResult run = Trials.pooled(measured); // a repeated load is one point of the curve: its trials pooled
        KneeOptions options = given.forRun(run); // a pooling run's throughput is its items/s
        LoadCurve ladder = LoadCurve.of(run, options);
        Slo slo = options.sloFor(run);
        int n = ladder.size();
        List<Segment> segments = new ArrayList<>();
        for (int i = 1; i < n; i++) {
            segments.add(Segment.of(i - 1, i, ladder.throughput()[i - 1], ladder.throughput()[i],
                    ladder.latency()[i - 1], ladder.latency()[i]));
        }
        int knee = n < 3 ? -1 : kneeIndex(segments, options.persistence());
        List<List<String>> violations = new ArrayList<>();
        for (int i = 0; i < n; i++) {
            violations.add(SloCheck.violations(ladder.steps().get(i), slo, options.percentile(),
                    options.maxFailureRate()));
        }
        List<String> zone = new ArrayList<>();
        int top = -1;
        for (int i = 0; i < n && (knee < 0 || i <= knee); i++) {
            if (violations.get(i).isEmpty()) {
                zone.add(ladder.label(i));
                top = i;
            }
        }
        int sustainable = -1;
        for (int i = 0; i < n && judgesSustainable(ladder, slo) && violations.get(i).isEmpty(); i++) {
            sustainable = i;
        }
        String latencyColumn = ladder.metric().percentileColumn(options.percentile());
        KneeEvidence evidence = KneeEvidence.of(ladder, knee);
        Table stepsTable = stepsTable(ladder, violations, knee, zone, options, evidence);
        Table elasticity = elasticityTable(ladder, segments);
        String method = KneeText.method(run, ladder, options, slo, segments, knee, zone, top, sustainable, latencyColumn,
                evidence);
        List<Reading> readings = Readings.of(ladder, knee, options.requests(), options.telemetry());
        SloCapacity search = options.sloSearch() == null ? null : SloCapacity.of(run, options.sloSearch());
        OperatingPoints points = OperatingPoints.of(ladder, slo, top, knee, sustainable, Answer.peak(ladder))
                .after(search, ladder.openLoop());
        return new KneeReport(run.runId(), options.throughput().column(), latencyColumn, slo, stepsTable,
                elasticity, knee < 0 ? null : ladder.label(knee), knee < 0 ? Double.NaN : ladder.load(knee), zone,
                top < 0 ? null : ladder.label(top), top < 0 ? Double.NaN : ladder.load(top),
                sustainable < 0 ? null : ladder.label(sustainable),
                sustainable < 0 ? Double.NaN : ladder.load(sustainable), method, readings,
                Answer.of(ladder, slo, top, knee, sustainable, readings, evidence.notes(), points, search),
                evidence.refine(), points, search);
    }

    /**
     * Whether a max sustainable load can be named: always for an open loop (offered rate against achieved),
     * for a closed loop only under a latency SLO, since a closed loop throttles itself and every step "sustains"
     * its users.
     */
    static boolean judgesSustainable(LoadCurve ladder, Slo slo) {
        return ladder.openLoop() || !slo.isEmpty();
    }

    /** First step k whose next {@code persistence} segments (or all remaining) are inelastic; -1 if none. */
    static int kneeIndex(List<Segment> segments, int persistence) {
        for (int k = 0; k < segments.size(); k++) {
            int last = Math.min(k + persistence, segments.size());
            boolean all = true;
            for (int j = k; j < last; j++) {
                all &= !segments.get(j).elastic();
            }
            if (all) {
                return k;
            }
        }
        return -1;
    }

    private static Table stepsTable(LoadCurve l, List<List<String>> violations, int knee, List<String> zone,
                                    KneeOptions o, KneeEvidence evidence) {
        String latency = l.metric().percentileColumn(o.percentile());
        return TableRows.of(IntStream.range(0, l.size()).boxed().toList())
                .text("step", l::label)
                .doubles("load", l::load)
                .doubles(o.throughput().column(), i -> l.throughput()[i])
                .doubles(latency, i -> l.latency()[i])
                .doubles(latency.replace("_ms", "_ci_low_ms"), i -> evidence.low()[i])
                .doubles(latency.replace("_ms", "_ci_high_ms"), i -> evidence.high()[i])
                .booleans("meets_slo", i -> violations.get(i).isEmpty())
                .text("slo_violations", i -> String.join("; ", violations.get(i)))
                .text("role", i -> role(i, knee, zone.contains(l.label(i))))
                .booleans("client_bound", i -> l.steps().get(i).clientBound())
                .table("knee_steps");
    }

    /** The {@code role} of step {@code i}, given the knee's index (-1: none) and whether the step is in the zone. */
    private static String role(int i, int knee, boolean inZone) {
        return i == knee ? (inZone ? "knee (efficient)" : "knee (misses SLO)")
                : knee >= 0 && i > knee ? "beyond knee" : inZone ? "efficient" : "misses SLO";
    }

    private static Table elasticityTable(LoadCurve l, List<Segment> segments) {
        return TableRows.of(segments)
                .text("from_step", s -> l.label(s.from()))
                .text("to_step", s -> l.label(s.to()))
                .doubles("from_load", s -> l.load(s.from()))
                .doubles("to_load", s -> l.load(s.to()))
                .doubles("dln_throughput", Segment::dlnT)
                .doubles("dln_latency", Segment::dlnL)
                .doubles("elasticity", Segment::elasticity)
                .booleans("elastic", Segment::elastic)
                .text("verdict", Segment::verdict)
                .table("elasticity");
    }
}
