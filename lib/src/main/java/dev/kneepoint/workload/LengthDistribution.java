package dev.kneepoint.workload;

import java.util.List;
import java.util.Locale;
import java.util.SplittableRandom;

/**
 * A distribution of token lengths (input or output), sampled deterministically by seed and request
 * index: {@code sample(seed, i)} is always the same number, so a rerun sends the same lengths.
 * Every sample is at least 1. Make them with {@link Lengths}.
 */
public sealed interface LengthDistribution {
    /**
     * XOR-ed into the seed for output lengths ({@code sample(seed ^ OUTPUT_STREAM, i)}), so that a request's input
     * and output lengths are independent draws under one seed.
     */
    long OUTPUT_STREAM = 0x5DEECE66DL;

    /** The length for request {@code index} under {@code seed} (at least 1). */
    default int sample(long seed, long index) {
        return draw(new SplittableRandom(mix(seed, index)));
    }

    /** One draw from {@code rnd} (at least 1). */
    int draw(SplittableRandom rnd);

    /** The distribution's mean (before rounding and truncation, for normal and log-normal). */
    double mean();

    /** A short description, e.g. {@code lognormal(mean=512, sd=128)}. */
    String describe();

    /** The same distribution with samples clamped to {@code [min, max]}. */
    default LengthDistribution clamp(int min, int max) {
        return new Clamped(this, min, max);
    }

    /** Always {@code tokens}. */
    record Fixed(int tokens) implements LengthDistribution {
        public Fixed {
            Lengths.require(tokens >= 1, "fixed length must be >= 1, got " + tokens);
        }
        @Override public int draw(SplittableRandom rnd) { return tokens; }
        @Override public double mean() { return tokens; }
        @Override public String describe() { return "fixed(" + tokens + ")"; }
    }

    /** Uniform integers in {@code [min, max]}, both included. */
    record Uniform(int min, int max) implements LengthDistribution {
        public Uniform {
            Lengths.require(min >= 1 && max >= min, "uniform needs 1 <= min <= max, got [" + min + ", " + max + "]");
        }
        @Override public int draw(SplittableRandom rnd) { return min + rnd.nextInt(max - min + 1); }
        @Override public double mean() { return (min + max) / 2.0; }
        @Override public String describe() { return "uniform(" + min + ".." + max + ")"; }
    }

    /** Normal with this mean and standard deviation, rounded, truncated at {@code >= 1} (redrawn below). */
    record Normal(double mu, double sd) implements LengthDistribution {
        public Normal {
            Lengths.require(mu >= 1 && sd >= 0, "normal needs mean >= 1 and sd >= 0, got " + mu + ", " + sd);
        }
        @Override public int draw(SplittableRandom rnd) {
            for (int i = 0; i < 1000; i++) {
                long v = Math.round(mu + sd * Lengths.gaussian(rnd));
                if (v >= 1) {
                    return (int) Math.min(v, Integer.MAX_VALUE);
                }
            }
            return 1;
        }
        @Override public double mean() { return mu; }
        @Override public String describe() { return String.format(Locale.ROOT, "normal(mean=%.6g, sd=%.6g)", mu, sd); }
    }

    /**
     * Log-normal whose samples have this mean and standard deviation (not those of the logarithm):
     * {@code sigma^2 = ln(1 + sd^2/mean^2)}, {@code mu = ln(mean) - sigma^2/2}; rounded, at least 1.
     */
    record LogNormal(double lengthMean, double lengthSd) implements LengthDistribution {
        public LogNormal {
            Lengths.require(lengthMean >= 1 && lengthSd >= 0,
                    "log-normal needs mean >= 1 and sd >= 0, got " + lengthMean + ", " + lengthSd);
        }
        /** Standard deviation of the logarithm. */
        public double sigma() { return Math.sqrt(Math.log1p(lengthSd * lengthSd / (lengthMean * lengthMean))); }
        /** Mean of the logarithm. */
        public double mu() { double s = sigma(); return Math.log(lengthMean) - s * s / 2; }
        @Override public int draw(SplittableRandom rnd) {
            long v = Math.round(Math.exp(mu() + sigma() * Lengths.gaussian(rnd)));
            return (int) Math.max(1, Math.min(v, Integer.MAX_VALUE));
        }
        @Override public double mean() { return lengthMean; }
        @Override public String describe() {
            return String.format(Locale.ROOT, "lognormal(mean=%.6g, sd=%.6g)", lengthMean, lengthSd);
        }
    }

    /** Draws uniformly from observed lengths (e.g. a dataset's). */
    record Empirical(List<Integer> values, String source) implements LengthDistribution {
        public Empirical {
            values = List.copyOf(values);
            Lengths.require(!values.isEmpty(), "empirical distribution needs at least one value");
            Lengths.require(values.stream().allMatch(v -> v >= 1), "empirical lengths must all be >= 1");
            source = source == null ? "list" : source;
        }
        @Override public int draw(SplittableRandom rnd) { return values.get(rnd.nextInt(values.size())); }
        @Override public double mean() { return values.stream().mapToInt(Integer::intValue).average().orElse(0); }
        @Override public String describe() {
            return String.format(Locale.ROOT, "empirical(n=%d, mean=%.1f, from %s)", values.size(), mean(), source);
        }
    }

    /** Another distribution's samples clamped to {@code [min, max]}. */
    record Clamped(LengthDistribution inner, int min, int max) implements LengthDistribution {
        public Clamped {
            Lengths.require(inner != null && min >= 1 && max >= min, "clamp needs 1 <= min <= max, got [" + min + ", " + max + "]");
        }
        @Override public int draw(SplittableRandom rnd) { return Math.max(min, Math.min(max, inner.draw(rnd))); }
        @Override public double mean() { return Math.max(min, Math.min(max, inner.mean())); }
        @Override public String describe() { return inner.describe() + " clamped to [" + min + ", " + max + "]"; }
    }

    /** Mixes a seed and an index into one well-spread 64-bit seed (SplitMix64 finaliser). */
    static long mix(long seed, long index) {
        long z = seed * 0x9E3779B97F4A7C15L + index + 0x632BE59BD9B4E019L;
        z = (z ^ (z >>> 30)) * 0xBF58476D1CE4E5B9L;
        z = (z ^ (z >>> 27)) * 0x94D049BB133111EBL;
        return z ^ (z >>> 31);
    }
}
