package dev.kneepoint.cli;

import dev.kneepoint.sweep.Sweep;
import dev.kneepoint.workload.LengthDistribution;
import dev.kneepoint.workload.Lengths;
import picocli.CommandLine.ITypeConverter;
import picocli.CommandLine.Option;
import picocli.CommandLine.TypeConversionException;

/**
 * The synthetic requests' lengths: prompt words (the server's tokens with {@code --calibrate}) and the output asked
 * for, each fixed or a distribution drawn per request ({@link Lengths#parse}), and a prefix they share or the turns of their sessions. Defaults: the sweep's
 * ({@link dev.kneepoint.sweep.SweepDefaults#INPUT_TOKENS}, {@link dev.kneepoint.sweep.SweepDefaults#OUTPUT_TOKENS}),
 * or a command's own ({@link OptionDefaults.Own}: {@code demo}'s).
 */
final class LengthOptions {
    @Option(names = "--input-tokens", converter = Converter.class, paramLabel = "LENGTH",
            description = "Synthetic prompt length: words of a synthetic vocabulary (about one token each; the "
                    + "server's tokens with --calibrate), fixed or drawn per request: N, uniform:MIN..MAX, "
                    + "normal:MEAN,SD, lognormal:MEAN,SD, empirical:A,B,... (default: ${DEFAULT-VALUE})")
    LengthDistribution inputTokens;

    @Option(names = "--output-tokens", converter = Converter.class, paramLabel = "LENGTH",
            description = "max_tokens per request (with ignore_eos the exact answer length), fixed or drawn per "
                    + "request like --input-tokens, e.g. uniform:32..96 so that answers end at different times "
                    + "(default: ${DEFAULT-VALUE})")
    LengthDistribution outputTokens;

    @Option(names = "--shared-prefix", paramLabel = "TOKENS", description = "The synthetic prompts share a prefix of "
            + "this length (a system prompt, a RAG context) within --prefixes groups; --input-tokens stays the whole "
            + "prompt, prefix included")
    Integer sharedPrefix;

    @Option(names = "--prefixes", paramLabel = "N", description = "How many different shared prefixes with "
            + "--shared-prefix: request i shares group i mod N's (default: 1)")
    Integer prefixes;

    @Option(names = "--multi-turn", paramLabel = "TURNS", description = "The synthetic prompts become chat sessions "
            + "of this many turns: each turn a new user message of --input-tokens on top of the session's real history, "
            + "sent when the previous answer ended (default: 1, single requests)")
    Integer turns;

    /** {@code sweep} with these lengths, shared prefix and turns; returns it. */
    Sweep applyTo(Sweep sweep) {
        if (turns != null) {
            sweep.multiTurn(turns);
        }
        if (sharedPrefix == null && prefixes != null) {
            throw new IllegalArgumentException("--prefixes applies with --shared-prefix only: add --shared-prefix TOKENS");
        }
        if (sharedPrefix != null) {
            sweep.sharedPrefix(sharedPrefix, prefixes == null ? 1 : prefixes);
        }
        return sweep.inputTokens(inputTokens).outputTokens(outputTokens);
    }

    /** {@link Lengths#parse}, its message kept. */
    static final class Converter implements ITypeConverter<LengthDistribution> {
        @Override
        public LengthDistribution convert(String value) {
            try {
                return Lengths.parse(value);
            } catch (IllegalArgumentException e) {
                throw new TypeConversionException(e.getMessage());
            }
        }
    }
}
