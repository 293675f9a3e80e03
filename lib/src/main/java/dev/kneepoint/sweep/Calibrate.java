package dev.kneepoint.sweep;

/**
 * Whether a sweep cuts its synthetic (and trace) prompts to the server's own token count, measured once before the
 * first step ({@link Sweep#calibrate(boolean)}).
 */
public enum Calibrate {
    /** Prompts of words of the synthetic vocabulary, about one token each (exactly one on the simulator). */
    OFF,
    /**
     * Exact where the target has a tokenizer ({@code /tokenize}, Ollama's {@code prompt_eval_count}); else words,
     * and the run's manifest and header say the lengths are estimates.
     */
    AUTO,
    /** Exact, or the sweep does not start: a target without a tokenizer is an error naming what was tried. */
    ON
}
