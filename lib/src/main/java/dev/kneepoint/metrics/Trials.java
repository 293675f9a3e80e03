package dev.kneepoint.metrics;

import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.function.ToDoubleFunction;
import org.apache.commons.math3.distribution.TDistribution;

/**
 * A run whose loads were measured several times ({@code Sweep.repeat(n)}): each load's trials pooled into one step
 * ({@link #pooled}), and how much the headline metrics moved from trial to trial ({@link #of}): per load and metric,
 * the trials' mean, a 95 % confidence interval of that mean (Student's t with n − 1 degrees of freedom, the trials
 * taken as independent samples of the load) and the coefficient of variation. A wide interval says that one run of
 * the ladder would not have been enough to tell two neighbouring loads, or two servers, apart.
 */
public final class Trials {
    private Trials() {}

    /** The two-sided confidence of the intervals across trials. */
    public static final double CONFIDENCE = 0.95;

    /**
     * The headline metrics, by the names the step tables and {@code summary.json} use: output and request rates,
     * goodput, and the p50 and p99 of TTFT, ITL, TPOT and E2E (from the intended start in open loop, as the knee
     * reads them).
     */
    public static final List<String> METRICS = List.of("output_tokens_per_s", "requests_per_s", "goodput_rps",
            "ttft_p50_ms", "ttft_p99_ms", "itl_p50_ms", "itl_p99_ms", "tpot_p50_ms", "tpot_p99_ms", "e2e_p50_ms",
            "e2e_p99_ms");

    /**
     * One metric over a load's trials.
     *
     * @param values the trials' values in run order (NaN where a trial did not measure it)
     * @param n      trials that measured it
     * @param mean   their mean (NaN: none)
     * @param stddev their sample standard deviation (NaN below 2 trials)
     * @param ciLow  lower end of the 95 % interval of the mean (NaN below 2 trials)
     * @param ciHigh upper end
     * @param cv     coefficient of variation, stddev / mean (NaN below 2 trials or for a zero mean)
     */
    public record Stat(List<Double> values, int n, double mean, double stddev, double ciLow, double ciHigh, double cv) {
        public Stat {
            values = List.copyOf(values);
        }

        /** The statistics of {@code values}, NaNs left out. */
        public static Stat of(List<Double> values) {
            double[] v = values.stream().mapToDouble(Double::doubleValue).filter(x -> !Double.isNaN(x)).toArray();
            int n = v.length;
            double mean = n == 0 ? Double.NaN : java.util.Arrays.stream(v).sum() / n;
            if (n < 2) {
                return new Stat(values, n, mean, Double.NaN, Double.NaN, Double.NaN, Double.NaN);
            }
            double ss = 0;
            for (double x : v) {
                ss += (x - mean) * (x - mean);
            }
            double sd = Math.sqrt(ss / (n - 1));
            double half = tQuantile(CONFIDENCE, n - 1) * sd / Math.sqrt(n);
            return new Stat(values, n, mean, sd, mean - half, mean + half, mean == 0 ? Double.NaN : sd / Math.abs(mean));
        }

        /** Half the interval's width (NaN below 2 trials). */
        public double halfWidth() {
            return (ciHigh - ciLow) / 2;
        }
    }

    /**
     * A load's trials.
     *
     * @param load    the load's label ({@code c=8})
     * @param info    the load as its first trial planned it, trial 0 ({@link StepInfo#pooled()})
     * @param trials  the trials' step labels in run order ({@code c=8 #1 ...})
     * @param metrics {@link #METRICS} name → its statistics over the trials
     */
    public record Load(String load, StepInfo info, List<String> trials, Map<String, Stat> metrics) {
        public Load {
            trials = List.copyOf(trials);
            metrics = java.util.Collections.unmodifiableMap(new LinkedHashMap<>(metrics));
        }

        /** The statistics of one of {@link #METRICS}. */
        public Stat metric(String name) {
            Stat s = metrics.get(name);
            if (s == null) {
                throw new IllegalArgumentException("no trial metric '" + name + "'; known: " + METRICS);
            }
            return s;
        }
    }

