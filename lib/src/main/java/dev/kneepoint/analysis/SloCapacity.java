package dev.kneepoint.analysis;

import dev.kneepoint.metrics.StepResult;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.List;

/**
 * The highest load at which the SLO set holds, read from the steps that probed it (docs/ANALYSIS.md "SLO capacity
 * search"). A probe's <em>attainment</em> is the share of its requests completing in the window that met every
 * objective, failures counting as misses; it passes when that share is at least the {@code target}. Its 95 %
 * interval is Wilson's score interval, which stays inside [0, 1] and is honest at attainments near 1 where the
 * normal approximation is not.
 *
 * <p>The bracket: {@code minFailing} is the lowest-load failing probe and {@code maxPassing} the highest passing probe
 * below it. The answer is <em>closed</em> when no load could lie between them: adjacent integers for concurrency,
 * a relative gap within {@code tolerance} for a rate. It is <em>uncertain</em> when the interval of either end
 * straddles the target (more requests could flip that probe), or when a probe above {@code minFailing} passed again
 * (the server was not monotonic over the probes, so the bracket rests on noise).
 *
 * @param dimension  {@code concurrency} or {@code rate}
 * @param target     the attainment a load must reach, in (0, 1)
 * @param tolerance  for a rate, the relative bracket width that closes the search
 * @param probes     every probe of the dimension, in load order
 * @param maxPassing the highest passing probe below {@code minFailing}; null when none passed there
 * @param minFailing the lowest failing probe; null when every probe passed
 * @param closed     whether the bracket is as narrow as the dimension allows
 * @param uncertain  why the answer could be wrong, or null
 */
