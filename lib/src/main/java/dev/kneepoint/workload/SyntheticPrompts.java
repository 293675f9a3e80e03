package dev.kneepoint.workload;

import java.util.SplittableRandom;

/**
 * Synthetic prompt text of a chosen length in words, deterministic by seed and index.
 *
 * <p>Every word is 2 to 6 lowercase ASCII letters and words are separated by single spaces, so
 * the embedded simulator's tokenizer counts exactly one token per word; real tokenizers count
 * close to one token per word for such text (calibrating against the server's own tokenizer is
 * the workload layer's job). Each index gets different words, so repeated requests do not share a
 * prefix unless a shared prefix is asked for.
 */
public final class SyntheticPrompts {
    static final String[] WORDS = {
        "alpha", "beta", "gamma", "delta", "omega", "sigma", "kappa", "lambda", "theta", "zeta",
        "river", "stone", "cloud", "light", "table", "chair", "green", "blue", "north", "south",
        "east", "west", "apple", "grape", "lemon", "melon", "bread", "water", "fire", "earth",
        "metal", "wood", "paper", "glass", "sound", "voice", "music", "song", "dance", "story",
        "house", "road", "city", "field", "plant", "tree", "leaf", "root", "seed", "bloom",
        "quick", "slow", "tall", "short", "bright", "dark", "warm", "cold", "soft", "hard",
        "think", "write", "read", "speak", "learn", "build", "carry", "train", "count", "model",
    };

    private final long seed;

    public SyntheticPrompts(long seed) {
        this.seed = seed;
    }

    /** A prompt of exactly {@code words} words for request {@code index}. */
    public String prompt(long index, int words) {
        if (words < 1) {
            throw new IllegalArgumentException("prompt length must be at least 1 word, got " + words);
        }
        SplittableRandom rnd = new SplittableRandom(seed * 0x9E3779B97F4A7C15L + index);
        StringBuilder sb = new StringBuilder(words * 6);
        for (int i = 0; i < words; i++) {
            if (i > 0) {
                sb.append(' ');
            }
            sb.append(WORDS[rnd.nextInt(WORDS.length)]);
        }
        return sb.toString();
    }
}
