package dev.kneepoint.workload;

import java.util.Arrays;
import java.util.Collection;
import java.util.List;
import java.util.SplittableRandom;

/**
 * Factories for {@link LengthDistribution}s of input and output token lengths.
 *
 * <pre>{@code
 * Lengths.fixed(128); Lengths.uniform(64, 256); Lengths.normal(512, 64);
 * Lengths.logNormal(512, 128); Lengths.empirical(100, 200, 350);
 * }</pre>
 */
public final class Lengths {
    private Lengths() {
    }

    /** Always {@code tokens}. */
    public static LengthDistribution fixed(int tokens) {
        return new LengthDistribution.Fixed(tokens);
    }

    /** Uniform in {@code [min, max]}, both included. */
    public static LengthDistribution uniform(int min, int max) {
        return new LengthDistribution.Uniform(min, max);
    }

    /** Normal, rounded and truncated at {@code >= 1}. */
    public static LengthDistribution normal(double mean, double sd) {
        return new LengthDistribution.Normal(mean, sd);
    }

    /** Log-normal with this mean and standard deviation of the lengths themselves. */
    public static LengthDistribution logNormal(double mean, double sd) {
        return new LengthDistribution.LogNormal(mean, sd);
    }

    /** Uniform draws from these observed lengths. */
    public static LengthDistribution empirical(int... values) {
        return new LengthDistribution.Empirical(Arrays.stream(values).boxed().toList(), "list");
    }

    /** Uniform draws from these observed lengths; {@code source} names where they came from. */
    public static LengthDistribution empirical(Collection<Integer> values, String source) {
        return new LengthDistribution.Empirical(List.copyOf(values), source);
    }

    static void require(boolean ok, String message) {
        if (!ok) {
            throw new IllegalArgumentException(message);
        }
    }

    /** A standard normal draw (Box-Muller; SplittableRandom has no nextGaussian before Java 17's RandomGenerator default). */
    static double gaussian(SplittableRandom rnd) {
        double u1 = rnd.nextDouble();
        double u2 = rnd.nextDouble();
        return Math.sqrt(-2 * Math.log1p(-u1)) * Math.cos(2 * Math.PI * u2);
    }
}
