package dev.kneepoint.workload;

import dev.kneepoint.client.ApiKind;
import dev.kneepoint.client.TargetConfig;

/**
 * How prompt lengths were made exact for a target: with its own {@code /tokenize} when it answers, else with
 * the four-characters-per-token estimate, flagged.
 *
 * @param calibrator  the calibrator every workload of the matrix or procedure shares (measured once)
 * @param exact       true when the server's tokenizer was used
 * @param description what was used and, for an estimate, why
 */
public record Calibration(PromptCalibrator calibrator, boolean exact, String description) {

    /**
     * Measures the target's tokenizer, falling back to a flagged estimate when it has no {@code /tokenize}.
     * An Ollama target ({@code ollama-generate} / {@code ollama-chat}) is measured with
     * {@link TokenCounter#ollama}; any other target whose {@code /tokenize} fails is tried as an Ollama
     * server too (its OpenAI-compatible {@code /v1} has no {@code /tokenize}, but {@code /api/generate}
     * reports {@code prompt_eval_count}) before the estimate.
     */
    public static Calibration of(TargetConfig target) {
        try {
            PromptCalibrator c = PromptCalibrator.measure(TokenCounter.server(target));
            return new Calibration(c, true, "exact: " + c.counter().describe());
        } catch (RuntimeException e) {
            String why = "the target's /tokenize failed: " + e.getMessage();
            if (target.apiKind() != ApiKind.OLLAMA_GENERATE && target.apiKind() != ApiKind.OLLAMA_CHAT) {
                try {
                    PromptCalibrator c = PromptCalibrator.measure(TokenCounter.ollama(target));
                    return new Calibration(c, true, "exact: " + c.counter().describe() + " (no /tokenize)");
                } catch (RuntimeException notOllama) {
                    why += "; not an Ollama server either: " + notOllama.getMessage();
                }
            }
            PromptCalibrator c = PromptCalibrator.measure(TokenCounter.estimate());
            return new Calibration(c, false, "ESTIMATE (" + c.counter().describe() + "): " + why);
        }
    }
}
