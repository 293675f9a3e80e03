package dev.kneepoint.sweep;

import dev.kneepoint.load.ClosedLoopStep;
import dev.kneepoint.load.GateDecision;
import dev.kneepoint.load.Step;
import dev.kneepoint.load.StepSequence;
import dev.kneepoint.metrics.StepResult;
import java.math.BigDecimal;
import java.math.MathContext;
import java.time.Duration;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;

/**
 * The rate sweep of {@link Sweep#rateSweep(int)}: two closed-loop probes ({@code synchronous}, one user;
 * {@code throughput}, {@link Sweep#throughputConcurrency(int)} users), then, planned from their measured request
 * throughputs r_sync and r_max, {@code n} open-loop steps at {@code r_sync + k (r_max - r_sync) / (n + 1)},
 * k = 1..n: evenly spaced, strictly between the two ends.
 */
final class SweepRates {
    /** Label of the one-user probe. */
    static final String SYNCHRONOUS = "synchronous";
    /** Label of the saturating probe. */
    static final String THROUGHPUT = "throughput";
    /** r_max must exceed r_sync by this factor, or there is no range to sweep. */
    static final double MIN_HEADROOM = 1.05;
    /** A probe failing more than this fraction of its requests measured no rate worth planning from. */
    static final double MAX_PROBE_FAILURE = 0.5;

    private SweepRates() {
    }

    /** The two probes; the open steps are appended by {@link #plan} once both have run. */
    static StepSequence probes(SweepSpec spec, SweepSpec.Mode.RateSweep mode) {
        ClosedLoopStep sync = SweepPlan.closedStep(spec, 1, Duration.ZERO, SweepDefaults.RAMP_UP).toBuilder().label(SYNCHRONOUS).build();
        ClosedLoopStep max = sync.toBuilder().concurrency(mode.throughputConcurrency()).label(THROUGHPUT).build();
        return StepSequence.of(List.of(sync, max));
    }

    /**
     * {@code n} rates evenly spaced strictly between {@code low} and {@code high}:
     * {@code low + k (high - low) / (n + 1)}, k = 1..n, each rounded to 5 significant digits (a readable label;
     * the spacing stays even to 0.005% of the rate, and with the 5% headroom and at most 50 steps adjacent rates
     * stay at least 0.09% apart, so no two round to one label).
     */
    static List<Double> between(double low, double high, int n) {
        List<Double> rates = new ArrayList<>(n);
        for (int k = 1; k <= n; k++) {
            double r = low + k * (high - low) / (n + 1);
            rates.add(new BigDecimal(r).round(new MathContext(5)).doubleValue());
        }
        return rates;
    }

    /**
     * The decision after a probe: proceed after {@code synchronous}; after {@code throughput}, the open steps
     * (recording the plan in {@code record}), or a stop saying why none can be planned.
     */
    static GateDecision plan(SweepSpec spec, SweepSpec.Mode.RateSweep mode, List<StepResult> results,
                             Map<String, Object> record) {
        StepResult last = results.get(results.size() - 1);
        String label = last.info().label();
        String failed = failedProbe(last);
        if (failed != null) {
            return GateDecision.stop("the rate sweep's " + label + " step " + failed + ": no rate to plan from."
                    + " Check the target and the workload (run a fixed ladder to see the failures)");
        }
        if (label.equals(SYNCHRONOUS)) {
            return GateDecision.proceed();
        }
        double rSync = results.stream().filter(r -> r.info().label().equals(SYNCHRONOUS)).findFirst()
                .map(s -> s.rates().requestsPerS()).orElse(Double.NaN);
        double rMax = last.rates().requestsPerS();
        record.put("synchronous_rps", rSync);
        record.put("throughput_rps", rMax);
        if (!(rMax > rSync * MIN_HEADROOM)) {
            String why = String.format(Locale.ROOT, "no headroom to sweep: the throughput step (%d users) completed"
                    + " %.3f requests/s, not more than %.0f%% above the synchronous step's %.3f requests/s (the server"
                    + " serves about one request at a time, or the throughput step was too short to fill it)."
                    + " Raise throughputConcurrency or stepDuration, or sweep fixed rates",
                    mode.throughputConcurrency(), rMax, (MIN_HEADROOM - 1) * 100, rSync);
            record.put("stopped", why);
            return GateDecision.stop(why);
        }
        List<Double> rates = between(rSync, rMax, mode.openSteps());
        record.put("planned_rates_rps", rates);
        List<Step> open = new ArrayList<>();
        for (double r : rates) {
            open.add(SweepPlan.openStep(spec, r, mode.arrival(), mode.cap()).withRate(r));
        }
        return GateDecision.extend(open, String.format(Locale.ROOT,
                "rates %s req/s, evenly between synchronous %.3f and throughput %.3f", rates, rSync, rMax));
    }

    /** Why a probe's rate cannot be trusted, or null. */
    private static String failedProbe(StepResult r) {
        long total = r.counts().requestsOk() + r.counts().requestsFailed();
        if (r.counts().requestsOk() == 0) {
            return "completed no request" + (total == 0 ? "" : " (" + total + " failed)");
        }
        if (r.rates().failureRate() > MAX_PROBE_FAILURE) {
            return String.format(Locale.ROOT, "failed %d of %d requests", r.counts().requestsFailed(), total);
        }
        if (!(r.rates().requestsPerS() > 0) || Double.isInfinite(r.rates().requestsPerS())) {
            return "measured no request throughput (" + r.rates().requestsPerS() + " requests/s)";
        }
        return null;
    }

    /** The manifest's {@code rate_sweep} entry as planned before the run; {@link #plan} adds what it measured. */
    static Map<String, Object> describe(SweepSpec.Mode.RateSweep mode) {
        Map<String, Object> m = new LinkedHashMap<>();
        m.put("open_steps", mode.openSteps());
        m.put("throughput_concurrency", mode.throughputConcurrency());
        m.put("formula", "r_sync + k (r_max - r_sync) / (n + 1), k = 1..n");
        m.put("synchronous_rps", null);
        m.put("throughput_rps", null);
        m.put("planned_rates_rps", null);
        return m;
    }
}
