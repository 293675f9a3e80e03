package dev.kneepoint.load;

import java.math.BigDecimal;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.Locale;
import java.util.SplittableRandom;

/**
 * When the requests of an open-loop step should start: a pure, seeded function from request index to
 * intended start offset (nanoseconds from the step start), in the manner of k6's {@code cal()} and
 * wrk2's {@code usec_to_next_send}. The executor only fires at absolute {@code stepStart + offset(i)}.
 *
 * <p>Three processes: {@link #constant} (period {@code 1/rate}), {@link #poisson} (exponential
 * inter-arrivals) and {@link #gamma} (gamma inter-arrivals with mean {@code 1/rate} and coefficient of
 * variation {@code cv}; {@code cv = 1} is distributed like Poisson, {@code cv > 1} is burstier,
 * {@code cv < 1} smoother). The first request is at offset 0 for every process. Offsets are the
 * cumulative sums of the inter-arrival times, each rounded from the exact sum (no drift from
 * per-gap rounding). The same plan, horizon and count always give the same offsets.
 *
 * <p>Instances are immutable values.
 */
public final class ArrivalPlan {

    /** The arrival processes. */
    public enum Process { CONSTANT, POISSON, GAMMA }

    private final Process process;
    private final double rateRps;
    private final double cv;
    private final long seed;

    private ArrivalPlan(Process process, double rateRps, double cv, long seed) {
        List<String> problems = new ArrayList<>();
        if (!(rateRps > 0) || Double.isInfinite(rateRps)) {
            problems.add("rate must be a finite number > 0 requests/s, got " + rateRps);
        }
        if (!(cv > 0) || Double.isInfinite(cv)) {
            problems.add("cv (coefficient of variation of inter-arrival times) must be a finite number > 0, got " + cv);
        }
        if (!problems.isEmpty()) {
            throw new IllegalArgumentException("Invalid " + process.name().toLowerCase(Locale.ROOT)
                    + " arrival plan: " + String.join("; ", problems));
        }
        this.process = process;
        this.rateRps = rateRps;
        this.cv = cv;
        this.seed = seed;
    }

    /** Evenly spaced arrivals: offset(i) = i / rate, e.g. 4 rps gives 0, 250, 500, 750 ms. */
    public static ArrivalPlan constant(double rateRps) {
        return new ArrivalPlan(Process.CONSTANT, rateRps, 1.0, 0);
    }

    /** A Poisson process: exponential inter-arrivals with mean {@code 1/rate}, seeded. */
    public static ArrivalPlan poisson(double rateRps, long seed) {
        return new ArrivalPlan(Process.POISSON, rateRps, 1.0, seed);
    }

    /**
     * Gamma-distributed inter-arrivals with mean {@code 1/rate} and coefficient of variation {@code cv}
     * (shape {@code 1/cv²}, scale {@code cv²/rate}), seeded.
     */
    public static ArrivalPlan gamma(double rateRps, double cv, long seed) {
        return new ArrivalPlan(Process.GAMMA, rateRps, cv, seed);
    }

    /** The same process and seed at another mean rate (for rate ladders). */
    public ArrivalPlan withRate(double newRateRps) {
        return new ArrivalPlan(process, newRateRps, cv, seed);
    }

    public Process process() {
        return process;
    }

    public double rateRps() {
        return rateRps;
    }

    /** Coefficient of variation of the inter-arrival times (0 for constant). */
    public double cv() {
        return process == Process.CONSTANT ? 0.0 : cv;
    }

    public long seed() {
        return seed;
    }

    /** The process as written in {@code StepInfo.arrival}: {@code constant}, {@code poisson}, {@code gamma(cv=2.0)}. */
    public String label() {
        return switch (process) {
            case CONSTANT -> "constant";
            case POISSON -> "poisson";
            case GAMMA -> "gamma(cv=" + plain(cv) + ")";
        };
    }

