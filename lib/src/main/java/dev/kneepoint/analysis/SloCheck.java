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
 * step has OK requests, its failure rate, counting requests cancelled at the drain as failed, is at most
 * {@code maxFailureRate}, and an open-loop step {@linkplain #keptUp kept up} with its offered rate and reached a
 * steady state (its latency did not {@linkplain Adequacy#rising rise} through the window).
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
        StepResult.Counts c = s.counts();
        long outcomes = c.requestsOk() + c.requestsFailed() + c.cancelled();
        double fr = (double) (c.requestsFailed() + c.cancelled()) / outcomes;
        if (fr > maxFailureRate) {
            v.add("failure rate " + Format.pct(fr) + " > " + Format.pct(maxFailureRate)
                    + (c.cancelled() > 0 ? " (" + c.cancelled() + " request(s) cut by the drain counted as failed)" : ""));
        }
        if (s.info().isOpenLoop()) {
            String lag = keptUp(s);
            if (lag != null) {
                v.add(lag);
            }
            if (Adequacy.rising(s)) {
                v.add("no steady state: " + Adequacy.describeTrend(s) + ": the queue grew through the step");
            }
        }
        return v;
    }

    /** Achieved below this fraction of the offered rate (less the Poisson allowance) means the server fell behind. */
    static final double MIN_ACHIEVED_FRACTION = 0.95;

    /**
     * Null when the open-loop step completed OK requests at close to its offered rate; else why not. It fell behind
     * when its OK completions in the window are fewer than {@link #MIN_ACHIEVED_FRACTION} of the arrivals the rate
     * offers in that window, less two standard deviations of a Poisson count ({@code 2·√(rate·window)}), so that
     * arrival noise alone does not fail a step. A step that falls behind builds a queue that grows for as long as
     * the step lasts: its percentiles then measure the step's length, not the server.
     */
    static String keptUp(StepResult s) {
        double offered = s.info().rateRps();
        double window = s.windowS();
        if (!(offered > 0) || !(window > 0) || Double.isNaN(s.rates().requestsPerS())) {
            return null;
        }
        double expected = offered * window;
        double needed = MIN_ACHIEVED_FRACTION * expected - 2 * Math.sqrt(expected);
        double achieved = s.rates().requestsPerS();
        if (achieved * window >= needed) {
            return null;
        }
        return "achieved " + Format.num(achieved) + " req/s of the " + Format.num(offered) + " req/s offered ("
                + Format.pct(achieved / offered) + " < " + Format.pct(MIN_ACHIEVED_FRACTION)
                + "): the server fell behind and its queue grew through the step";
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
