package dev.kneepoint.sim;

/**
 * Receives a sequence's tokens from the engine. Called on the engine thread, or on its second emitting
 * thread ({@link Emitter}) during a burst; never on two threads at once for one sequence, and always in
 * order. Must not block.
 */
interface TokenSink {
    /**
     * @param tokens new tokens in this step (>= 1)
     * @param generated output tokens generated so far, these included
     * @param finished whether this was the last step of the sequence
     * @param scheduledNanos {@link System#nanoTime()} at which the model emits them
     */
    void onTokens(int tokens, int generated, boolean finished, long scheduledNanos);
}
