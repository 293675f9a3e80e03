package dev.kneepoint.sim;

/** Receives a sequence's tokens from the engine. Called on the engine thread; must not block. */
interface TokenSink {
    /**
     * @param tokens new tokens in this step (>= 1)
     * @param generated output tokens generated so far, these included
     * @param finished whether this was the last step of the sequence
     * @param scheduledNanos {@link System#nanoTime()} at which the model emits them
     */
    void onTokens(int tokens, int generated, boolean finished, long scheduledNanos);
}
