package dev.kneepoint.load;

import dev.kneepoint.metrics.Problems;
import java.math.BigDecimal;
import java.util.Arrays;
import java.util.List;
import java.util.Locale;
import java.util.SplittableRandom;

/**
 * When the requests of an open-loop step should start: a pure, seeded function from request index to
 * intended start offset (nanoseconds from the step start), in the manner of k6's {@code cal()} and
 * wrk2's {@code usec_to_next_send}. The executor only fires at absolute {@code stepStart + offset(i)}.
 *
 * <p>Four processes: {@link #constant} (period {@code 1/rate}), {@link #poisson} (exponential
 * inter-arrivals), {@link #gamma} (gamma inter-arrivals with mean {@code 1/rate} and coefficient of
 * variation {@code cv}; {@code cv = 1} is distributed like Poisson, {@code cv > 1} is burstier,
 * {@code cv < 1} smoother) and {@link #trace} (the recorded instants of a request trace, time-scaled).
 * The first request is at offset 0 for every process. Offsets are the
 * cumulative sums of the inter-arrival times, each rounded from the exact sum (no drift from
 * per-gap rounding). The same plan, horizon and count always give the same offsets.
 *
 * <p>Instances are immutable values.
 */
public final class ArrivalPlan {

    /** The arrival processes. */
    public enum Process { CONSTANT, POISSON, GAMMA, TRACE }

    /** A trace's nominal rate uses a span of at least this much (a trace whose requests share one instant). */
    static final long MIN_TRACE_SPAN_NANOS = 1_000_000L;

    private final Process process;
    private final double rateRps;
    private final double cv;
    private final long seed;
    /** TRACE only: the trace's offsets (nanos from its first request) before scaling; null otherwise. */
    private final long[] trace;
    private final double timeScale;

    private ArrivalPlan(long[] trace, double timeScale) {
        this.process = Process.TRACE;
        this.trace = trace;
        this.timeScale = timeScale;
        this.cv = Double.NaN;
        this.seed = 0;
        long span = Math.round(trace[trace.length - 1] / timeScale);
        this.rateRps = trace.length / (Math.max(span, MIN_TRACE_SPAN_NANOS) / 1e9);
    }