    /**
     * The intended start offsets (nanoseconds from the step start), ascending: every arrival with
     * offset {@code < horizonNanos}, at most {@code maxCount} of them. Pass {@code Long.MAX_VALUE} for
     * an unbounded side; at least one must be bounded.
     */
    public long[] offsets(long horizonNanos, long maxCount) {
        return offsets(horizonNanos, 0, maxCount);
    }

    /**
     * Offsets for a step: all arrivals before {@code horizonNanos}, stopping once {@code maxAfter}
     * arrivals at or after {@code countFromNanos} (the end of warm-up) have been planned.
     */
    long[] offsets(long horizonNanos, long countFromNanos, long maxAfter) {
        if (horizonNanos <= 0 || maxAfter <= 0) {
            return new long[0];
        }
        if (horizonNanos == Long.MAX_VALUE && maxAfter == Long.MAX_VALUE) {
            throw new IllegalArgumentException("an arrival plan needs a horizon or a count, got neither");
        }
        Gaps gaps = new Gaps();
        long[] out = new long[16];
        int n = 0;
        long counted = 0;
        double sumNanos = 0;
        while (true) {
            long offset = Math.round(sumNanos);
            if (offset >= horizonNanos || counted >= maxAfter) {
                return Arrays.copyOf(out, n);
            }
            if (n == out.length) {
                out = Arrays.copyOf(out, Math.multiplyExact(n, 2));
            }
            out[n++] = offset;
            if (offset >= countFromNanos) {
                counted++;
            }
            sumNanos = process == Process.CONSTANT ? (n * 1e9) / rateRps : sumNanos + gaps.nextNanos();
        }
    }

    /** The seeded inter-arrival sampler of one offsets() call. */
    private final class Gaps {
        private final SplittableRandom random = new SplittableRandom(seed);

        double nextNanos() {
            double meanNanos = 1e9 / rateRps;
            return process == Process.POISSON
                    ? meanNanos * exponential(random)
                    : meanNanos * cv * cv * gammaUnitScale(random, 1.0 / (cv * cv));
        }
    }

    /** Exp(1): {@code -ln(1 - U)}, U uniform in [0, 1). */
    static double exponential(SplittableRandom random) {
        return -Math.log1p(-random.nextDouble());
    }

    /**
     * Gamma(shape, 1) by Marsaglia and Tsang (2000), "A simple method for generating gamma variables";
     * for shape below 1 the boost {@code Gamma(k) = Gamma(k + 1) · U^(1/k)}.
     */
    static double gammaUnitScale(SplittableRandom random, double shape) {
        if (shape < 1) {
            double u = random.nextDouble();
            return gammaUnitScale(random, shape + 1) * Math.pow(u, 1.0 / shape);
        }
        double d = shape - 1.0 / 3.0;
        double c = 1.0 / Math.sqrt(9.0 * d);
        while (true) {
            double x = random.nextGaussian();
            double v = 1.0 + c * x;
            if (v <= 0) {
                continue;
            }
            v = v * v * v;
            double u = random.nextDouble();
            if (u < 1.0 - 0.0331 * x * x * x * x || Math.log(u) < 0.5 * x * x + d * (1.0 - v + Math.log(v))) {
                return d * v;
            }
        }
    }

    /** A rate or cv without trailing zeros: 4.0 → "4", 0.5 → "0.5". */
    static String plain(double value) {
        return BigDecimal.valueOf(value).stripTrailingZeros().toPlainString();
    }

    @Override
    public boolean equals(Object o) {
        return o instanceof ArrivalPlan p && process == p.process && Double.compare(rateRps, p.rateRps) == 0
                && Double.compare(cv(), p.cv()) == 0 && (process == Process.CONSTANT || seed == p.seed);
    }

    @Override
    public int hashCode() {
        return java.util.Objects.hash(process, rateRps, cv());
    }

    @Override
    public String toString() {
        return "ArrivalPlan[" + label() + ", rate=" + plain(rateRps) + " rps"
                + (process == Process.CONSTANT ? "" : ", seed=" + seed) + "]";
    }
}
