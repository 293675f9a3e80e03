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
    /** A doubling of the throughput probe's users that raises throughput by less than this saturated the server. */
    static final double SATURATION_GAIN = 0.05;
    /** The most doublings of the throughput probe's users (256 becomes at most 2,048). */
    static final int MAX_DOUBLINGS = 3;

    private SweepRates() {
    }

    /** The two probes; the open steps are appended by {@link #plan} once both have run. */
    static StepSequence probes(SweepSpec spec, SweepSpec.Mode.RateSweep mode) {
        return StepSequence.of(List.of(probe(spec, 1, SYNCHRONOUS), probe(spec, mode.throughputConcurrency(), THROUGHPUT)));
    }

    private static ClosedLoopStep probe(SweepSpec spec, int users, String label) {
        return SweepPlan.closedStep(spec, users, Duration.ZERO, SweepDefaults.RAMP_UP).toBuilder().label(label).build();
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
            rates.add(readable(low + k * (high - low) / (n + 1)));
        }
        return rates;
    }

    /** A planned rate rounded to 5 significant digits: a readable step label that stays within 0.005% of it. */
    static double readable(double rate) {
        return new BigDecimal(rate).round(new MathContext(5)).doubleValue();
    }

    /**
     * The decision after a probe: proceed after {@code synchronous}; after a throughput probe, another at twice the
     * users while throughput still rises (see {@link Saturation}), else the open steps (recording the plan in
     * {@code record}), or a stop saying why none can be planned.
     */
    static GateDecision plan(SweepSpec spec, SweepSpec.Mode.RateSweep mode, List<StepResult> results,
                             Map<String, Object> record) {
        StepResult last = results.get(results.size() - 1);
        String label = last.info().label();
        List<StepResult> probes = results.stream().filter(r -> r.info().label().startsWith(THROUGHPUT)).toList();
        String failed = failedProbe(last);
        if (failed != null && probes.size() < 2) {
            return GateDecision.stop("the rate sweep's " + label + " step " + failed + ": no rate to plan from."
                    + " Check the target and the workload (run a fixed ladder to see the failures)");
        }
        if (label.equals(SYNCHRONOUS)) {
            return GateDecision.proceed();
        }
        double rSync = results.stream().filter(r -> r.info().label().equals(SYNCHRONOUS)).findFirst()
                .map(s -> s.rates().requestsPerS()).orElse(Double.NaN);
        record.put("synchronous_rps", rSync);
        if (probes.size() == 1) {
            double rFirst = last.rates().requestsPerS();
            if (!(rFirst > rSync * MIN_HEADROOM)) {
                record.put("throughput_rps", rFirst);
                String why = String.format(Locale.ROOT, "no headroom to sweep: the throughput step (%d users) completed"
                        + " %.3f requests/s, not more than %.0f%% above the synchronous step's %.3f requests/s (the"
                        + " server serves about one request at a time, or the throughput step was too short to fill"
                        + " it). Raise throughputConcurrency or stepDuration, or sweep fixed rates",
                        mode.throughputConcurrency(), rFirst, (MIN_HEADROOM - 1) * 100, rSync);
                record.put("stopped", why);
                return GateDecision.stop(why);
            }
        }
        Saturation sat = new Saturation(probes, failed != null);
        record.put("saturation", sat.describe());
        if (sat.nextUsers() > 0) {
            ClosedLoopStep next = probe(spec, sat.nextUsers(), THROUGHPUT + "-" + sat.nextUsers());
            String why = probes.size() == 1 ? "did " + last.info().concurrency() + " users saturate the server"
                    : "throughput still rising (" + sat.lastGainText() + ")";
            return GateDecision.extend(List.of(next), why + ": probing " + sat.nextUsers() + " users");
        }
        StepResult best = sat.best();
        double rMax = best.rates().requestsPerS();
        record.put("throughput_rps", rMax);
        record.put("throughput_probe", best.info().label());
        record.put("throughput_users", best.info().concurrency());
        List<Double> rates = between(rSync, rMax, mode.openSteps());
        record.put("planned_rates_rps", rates);
        List<Step> open = new ArrayList<>();
        for (double r : rates) {
            open.add(SweepPlan.openStep(spec, r, mode.arrival(), mode.cap()).withRate(r));
        }
        return GateDecision.extend(open, String.format(Locale.ROOT,
                "rates %s req/s, evenly between synchronous %.3f and throughput %.3f (%s)", rates, rSync, rMax,
                sat.verdict()));
    }

    /**
     * Whether the throughput probes so far filled the server. After the first, each further probe doubles the users,
     * until one raises request throughput by less than {@link #SATURATION_GAIN} (saturated: more users only queue),
     * fails most of its requests (saturated: the server gives up past that load), or {@link #MAX_DOUBLINGS}
     * doublings are spent (not saturated: r_max is a lower bound, said in the plan). r_max is the highest request
     * throughput a probe that did not fail measured.
     *
     * @param lastFailed the last probe failed most of its requests
     */
    record Saturation(List<StepResult> probes, boolean lastFailed) {
        /** Users of the next probe, or 0 when the probing is over. */
        int nextUsers() {
            if (saturated() || probes.size() > MAX_DOUBLINGS) {
                return 0;
            }
            return probes.get(probes.size() - 1).info().concurrency() * 2;
        }

        boolean saturated() {
            return lastFailed || (probes.size() >= 2 && lastGain() < SATURATION_GAIN);
        }

        /** Relative throughput gain of the last probe over the one before (NaN with one probe). */
        double lastGain() {
            if (probes.size() < 2) {
                return Double.NaN;
            }
            double before = probes.get(probes.size() - 2).rates().requestsPerS();
            return probes.get(probes.size() - 1).rates().requestsPerS() / before - 1;
        }

        String lastGainText() {
            return String.format(Locale.ROOT, "%+.0f%% from %d to %d users",
                    100 * lastGain(), probes.get(probes.size() - 2).info().concurrency(),
                    probes.get(probes.size() - 1).info().concurrency());
        }

        /** The probe with the highest request throughput among those that did not fail most requests. */
        StepResult best() {
            StepResult b = null;
            for (StepResult p : probes) {
                if (failedProbe(p) == null && (b == null || p.rates().requestsPerS() > b.rates().requestsPerS())) {
                    b = p;
                }
            }
            return b;
        }

        String verdict() {
            if (lastFailed) {
                return "saturated: the probe at " + probes.get(probes.size() - 1).info().concurrency()
                        + " users failed most requests";
            }
            return saturated() ? "saturated: " + lastGainText()
                    : "NOT saturated: " + lastGainText() + " after " + MAX_DOUBLINGS + " doublings, so r_max is a"
                    + " lower bound; raise throughputConcurrency";
        }

        Map<String, Object> describe() {
            Map<String, Object> m = new LinkedHashMap<>();
            List<Map<String, Object>> rows = new ArrayList<>();
            for (StepResult p : probes) {
                Map<String, Object> row = new LinkedHashMap<>();
                row.put("users", p.info().concurrency());
                row.put("requests_per_s", p.rates().requestsPerS());
                rows.add(row);
            }
            m.put("probes", rows);
            m.put("saturated", nextUsers() > 0 ? null : saturated());
            m.put("verdict", nextUsers() > 0 ? null : verdict());
            return m;
        }
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
        m.put("saturation", null);
        return m;
    }
}
