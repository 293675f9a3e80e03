package dev.kneepoint.sim;

/**
 * The step-duration model: {@code overhead + prefillTokens * prefillNanosPerToken + decodeSeqs *
 * decodeNanosPerSeq + contextTokens * attentionNanosPerContextToken}, where {@code contextTokens}
 * sums, over every sequence scheduled in the step, its context length after the step.
 *
 * @param overheadNanos fixed cost
 * @param prefillNanosPerToken cost per prefill token
 * @param decodeNanosPerSeq cost per decoding sequence
 * @param attentionNanosPerContextToken cost per context token
 */
public record StepCost(long overheadNanos, double prefillNanosPerToken, double decodeNanosPerSeq,
                       double attentionNanosPerContextToken) {

    /** The cost model of a configuration. */
    public static StepCost of(SimConfig c) {
        return new StepCost(c.stepOverheadNanos(), c.prefillNanosPerToken(), c.decodeNanosPerSeq(),
                c.attentionNanosPerContextToken());
    }

    /** Duration in nanoseconds of a step with this batch, before jitter. */
    public long nanos(long prefillTokens, long decodeSeqs, long contextTokens) {
        return overheadNanos + Math.round(prefillTokens * prefillNanosPerToken + decodeSeqs * decodeNanosPerSeq
                + contextTokens * attentionNanosPerContextToken);
    }

    /** Modelled TTFT of a lone request with a prompt of {@code promptTokens} that fits one step's budget. */
    public long lonePrefillNanos(int promptTokens) {
        return nanos(promptTokens, 0, promptTokens);
    }

    /** Modelled duration of a batch-1 decode step at context length {@code contextTokens}. */
    public long loneDecodeNanos(int contextTokens) {
        return nanos(0, 1, contextTokens);
    }
}
