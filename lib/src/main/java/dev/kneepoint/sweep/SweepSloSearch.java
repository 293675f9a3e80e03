package dev.kneepoint.sweep;

import dev.kneepoint.analysis.SloCapacity;
import dev.kneepoint.load.ClosedLoopStep;
import dev.kneepoint.load.GateDecision;
import dev.kneepoint.load.Step;
import dev.kneepoint.load.StepSequence;
import dev.kneepoint.metrics.StepResult;
import dev.kneepoint.sweep.SweepSpec.Mode;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;

/**
 * The SLO capacity search of {@link Sweep#sloSearch(String)}, planned one probe at a time from what the probes so
 * far measured ({@link SloCapacity} judges them): double the load while every probe passes, halve it (rates only)
 * while every probe fails, then bisect between the highest passing and the lowest failing probe until the bracket
 * closes or the probes run out. The run ends normally when no probe is left to plan; the answer is read back from
 * the run's steps, so a saved run gives the same answer as the live one.
 */
final class SweepSloSearch {
    /** Label of a rate search's one-user probe, whose request rate the first open probe is sent at. */
    static final String SYNCHRONOUS = SweepRates.SYNCHRONOUS;

    private SweepSloSearch() {
    }

    /** The settings' problems: a dimension, a latency SLO to search against, and nothing that plans steps otherwise. */
    static void check(SweepSettings s, List<String> problems) {
        if (!List.of(SloCapacity.CONCURRENCY, SloCapacity.RATE).contains(s.sloSearch)) {
            problems.add("sloSearch searches 'concurrency' (closed loop) or 'rate' (open loop), got '" + s.sloSearch + "'");
        }
        if (s.slo.isEmpty()) {
            problems.add("sloSearch needs a latency SLO to search against: give slo(...) (--slo-ttft, --slo-tpot, "
                    + "--slo-e2e)");
        }
        if (!(s.sloAttainment > 0 && s.sloAttainment < 1)) {
            problems.add("sloAttainment must be a fraction in (0, 1), e.g. 0.99, got " + s.sloAttainment);
        }
        if (!(s.sloTolerance > 0 && s.sloTolerance < 1)) {
            problems.add("sloSearchTolerance must be a fraction in (0, 1), e.g. 0.05, got " + s.sloTolerance);
        }
        if (s.sloMaxProbes < 2 || s.sloMaxProbes > 40) {
            problems.add("sloSearchMaxProbes takes 2 to 40 probes, got " + s.sloMaxProbes);
        }
        List<String> others = s.givenSteps();
        if (s.sweepsRates()) {
            others.add("rate sweep");
        }
        if (s.baseline) {
            others.add("baseline");
        }
        if (!Double.isNaN(s.stopFailureRate) || !Double.isNaN(s.stopP99Ms)) {
            others.add("stop bounds (the search probes past the SLO on purpose and ends by itself)");
        }
        if (!others.isEmpty()) {
            problems.add("an SLO search plans its own steps: remove the " + String.join(" and the ", others));
        }
        if (SloCapacity.RATE.equals(s.sloSearch) && !s.thinkTime.isZero()) {
            problems.add("thinkTime does not apply to a rate search (its probes are open loop): remove it");
        }
    }

    /** The first probe: one user (a concurrency search's c=1, a rate search's synchronous step). */
    static StepSequence probes(SweepSpec spec, Mode.SloSearch mode) {
        ClosedLoopStep one = SweepPlan.closedStep(spec, 1, mode.thinkTime(), mode.rampUp());
        return StepSequence.single(mode.dimension().equals(SloCapacity.RATE)
                ? one.toBuilder().label(SYNCHRONOUS).build() : one);
    }

    /** The search's settings as the manifest records them. */
    static Map<String, Object> describe(Mode.SloSearch mode) {
        Map<String, Object> m = new LinkedHashMap<>();
        m.put("dimension", mode.dimension());
        m.put("attainment", mode.attainment());
        m.put("tolerance", mode.tolerance());
        m.put("max_probes", mode.maxProbes());
        return m;
    }

    /** The steps of a run that are the search's probes: open-loop ones for a rate, closed-loop ones for users. */
    static List<StepResult> probesOf(List<StepResult> results, String dimension) {
        boolean rate = dimension.equals(SloCapacity.RATE);
        return results.stream().filter(r -> r.info().isOpenLoop() == rate).toList();
    }

    /** After each probe: the next one, or proceed with none left (the run ends). */
    static GateDecision plan(SweepSpec spec, Mode.SloSearch mode, List<StepResult> results) {
        StepResult last = results.get(results.size() - 1);
        boolean rate = mode.dimension().equals(SloCapacity.RATE);
        if (rate && last.info().label().equals(SYNCHRONOUS)) {
            double r1 = last.rates().requestsPerS();
            if (!(r1 > 0)) {
                return GateDecision.stop("the rate search's synchronous step completed no request: no rate to start"
                        + " from. Check the target and the workload");
            }
            return next(spec, mode, SweepRates.readable(r1), "the synchronous step's request rate");
        }
        List<StepResult> probes = probesOf(results, mode.dimension());
        SloCapacity c = SloCapacity.of(probes, mode.dimension(), mode.attainment(), mode.tolerance());
        if (probes.size() >= mode.maxProbes() || c.closed()) {
            return GateDecision.proceed();
        }
        if (c.minFailing() == null) {
            return next(spec, mode, rate ? SweepRates.readable(2 * c.maxPassing().load())
                    : 2 * c.maxPassing().load(), "every probe passed: doubling");
        }
        if (c.maxPassing() == null) {
            if (!rate || c.minFailing().load() <= 1) {
                return GateDecision.proceed(); // one user already fails: nothing below to find (rates: 1 req/s floor)
            }
            return next(spec, mode, SweepRates.readable(c.minFailing().load() / 2), "every probe failed: halving");
        }
        double lo = c.maxPassing().load();
        double hi = c.minFailing().load();
        double mid = rate ? SweepRates.readable((lo + hi) / 2) : Math.floor((lo + hi) / 2);
        return next(spec, mode, mid, String.format(Locale.ROOT, "bisecting %s .. %s",
                c.maxPassing().step(), c.minFailing().step()));
    }

    private static GateDecision next(SweepSpec spec, Mode.SloSearch mode, double load, String why) {
        Step step = mode.dimension().equals(SloCapacity.RATE)
                ? SweepPlan.openStep(spec, load, mode.arrival(), mode.cap()).withRate(load)
                : SweepPlan.closedStep(spec, (int) load, mode.thinkTime(), mode.rampUp());
        return GateDecision.extend(List.of(step), "SLO search: " + why + ", probing " + step.label());
    }
}
