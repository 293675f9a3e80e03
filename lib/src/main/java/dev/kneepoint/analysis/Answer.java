package dev.kneepoint.analysis;

import dev.kneepoint.metrics.Slo;
import dev.kneepoint.metrics.StepResult;
import java.util.ArrayList;
import java.util.List;
import java.util.Objects;

/**
 * The plain answer that opens every report (docs/ANALYSIS.md "The answer"): peak throughput and where it is
 * reached, the efficient range with its latency and per-user rate, the capacity under the SLO set (or why it is not
 * judged), and what limits the service; then the caveats of steps too short or too thin to trust.
 *
 * @param sentences the answer, one sentence each
 * @param caveats   adequacy warnings and how sure the knee is ({@link KneeEvidence}), empty when every step
 *                  measured enough and the knee is resolved
 */
public record Answer(List<String> sentences, List<String> caveats) {

    /**
     * The causes an applicable reading can name as the limit, most specific first: the load generator (then no server
     * reading holds), the client's dispatch path, failures under sustained load, prefill interrupting decodes (a
     * mechanism, more specific than the two bounds that follow), prefill or admission, decode.
     * {@link Reading.Kind#PAST_USABLE_ZONE} is not among them: it says where the tail explodes, not why, and applies
     * on nearly every ladder that passes its knee; it is named only when no cause applies.
     */
    static final List<Reading.Kind> LIMITS = List.of(Reading.Kind.CLIENT_BOUND,
            Reading.Kind.CLIENT_OR_SCHEDULER_PATH, Reading.Kind.STABILITY, Reading.Kind.SERVER_LIMIT,
            Reading.Kind.PREFILL_STALLS_DECODE,
            Reading.Kind.PREFILL_OR_ADMISSION_BOUND, Reading.Kind.DECODE_BOUND);

    public Answer {
        sentences = List.copyOf(sentences);
        caveats = List.copyOf(caveats);
    }

    static Answer of(LoadCurve l, Slo slo, int top, int knee, int sustainable, List<Reading> readings,
                     List<String> kneeNotes, OperatingPoints points, SloCapacity search) {
        List<String> s = new ArrayList<>();
        int peak = peak(l);
        if (peak < 0) {
            return new Answer(List.of("No step completed a request: there is nothing to answer from."),
                    Adequacy.caveats(l.steps()));
        }
        StepResult p = l.steps().get(peak);
        s.add("Peak " + l.measure().phrase() + " " + Format.num(l.throughput()[peak]) + " " + l.measure().unit()
                + " at " + l.label(peak) + (l.measure() == KneeOptions.Throughput.REQUESTS ? "."
                : " (" + Format.num(p.rates().requestsPerS()) + " req/s)."));
        s.add(efficient(l, top, knee));
        s.add(search != null ? search.sentence() : capacity(l, slo, sustainable));
        s.add(points.sentence(l));
        s.add(limit(readings));
        List<String> caveats = new ArrayList<>(Adequacy.caveats(l.steps()));
        caveats.addAll(kneeNotes);
        return new Answer(s, caveats);
    }

    /** The step of highest throughput T among those with OK requests (the first reaching it), -1 when none. */
    static int peak(LoadCurve l) {
        int best = -1;
        for (int i = 0; i < l.size(); i++) {
            double t = l.throughput()[i];
            if (l.steps().get(i).counts().requestsOk() > 0 && !Double.isNaN(t)
                    && (best < 0 || t > l.throughput()[best])) {
                best = i;
            }
        }
        return best;
    }

    private static String efficient(LoadCurve l, int top, int knee) {
        if (top < 0) {
            return "No step at or below the knee meets the SLO set: there is no efficient range.";
        }
        StepResult r = l.steps().get(top);
        double perUserRate = Tables.userTokensPerS(r);
        String perUser = Double.isNaN(perUserRate) ? ""
                : ", about " + Format.num(perUserRate) + " tok/s per user (1000 / TPOT p50)";
        String where = top == knee ? " (the knee)" : knee < 0 ? " (no knee in the tested range: the limit may lie higher)"
                : "";
        return "Efficient up to " + l.label(top) + where + ": " + Format.num(l.throughput()[top]) + " "
                + l.measure().unit() + ", "
                + l.metric().percentileColumn(l.percentile()).replace("_ms", "").replace('_', ' ') + " "
                + Format.num(l.latency()[top]) + " ms" + perUser + ".";
    }

    private static String capacity(LoadCurve l, Slo slo, int sustainable) {
        if (!Knee.judgesSustainable(l, slo)) {
            return "Capacity under an SLO: not judged: no latency SLO given (a closed loop always sustains its users, "
                    + "only slower); give one, e.g. --slo-ttft 500ms.";
        }
        String against = slo.isEmpty() ? "kept up with its offered rate (no latency SLO given)"
                : "meets " + slo.describe() + (l.openLoop() ? " and kept up with its offered rate" : "");
        return sustainable < 0 ? "No step " + against + "."
                : "Highest load that " + against + ": " + l.label(sustainable) + ".";
    }

    /**
     * "Limit: " and the finding of the first applicable cause in {@link #LIMITS}, naming the other applicable causes;
     * without one, the past-usable-zone symptom when it applies, else a sentence saying no reading names a cause.
     */
    static String limit(List<Reading> readings) {
        List<Reading> causes = LIMITS.stream().flatMap(k -> readings.stream()
                .filter(r -> r.kind() == k && r.status() == Reading.Status.APPLIES)).toList();
        if (!causes.isEmpty()) {
            String also = causes.size() == 1 ? "" : " Also applies: " + String.join(", ", causes.subList(1,
                    causes.size()).stream().map(r -> r.kind().name()).toList()) + " (see the readings below).";
            return "Limit: " + causes.get(0).finding() + also;
        }
        return readings.stream()
                .filter(r -> r.kind() == Reading.Kind.PAST_USABLE_ZONE && r.status() == Reading.Status.APPLIES)
                .findFirst()
                .map(r -> "Limit: no reading names a cause; the symptom: " + r.finding())
                .orElse("Limit: no reading names a cause (none of client, dispatch path, stability, server limit, prefill stalls, "
                        + "prefill/admission or decode applies); see the readings below.");
    }

    /** The answer as a block of text: "Answer:" and its sentences, then "Caveats:" when there are any. */
    @Override
    public String toString() {
        StringBuilder sb = new StringBuilder("Answer:");
        sentences.forEach(x -> sb.append("\n  ").append(x));
        if (!caveats.isEmpty()) {
            sb.append("\nCaveats:");
            caveats.forEach(x -> sb.append("\n- ").append(Objects.requireNonNull(x)));
        }
        return sb.append('\n').toString();
    }
}