public record SloCapacity(String dimension, double target, double tolerance, List<Probe> probes, Probe maxPassing,
                          Probe minFailing, boolean closed, String uncertain) {
    /** Concurrency: the search's loads are numbers of users. */
    public static final String CONCURRENCY = "concurrency";
    /** Rate: the search's loads are request rates, req/s. */
    public static final String RATE = "rate";
    /** The normal quantile of a two-sided 95 % interval. */
    static final double Z95 = 1.959963984540054;

    public SloCapacity {
        probes = List.copyOf(probes);
    }

    /**
     * What a search looked for: the highest load of {@code dimension} ({@link #CONCURRENCY} or {@link #RATE}) at
     * which at least {@code attainment} of requests met the SLO set, to a relative {@code tolerance} for a rate.
     */
    public record Goal(String dimension, double attainment, double tolerance) {
        public Goal {
            if (!CONCURRENCY.equals(dimension) && !RATE.equals(dimension)) {
                throw new IllegalArgumentException("an SLO search's dimension is 'concurrency' or 'rate', got '"
                        + dimension + "'");
            }
            if (!(attainment > 0 && attainment < 1) || !(tolerance > 0 && tolerance < 1)) {
                throw new IllegalArgumentException("attainment and tolerance are fractions in (0, 1), got "
                        + attainment + " and " + tolerance);
            }
        }
    }

    /**
     * One probe.
     *
     * @param step       its label
     * @param load       users or req/s
     * @param requests   outcomes completing in its window (cancelled ones left out)
     * @param good       of those, OK and within every objective
     * @param attainment {@code good / requests}, NaN when none
     * @param low        lower end of its 95 % Wilson interval
     * @param high       upper end
     * @param passes     {@code attainment >= target}
     */
    public record Probe(String step, double load, long requests, long good, double attainment, double low,
                        double high, boolean passes) {
        /** Whether the interval holds {@code target}: more requests could turn the verdict. */
        boolean straddles(double target) {
            return low < target && target <= high;
        }
    }

    /** The capacity {@code run}'s probes show: its steps on the load axis (open-loop ones when it has any). */
    public static SloCapacity of(dev.kneepoint.metrics.RunResult run, Goal goal) {
        return of(LoadCurve.loadSteps(run), goal.dimension(), goal.attainment(), goal.tolerance());
    }

    /** The capacity the {@code steps} of one dimension (their load axis, as {@link LoadCurve} takes it) show. */
    public static SloCapacity of(List<StepResult> steps, String dimension, double target, double tolerance) {
        List<Probe> probes = new ArrayList<>();
        for (StepResult s : steps) {
            if (!Double.isNaN(s.info().load())) {
                probes.add(probe(s, target));
            }
        }
        probes.sort(Comparator.comparingDouble(Probe::load));
        Probe minFailing = probes.stream().filter(p -> !p.passes()).findFirst().orElse(null);
        Probe maxPassing = null;
        for (Probe p : probes) {
            if (p.passes() && (minFailing == null || p.load() < minFailing.load())) {
                maxPassing = p;
            }
        }
        boolean closed = maxPassing != null && minFailing != null && (dimension.equals(CONCURRENCY)
                ? minFailing.load() - maxPassing.load() <= 1
                : minFailing.load() - maxPassing.load() <= tolerance * maxPassing.load());
        List<String> doubts = new ArrayList<>();
        for (Probe end : new Probe[] {maxPassing, minFailing}) {
            if (end != null && end.straddles(target)) {
                doubts.add(end.step() + "'s attainment " + Format.pct(end.attainment()) + " has a 95% interval "
                        + Format.pct(end.low()) + " - " + Format.pct(end.high()) + " around the target "
                        + Format.pct(target) + " (" + end.requests() + " requests): measure longer");
            }
        }
        if (minFailing != null) {
            probes.stream().filter(p -> p.passes() && p.load() > minFailing.load()).findFirst().ifPresent(p ->
                    doubts.add(p.step() + " passed above the failing " + minFailing.step()
                            + ": the attainment is not monotonic over the probes"));
        }
        return new SloCapacity(dimension, target, tolerance, probes, maxPassing, minFailing, closed,
                doubts.isEmpty() ? null : String.join("; ", doubts));
    }

    private static Probe probe(StepResult s, double target) {
        double window = s.windowS();
        // goodput_rps is good / window and good_fraction good / outcomes (both over the same completions), so both
        // counts come back exactly; with no good request the outcomes are the OK and failed ones.
        long good = Double.isNaN(s.rates().goodputRps()) ? 0 : Math.round(s.rates().goodputRps() * window);
        double fraction = s.rates().goodFraction();
        long n = good > 0 && fraction > 0 ? Math.round(good / fraction)
                : s.counts().requestsOk() + s.counts().requestsFailed();
        double attainment = n == 0 ? Double.NaN : (double) good / n;
        double[] ci = wilson(good, n);
        return new Probe(s.info().label(), s.info().load(), n, good, attainment, ci[0], ci[1],
                n > 0 && attainment >= target);
    }

    /** The 95 % Wilson score interval of {@code k} successes in {@code n} trials; [0, 1] when {@code n} is 0. */
    public static double[] wilson(long k, long n) {
        if (n <= 0) {
            return new double[] {0, 1};
        }
        double p = (double) k / n;
        double z2 = Z95 * Z95;
        double denominator = 1 + z2 / n;
        double centre = (p + z2 / (2.0 * n)) / denominator;
        double half = Z95 * Math.sqrt(p * (1 - p) / n + z2 / (4.0 * n * n)) / denominator;
        // The interval always holds the observed share; rounding alone put 100 of 100's upper end at
        // 0.9999999999999999, below the attainment it bounds.
        return new double[] {Math.min(p, Math.max(0, centre - half)), Math.max(p, Math.min(1, centre + half))};
    }

    /** The answer in one sentence, e.g. "SLO capacity: c=4 (attainment 100% ...), c=5 fails (80% ...)." */
    public String sentence() {
        String unit = dimension.equals(CONCURRENCY) ? "users" : "req/s";
        if (probes.isEmpty()) {
            return "SLO capacity: no probe measured.";
        }
        if (maxPassing == null) {
            return "SLO capacity: below every probe: even " + minFailing.step() + " (the lowest load) reaches only "
                    + text(minFailing) + " of requests within the SLO set, under the " + Format.pct(target)
                    + " target." + (uncertain == null ? "" : " Uncertain: " + uncertain + ".");
        }
        if (minFailing == null) {
            return "SLO capacity: above every probe: the highest, " + maxPassing.step() + ", still attains "
                    + text(maxPassing) + " (target " + Format.pct(target) + ")." + (uncertain == null ? ""
                    : " Uncertain: " + uncertain + ".");
        }
        return "SLO capacity: " + Format.num(maxPassing.load()) + " " + unit + " (" + maxPassing.step() + " attains "
                + text(maxPassing) + "; " + minFailing.step() + " fails with " + text(minFailing) + "; target "
                + Format.pct(target) + ")" + (closed ? "" : ", bracket not closed: the capacity lies between them")
                + "." + (uncertain == null ? "" : " Uncertain: " + uncertain + ".");
    }

    /** The probes, one line each in load order: step, attainment and its interval, requests, verdict. */
    public String table() {
        StringBuilder sb = new StringBuilder("SLO capacity search (" + dimension + ", target " + Format.pct(target)
                + " of requests within the SLO set):\n");
        for (Probe p : probes) {
            sb.append(String.format(java.util.Locale.ROOT, "  %-12s %s of %d requests  %s%n", p.step(), text(p),
                    p.requests(), p.passes() ? "passes" : "fails"));
        }
        return sb.toString();
    }

    private static String text(Probe p) {
        return Format.pct(p.attainment()) + " [" + Format.pct(p.low()) + ", " + Format.pct(p.high()) + "]";
    }
}