    private ArrivalPlan(Process process, double rateRps, double cv, long seed) {
        new Problems()
                .check(rateRps > 0 && !Double.isInfinite(rateRps),
                        "rate must be a finite number > 0 requests/s, got " + rateRps)
                .check(cv > 0 && !Double.isInfinite(cv),
                        "cv (coefficient of variation of inter-arrival times) must be a finite number > 0, got " + cv)
                .throwPlainIfAny("Invalid " + process.name().toLowerCase(Locale.ROOT) + " arrival plan");
        this.process = process;
        this.rateRps = rateRps;
        this.cv = cv;
        this.seed = seed;
        this.trace = null;
        this.timeScale = 1.0;
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

    /**
     * The instants of a request trace: request {@code i} at {@code offsetsNanos[i] / timeScale} (rounded to the
     * nanosecond), so {@code timeScale} 2 replays the trace twice as fast and 0.5 at half speed. Its nominal
     * {@link #rateRps()} is {@code count / scaled span} (the span taken as at least 1 ms). A step plans the
     * instants that fall before its horizon, as for any process; the trace ends the plan when it runs out.
     *
     * @param offsetsNanos non-empty, non-decreasing, &gt;= 0, nanoseconds from the trace's start (copied)
     * @param timeScale    speed-up factor, finite and &gt; 0 (1: as recorded)
     * @throws IllegalArgumentException listing every problem
     */
    public static ArrivalPlan trace(long[] offsetsNanos, double timeScale) {
        Problems problems = new Problems();
        if (offsetsNanos == null || offsetsNanos.length == 0) {
            problems.add("a trace needs at least one request instant");
        } else {
            for (int i = 0; i < offsetsNanos.length; i++) {
                if (offsetsNanos[i] < 0 || (i > 0 && offsetsNanos[i] < offsetsNanos[i - 1])) {
                    problems.add("trace offsets must be >= 0 and non-decreasing; offset " + i + " is "
                            + offsetsNanos[i] + " ns" + (i > 0 ? " after " + offsetsNanos[i - 1] + " ns" : ""));
                    break;
                }
            }
        }
        problems.check(timeScale > 0 && !Double.isInfinite(timeScale),
                        "time scale must be a finite number > 0 (2 = twice as fast), got " + timeScale)
                .throwPlainIfAny("Invalid trace arrival plan");
        return new ArrivalPlan(offsetsNanos.clone(), timeScale);
    }

    /**
     * The same process and seed at another mean rate (for rate ladders). For a trace: the same trace, time-scaled
     * so that its nominal rate is {@code newRateRps}.
     */
    public ArrivalPlan withRate(double newRateRps) {
        if (process == Process.TRACE) {
            if (!(newRateRps > 0) || Double.isInfinite(newRateRps)) {
                throw new IllegalArgumentException("Invalid trace arrival plan: rate must be a finite number > 0 "
                        + "requests/s, got " + newRateRps);
            }
            return new ArrivalPlan(trace, timeScale * newRateRps / rateRps);
        }
        return new ArrivalPlan(process, newRateRps, cv, seed);
    }

    /** The same process at the same rate with another seed (a trace or constant plan, which draw nothing, as is). */
    public ArrivalPlan withSeed(long newSeed) {
        return process == Process.TRACE || process == Process.CONSTANT ? this
                : new ArrivalPlan(process, rateRps, cv, newSeed);
    }

    /** The same trace at another speed-up factor. */
    public ArrivalPlan withTimeScale(double newTimeScale) {
        if (process != Process.TRACE) {
            throw new IllegalStateException("only a trace plan has a time scale; this is " + label());
        }
        return trace(trace, newTimeScale);
    }

    /** A trace's speed-up factor (1 for the other processes). */
    public double timeScale() {
        return timeScale;
    }

    /** A trace's scaled span, first to last instant, in nanoseconds; -1 for the other processes. */
    public long traceSpanNanos() {
        return process == Process.TRACE ? Math.round(trace[trace.length - 1] / timeScale) : -1;
    }

    public Process process() {
        return process;
    }

    public double rateRps() {
        return rateRps;
    }

    /** Coefficient of variation of the inter-arrival times (0 for constant, NaN for a trace: not a parameter). */
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
            case TRACE -> "trace(scale=" + plain(timeScale) + ")";
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
        if (process == Process.TRACE) {
            return traceOffsets(horizonNanos, countFromNanos, maxAfter);
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

    private long[] traceOffsets(long horizonNanos, long countFromNanos, long maxAfter) {
        long[] out = new long[trace.length];
        int n = 0;
        long counted = 0;
        for (long raw : trace) {
            long offset = timeScale == 1.0 ? raw : Math.round(raw / timeScale);
            if (offset >= horizonNanos || counted >= maxAfter) {
                break;
            }
            out[n++] = offset;
            if (offset >= countFromNanos) {
                counted++;
            }
        }
        return n == out.length ? out : Arrays.copyOf(out, n);
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
                && Double.compare(cv(), p.cv()) == 0 && (process == Process.CONSTANT || seed == p.seed)
                && Double.compare(timeScale, p.timeScale) == 0 && Arrays.equals(trace, p.trace);
    }

    @Override
    public int hashCode() {
        return java.util.Objects.hash(process, rateRps, cv(), timeScale, trace == null ? 0 : trace.length);
    }

    @Override
    public String toString() {
        if (process == Process.TRACE) {
            return String.format(Locale.ROOT, "ArrivalPlan[%s, %d requests over %.3f s, rate=%.4g rps]", label(),
                    trace.length, traceSpanNanos() / 1e9, rateRps);
        }
        return "ArrivalPlan[" + label() + ", rate=" + plain(rateRps) + " rps"
                + (process == Process.CONSTANT ? "" : ", seed=" + seed) + "]";
    }
}
