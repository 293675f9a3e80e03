package dev.kneepoint.workload;

import java.util.SplittableRandom;

/**
 * Picks one of several choices by weight, deterministically from a seed and a request index: choice {@code k} with
 * probability {@code weight_k / sum(weights)}, the same index always the same choice ({@link MixWorkload}'s classes,
 * {@link ModelMix}'s models). The weights must be positive and finite (the callers check them, naming their own).
 */
final class WeightedPick {
    private final double[] cumulative;
    private final long seed;

    WeightedPick(double[] weights, long seed) {
        this.seed = seed;
        this.cumulative = new double[weights.length];
        double total = 0;
        for (double w : weights) {
            total += w;
        }
        double acc = 0;
        for (int i = 0; i < weights.length; i++) {
            acc += weights[i] / total;
            cumulative[i] = acc;
        }
        cumulative[cumulative.length - 1] = 1.0;
    }

    /** The choice for request {@code index}. */
    int of(long index) {
        double u = new SplittableRandom(LengthDistribution.mix(seed, index)).nextDouble();
        for (int i = 0; i < cumulative.length; i++) {
            if (u < cumulative[i]) {
                return i;
            }
        }
        return cumulative.length - 1;
    }
}
