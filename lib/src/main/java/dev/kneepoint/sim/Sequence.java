package dev.kneepoint.sim;

import java.util.Arrays;

/** One request's state inside the engine model. Mutated only by the engine's thread. */
final class Sequence {
    enum State { WAITING, RUNNING, FINISHED, ABORTED }

    final long id;
    final int promptTokens;
    final long[] blockHashes;
    final int targetOutput;
    final Object attachment;
    /**
     * A pooling request's input (embedding, rerank, score): its prefill is all it costs, and its one output is
     * the pooled result, not a generated token (no TTFT, inter-token or end-to-end latency, no generation tokens).
     */
    final boolean pooling;
    State state = State.WAITING;
    boolean inPrefill = true;
    int computed;
    int generated;
    int privateBlocks;
    long[] sharedRefs = new long[4];
    int sharedCount;
    int registeredBlocks;
    long arrivalNanos;
    long firstTokenNanos = -1;
    long lastTokenNanos = -1;
    /** Prompt tokens the prefix cache held at the first admission (vLLM's {@code num_cached_tokens}); -1 before it. */
    int cachedTokens = -1;

    /**
     * @param promptIds the prompt's token ids: their count, and the chained hashes of their full blocks of
     *        {@code blockSize} tokens (for the prefix cache), are kept
     * @param targetOutput output tokens this request will generate (>= 1)
     * @param attachment the engine's per-request payload (the token sink), opaque to the model
     */
    Sequence(long id, long[] promptIds, int blockSize, int targetOutput, Object attachment) {
        this(id, promptIds, blockSize, targetOutput, attachment, false);
    }

    private Sequence(long id, long[] promptIds, int blockSize, int targetOutput, Object attachment, boolean pooling) {
        this.id = id;
        this.promptTokens = promptIds.length;
        this.blockHashes = blockHashes(promptIds, blockSize);
        this.targetOutput = targetOutput;
        this.attachment = attachment;
        this.pooling = pooling;
    }

    /** A pooling input: one prefill of {@code promptIds}, whose end (one output) is the pooled result. */
    static Sequence pooling(long id, long[] promptIds, int blockSize, Object attachment) {
        return new Sequence(id, promptIds, blockSize, 1, attachment, true);
    }

    /**
     * The tokens a prefill computes: the prompt, and after a preemption (which recomputes) also the tokens
     * generated before it (they cannot grow while the sequence is in prefill).
     */
    int prefillTarget() {
        return promptTokens + generated;
    }

    int heldBlocks() {
        return privateBlocks + sharedCount;
    }

    void addSharedRef(long h) {
        if (sharedCount == sharedRefs.length) {
            sharedRefs = Arrays.copyOf(sharedRefs, sharedCount * 2);
        }
        sharedRefs[sharedCount++] = h;
    }

    /** Chained hashes of each full block of {@code tokenIds} (block i's hash covers blocks 0..i). */
    private static long[] blockHashes(long[] tokenIds, int blockSize) {
        long[] out = new long[tokenIds.length / blockSize];
        long h = 0x9E3779B97F4A7C15L;
        for (int b = 0; b < out.length; b++) {
            for (int i = b * blockSize; i < (b + 1) * blockSize; i++) {
                h = mix(h ^ tokenIds[i]);
            }
            out[b] = h;
        }
        return out;
    }

    /** splitmix64 finaliser. */
    static long mix(long z) {
        z = (z ^ (z >>> 30)) * 0xBF58476D1CE4E5B9L;
        z = (z ^ (z >>> 27)) * 0x94D049BB133111EBL;
        return z ^ (z >>> 31);
    }
}
