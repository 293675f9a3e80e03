package dev.kneepoint.sim;

import java.util.List;

/**
 * What one engine step did.
 *
 * @param durationNanos modelled duration, jitter included
 * @param prefillTokens prefill tokens computed
 * @param decodeSeqs sequences that decoded
 * @param contextTokens summed context length of scheduled sequences
 * @param preempted sequences preempted in this step
 * @param emissions token outputs of this step, in scheduling order
 */
record EngineStep(long durationNanos, int prefillTokens, int decodeSeqs, long contextTokens, int preempted,
                  List<Emission> emissions) {

    /**
     * Tokens one sequence produced in this step.
     *
     * @param seq the sequence
     * @param tokens new output tokens (>= 1)
     * @param finished whether the sequence reached its target length
     */
    record Emission(Sequence seq, int tokens, boolean finished) {
    }
}
