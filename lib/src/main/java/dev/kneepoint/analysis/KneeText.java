package dev.kneepoint.analysis;

import dev.kneepoint.metrics.RunResult;
import dev.kneepoint.metrics.Slo;
import java.util.List;
import java.util.stream.Collectors;

/** The method text of a {@link KneeReport}: what was computed, and the numbers. */
final class KneeText {
    private KneeText() {}

    static String method(RunResult run, LoadCurve l, KneeOptions o, Slo slo, List<Segment> segments, int knee,
                         List<String> zone, int top, int sustainable, String latencyColumn, KneeEvidence evidence) {
        StringBuilder sb = new StringBuilder();
        int n = l.size();
        sb.append("LoadCurve: ").append(n).append(" step(s) of run ").append(run.runId()).append(" ordered by ")
                .append(l.openLoop() ? "request rate (req/s)" : "concurrency (users)").append(": ")
                .append(l.steps().stream().map(s -> s.info().label()).collect(Collectors.joining(", "))).append(".\n");
        sb.append("T = ").append(o.throughput().column()).append("; L = ").append(latencyColumn)
                .append(o.latency() == null ? " (the default, for open and closed ladders alike)" : "").append(".\n");
        sb.append("Elasticity e = dln T / dln L between neighbouring steps; e < 1 means latency grows faster "
                + "than throughput. Segments:\n");
        for (Segment s : segments) {
            sb.append("  ").append(l.label(s.from())).append(" -> ").append(l.label(s.to())).append(": T ")
                    .append(Format.num(l.throughput()[s.from()])).append(" -> ").append(Format.num(l.throughput()[s.to()]))
                    .append(", L ").append(Format.num(l.latency()[s.from()])).append(" -> ")
                    .append(Format.num(l.latency()[s.to()])).append(" ms, e = ").append(Format.num(s.elasticity()))
                    .append(" (").append(s.verdict()).append(")\n");
        }
        if (n < 3) {
            sb.append("Knee: not determined: fewer than 3 steps cannot show a persistent change.\n");
        } else if (knee < 0) {
            sb.append("Knee: none in the tested range: latency never outgrew throughput for ").append(o.persistence())
                    .append(" consecutive segment(s). Extend the ladder to find it.\n");
        } else {
            int remaining = segments.size() - knee;
            int used = Math.min(o.persistence(), remaining);
            sb.append("Knee: ").append(l.label(knee)).append(", the first step after which ").append(used)
                    .append(" consecutive segment(s) are inelastic (e = ")
                    .append(segments.subList(knee, knee + used).stream().map(s -> Format.num(s.elasticity()))
                            .collect(Collectors.joining(", "))).append(")");
            if (used < o.persistence()) {
                sb.append("; weak evidence: only ").append(used).append(" segment(s) remain above it");
            }
            sb.append(".\n");
        }
        evidence.notes().forEach(note -> sb.append("Knee evidence: ").append(note).append('\n'));
        sb.append(ClientReading.kneeWarning(l, knee, top));
        sb.append("SLO set: ").append(slo.describe()).append(", judged per step at p").append(Format.percentile(o.percentile()))
                .append(", failure rate <= ").append(Format.pct(o.maxFailureRate())).append(".\n");
        sb.append("Efficient zone (").append(knee < 0 ? "all steps" : "steps at or below the knee")
                .append(" meeting the SLO set): ").append(zone.isEmpty() ? "empty" : String.join(", ", zone)).append(".\n");
        if (top >= 0) {
            sb.append("Recommended operating point: ").append(l.label(top)).append(" (T = ")
                    .append(Format.num(l.throughput()[top])).append(", L = ").append(Format.num(l.latency()[top]))
                    .append(" ms)").append(knee < 0 ? "; no knee was reached, so the true limit may lie higher" : "")
                    .append(".\n");
        } else {
            sb.append("Recommended operating point: none: no step at or below the knee meets the SLO set.\n");
        }
        if (!Knee.judgesSustainable(l, slo)) {
            sb.append("Max sustainable load: not judged: no latency SLO given, and a closed loop throttles itself "
                    + "(every step sustains its users, only slower); give one (e.g. --slo-ttft 500ms, "
                    + "KneeOptions.slo) to find the highest load that meets it.");
            return sb.toString();
        }
        String keptUp = l.openLoop() ? " and kept up with their offered rates" : "";
        sb.append("Max sustainable load under the SLO set: ")
                .append(sustainable < 0 ? "none (the lowest step already misses it" + (l.openLoop()
                                ? " or fell behind its offered rate)" : ")")
                        : l.label(sustainable) + " (load " + Format.num(l.load(sustainable))
                        + "; it and every lower step meet the SLO set" + keptUp + ")").append(".");
        return sb.toString();
    }
}
