package dev.kneepoint.analysis;

import dev.kneepoint.metrics.Distribution;
import dev.kneepoint.metrics.Slo;
import dev.kneepoint.metrics.StepResult;
import java.util.ArrayList;
import java.util.List;

/**
 * Whether a whole step meets an SLO set, judged from its distributions (records are not needed):
 * the {@code percentile}-th percentile of each bounded latency (TTFT and E2E on the SLO's basis, TPOT)
 * is within its bound, the step's pooled ITL at the SLO's ITL percentile is within the ITL bound, the
 * step has OK requests, and its failure rate is at most {@code maxFailureRate}.
 */
final class SloCheck {
    private SloCheck() {}

    /** The violations of {@code s}, empty when it meets the SLO set. */
    static List<String> violations(StepResult s, Slo slo, double percentile, double maxFailureRate) {
        List<String> v = new ArrayList<>();
        if (s.counts().requestsOk() == 0) {
            v.add("no OK requests");
            return v;
        }
        boolean sched = slo.schedBasis(s.info().isOpenLoop());
        String p = Format.percentile(percentile);
        StepResult.Latency lat = s.latency();
        check(v, "ttft" + (sched ? "_sched" : "") + " p" + p, sched ? lat.ttftSched() : lat.ttft(), percentile, slo.ttftMs());
        check(v, "tpot p" + p, lat.tpot(), percentile, slo.tpotMs());
        check(v, "itl p" + Format.percentile(slo.itlPercentile()), lat.itl(), slo.itlPercentile(), slo.itlMs());
        check(v, "e2e" + (sched ? "_sched" : "") + " p" + p, sched ? lat.e2eSched() : lat.e2e(), percentile, slo.e2eMs());
        double fr = Double.isNaN(s.rates().failureRate()) ? 0 : s.rates().failureRate();
        if (fr > maxFailureRate) {
            v.add("failure rate " + Format.pct(fr) + " > " + Format.pct(maxFailureRate));
        }
        return v;
    }

    private static void check(List<String> v, String name, Distribution d, double percentile, double boundMs) {
        if (Double.isNaN(boundMs) || d.count() == 0) {
            return;
        }
        double value = d.percentile(percentile);
        if (value > boundMs) {
            v.add(name + " " + Format.num(value) + " ms > " + Format.num(boundMs) + " ms");
        }
    }
}
