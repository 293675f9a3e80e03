package dev.kneepoint.sweep;

import dev.kneepoint.load.ArrivalPlan;
import dev.kneepoint.load.BackgroundStream;
import dev.kneepoint.load.StepSequence;
import java.util.ArrayList;
import java.util.List;

/**
 * The checks {@link Sweep#run()} and {@link Sweep#start()} make before anything is sent: every setting is
 * checked and every problem reported at once, in one {@link IllegalArgumentException}.
 */
final class SweepChecks {
    private SweepChecks() {
    }

    /**
     * Checks the sweep's settings, resolves its target (the {@code api} override) and background stream, and
     * plans its ladder; throws listing every problem when any setting is wrong.
     */
    static StepSequence validate(Sweep s) {
        List<String> problems = new ArrayList<>();
        try {
            s.target = s.effectiveTarget();
        } catch (IllegalArgumentException e) {
            problems.add(e.getMessage());
        }
        SweepCalibration.check(s, problems);
        if (s.sweepsRates()) {
            checkRateSweep(s, problems);
        } else if (s.replaysTrace()) {
            SweepTrace.check(s, problems);
        } else if (s.concurrency.isEmpty() == s.rates.isEmpty()) {
            problems.add("give either concurrency levels (closed loop), request rates (open loop) or a trace, not "
                    + (s.concurrency.isEmpty() ? "neither" : "both"));
        }
        s.concurrency.stream().filter(c -> c < 1).findFirst().ifPresent(c ->
                problems.add("concurrency must be >= 1, got " + c));
        s.rates.stream().filter(r -> !(r > 0) || r.isInfinite()).findFirst().ifPresent(r ->
                problems.add("request rate must be a positive finite number of requests per second, got " + r));
        if (!List.of("constant", "poisson", "gamma").contains(s.arrival)) {
            problems.add("arrival must be constant, poisson or gamma, got '" + s.arrival + "'");
        }
        if (s.workload == null && s.inputTokens < 1) {
            problems.add("inputTokens must be >= 1, got " + s.inputTokens);
        }
        if (s.workload == null && s.outputTokens < 1) {
            problems.add("outputTokens must be >= 1, got " + s.outputTokens);
        }
        if (s.stepDuration == null || s.stepDuration.isNegative() || s.stepDuration.isZero()) {
            problems.add("stepDuration must be positive, got " + s.stepDuration);
        }
        if (s.warmup == null || s.warmup.isNegative()) {
            problems.add("warmup must be >= 0, got " + s.warmup);
        }
        if (s.pause == null || s.pause.isNegative()) {
            problems.add("pause must be >= 0, got " + s.pause);
        }
        if (!Double.isNaN(s.stopFailureRate) && (s.stopFailureRate < 0 || s.stopFailureRate > 1)) {
            problems.add("stopWhenFailureRateAbove takes a fraction in [0, 1], got " + s.stopFailureRate);
        }
        if (s.clientThresholds == null) {
            problems.add("clientCheck thresholds must not be null (use ClientCheck.thresholds().build() for the defaults)");
        }
        if (s.name == null || !s.name.matches("[A-Za-z0-9._-]{1,60}")) {
            problems.add("name must be 1-60 letters, digits, '.', '_' or '-', got '" + s.name + "'");
        }
        if (s.telemetry.enabled()) {
            problems.addAll(s.telemetry.problems());
        }
        if (s.backgroundWorkload != null) {
            try {
                if (s.backgroundStepRates != null) {
                    double first = java.util.Arrays.stream(s.backgroundStepRates).filter(r -> r > 0).findFirst().orElse(1);
                    s.background = new BackgroundStream(s.backgroundWorkload, ArrivalPlan.poisson(first, s.seed ^ 0x6267L),
                            BackgroundStream.DEFAULT_TAG, s.drainTimeout).withStepRates(s.backgroundStepRates);
                } else {
                    s.background = new BackgroundStream(s.backgroundWorkload, ArrivalPlan.poisson(s.backgroundRate, s.seed ^ 0x6267L),
                            BackgroundStream.DEFAULT_TAG, s.drainTimeout);
                }
            } catch (IllegalArgumentException e) {
                problems.add("background: " + e.getMessage());
            }
        }
        if (s.sweepsRates() && s.background != null && s.background.perStep()) {
            problems.add("background: per-step rates cannot follow a rate sweep, whose open steps are planned during"
                    + " the run; use a steady background (background(workload, rateRps))");
        }
        if (s.throughputConcurrencySet && !s.sweepsRates()) {
            problems.add("throughputConcurrency applies to a rate sweep only: add rateSweep(n), or remove it");
        }
        int ladderSteps = s.sweepsRates() ? 2 + Math.max(0, s.rateSweepSteps) : s.replaysTrace() ? Math.max(1, s.rates.size())
                : s.concurrency.isEmpty() ? s.rates.size() : s.concurrency.size();
        if (s.background != null && s.background.perStep() && !s.sweepsRates()
                && s.background.stepRatesRps().size() != ladderSteps) {
            problems.add("background: " + s.background.stepRatesRps().size() + " per-step rates for a ladder of "
                    + ladderSteps + " steps; give one rate per step (0 for none)");
        }
        StepSequence ladder = null;
        try {
            ladder = SweepPlan.ladder(s);
        } catch (IllegalArgumentException e) {
            if (problems.isEmpty()) {
                problems.add(e.getMessage());
            }
        }
        if (!problems.isEmpty()) {
            throw new IllegalArgumentException("Invalid sweep (" + problems.size() + " problem"
                    + (problems.size() == 1 ? "" : "s") + "):\n  - " + String.join("\n  - ", problems));
        }
        return ladder;
    }

    /** A rate sweep plans its own steps: no other way of giving them, and sane sizes. */
    private static void checkRateSweep(Sweep s, List<String> problems) {
        if (s.rateSweepSteps < 2 || s.rateSweepSteps > 50) {
            problems.add("rateSweep takes 2 to 50 open-loop steps, got " + s.rateSweepSteps);
        }
        List<String> others = new ArrayList<>();
        if (!s.concurrency.isEmpty()) {
            others.add("concurrency levels");
        }
        if (!s.rates.isEmpty()) {
            others.add("request rates");
        }
        if (s.replaysTrace()) {
            others.add("a trace");
        }
        if (!others.isEmpty()) {
            problems.add("a rate sweep plans its own steps: remove the " + String.join(" and the ", others)
                    + " (or drop rateSweep to run them)");
        }
        if (s.baseline) {
            problems.add("a rate sweep's synchronous step is its single-user baseline: remove baseline(true)");
        }
        if (s.throughputConcurrency < 2) {
            problems.add("throughputConcurrency must be >= 2 users (it must exceed the synchronous step's one), got "
                    + s.throughputConcurrency);
        }
        if (!s.thinkTime.isZero()) {
            problems.add("thinkTime does not apply to a rate sweep (its closed-loop probes send back to back):"
                    + " remove it");
        }
    }
}
