package dev.kneepoint.cli;

import dev.kneepoint.sweep.Sweep;
import picocli.CommandLine.Option;

/**
 * The synthetic requests' lengths: prompt words and the output asked for. Defaults: the sweep's
 * ({@link dev.kneepoint.sweep.SweepDefaults#INPUT_TOKENS}, {@link dev.kneepoint.sweep.SweepDefaults#OUTPUT_TOKENS}),
 * or a command's own ({@link OptionDefaults.Own}: {@code demo}'s).
 */
final class LengthOptions {
    @Option(names = "--input-tokens", description = "Synthetic prompt length (default: ${DEFAULT-VALUE})")
    int inputTokens;

    @Option(names = "--output-tokens", description = "max_tokens per request (default: ${DEFAULT-VALUE})")
    int outputTokens;

    /** {@code sweep} with these lengths; returns it. */
    Sweep applyTo(Sweep sweep) {
        return sweep.inputTokens(inputTokens).outputTokens(outputTokens);
    }
}