    /** Whether any step of the run is a trial of a repeated load. */
    public static boolean repeated(RunResult run) {
        return run.steps().stream().anyMatch(s -> s.info().isTrial());
    }

    /** The trials of each repeated load, in the order the loads first ran; empty when nothing was repeated. */
    public static List<Load> of(RunResult run) {
        List<Load> loads = new ArrayList<>();
        trialsOf(run).forEach((load, steps) -> {
            Map<String, Stat> m = new LinkedHashMap<>();
            for (String name : METRICS) {
                ToDoubleFunction<StepResult> f = metric(name);
                m.put(name, Stat.of(steps.stream().map(s -> f.applyAsDouble(s)).toList()));
            }
            loads.add(new Load(load, steps.get(0).info().pooled(), steps.stream().map(s -> s.info().label()).toList(), m));
        });
        return loads;
    }

    /**
     * Each repeated load's trials in run order, by load label, the loads in the order they first ran; a load measured
     * once is absent.
     */
    public static Map<String, List<StepResult>> trialsOf(RunResult run) {
        Map<String, List<StepResult>> m = byLoad(run);
        m.values().removeIf(steps -> !steps.get(0).info().isTrial());
        return m;
    }

    /**
     * The run with each repeated load's trials pooled into one step ({@link StepPool}: histograms merged, rates
     * weighted by window), at the place of its first trial, labelled by the load; steps measured once as they are.
     * A run without trials is returned as it is.
     */
    public static RunResult pooled(RunResult run) {
        if (!repeated(run)) {
            return run;
        }
        List<StepResult> steps = new ArrayList<>();
        byLoad(run).forEach((load, trials) -> steps.add(trials.get(0).info().isTrial() ? StepPool.pool(trials) : trials.get(0)));
        return new RunResult(run.runId(), steps, run.complete(), run.startTime(), run.target(), run.background(),
                run.directory());
    }

    /** The run's steps grouped by load label, in the order the loads first ran. */
    private static Map<String, List<StepResult>> byLoad(RunResult run) {
        Map<String, List<StepResult>> m = new LinkedHashMap<>();
        for (StepResult s : run.steps()) {
            m.computeIfAbsent(s.info().loadLabel(), k -> new ArrayList<>()).add(s);
        }
        return m;
    }

    /** One of {@link #METRICS} of a step; latencies from the intended start in open loop. */
    static ToDoubleFunction<StepResult> metric(String name) {
        return switch (name) {
            case "output_tokens_per_s" -> s -> s.rates().outputTokensPerS();
            case "requests_per_s" -> s -> s.rates().requestsPerS();
            case "goodput_rps" -> s -> s.rates().goodputRps();
            case "ttft_p50_ms" -> s -> ttft(s).p50();
            case "ttft_p99_ms" -> s -> ttft(s).p99();
            case "itl_p50_ms" -> s -> s.latency().itl().p50();
            case "itl_p99_ms" -> s -> s.latency().itl().p99();
            case "tpot_p50_ms" -> s -> s.latency().tpot().p50();
            case "tpot_p99_ms" -> s -> s.latency().tpot().p99();
            case "e2e_p50_ms" -> s -> e2e(s).p50();
            case "e2e_p99_ms" -> s -> e2e(s).p99();
            default -> throw new IllegalArgumentException("no trial metric '" + name + "'; known: " + METRICS);
        };
    }

    private static Distribution ttft(StepResult s) {
        return s.info().isOpenLoop() ? s.latency().ttftSched() : s.latency().ttft();
    }

    private static Distribution e2e(StepResult s) {
        return s.info().isOpenLoop() ? s.latency().e2eSched() : s.latency().e2e();
    }

    /**
     * Student's t quantile for a two-sided interval of {@code confidence} with {@code df} degrees of freedom, e.g.
     * 4.303 for 95 % and 2 degrees (Apache Commons Math).
     */
    public static double tQuantile(double confidence, double df) {
        if (!(df > 0) || !(confidence > 0 && confidence < 1)) {
            throw new IllegalArgumentException("a t quantile needs degrees of freedom > 0 and a confidence in (0, 1), got "
                    + df + " and " + confidence);
        }
        return new TDistribution(null, df).inverseCumulativeProbability(0.5 + confidence / 2);
    }
}
