package dev.kneepoint.sim;

import java.util.SplittableRandom;

/**
 * How many tokens the simulated model "wants" to generate before it would stop on its own
 * (its EOS), when {@code ignore_eos} is not set. The result is then raised to {@code min_tokens}
 * and capped by {@code max_tokens} and the context length.
 */
public sealed interface LengthModel {

    /** A sample (at least 1) drawn with {@code random}. */
    int sample(SplittableRandom random);

    /** Always {@code tokens}. */
    static LengthModel fixed(int tokens) {
        return new Fixed(tokens);
    }

    /** Uniform on {@code [min, max]} inclusive. */
    static LengthModel uniform(int min, int max) {
        return new Uniform(min, max);
    }

    /** Log-normal with the given mean and standard deviation (in tokens), rounded, at least 1. */
    static LengthModel logNormal(double mean, double sd) {
        return new LogNormal(mean, sd);
    }

    /** Always the same length. */
    record Fixed(int tokens) implements LengthModel {
        public Fixed {
            if (tokens < 1) {
                throw new IllegalArgumentException("fixed length must be >= 1, was " + tokens);
            }
        }

        @Override
        public int sample(SplittableRandom random) {
            return tokens;
        }
    }

    /** Uniform integer lengths on {@code [min, max]}. */
    record Uniform(int min, int max) implements LengthModel {
        public Uniform {
            if (min < 1 || max < min) {
                throw new IllegalArgumentException("uniform length needs 1 <= min <= max, was [" + min + ", " + max + "]");
            }
        }

        @Override
        public int sample(SplittableRandom random) {
            return random.nextInt(min, max + 1);
        }
    }

    /** Log-normal lengths parameterised by their mean and standard deviation. */
    record LogNormal(double mean, double sd) implements LengthModel {
        public LogNormal {
            if (!(mean >= 1) || !(sd >= 0)) {
                throw new IllegalArgumentException("log-normal length needs mean >= 1 and sd >= 0, was " + mean + ", " + sd);
            }
        }

        @Override
        public int sample(SplittableRandom random) {
            double sigma2 = Math.log(1 + (sd * sd) / (mean * mean));
            double mu = Math.log(mean) - sigma2 / 2;
            double g = gaussian(random);
            return (int) Math.max(1, Math.round(Math.exp(mu + Math.sqrt(sigma2) * g)));
        }
    }

    /** Standard normal sample by Box-Muller (deterministic given the generator's state). */
    static double gaussian(SplittableRandom random) {
        double u1 = 1.0 - random.nextDouble();
        double u2 = random.nextDouble();
        return Math.sqrt(-2 * Math.log(u1)) * Math.cos(2 * Math.PI * u2);
    }
}
