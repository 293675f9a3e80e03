package dev.kneepoint.cli;

import dev.kneepoint.sweep.Sweep;
import java.util.List;
import picocli.CommandLine.Model.CommandSpec;
import picocli.CommandLine.Option;
import picocli.CommandLine.Spec;

/**
 * Mixed traffic from the command line ({@link Sweep#mix}): {@code --mix TAG=WEIGHT:IN/OUT,...}, weighted classes of
 * synthetic prompts, each with its own lengths and tag, in place of {@code --input-tokens} and
 * {@code --output-tokens}.
 */
final class MixOptions {
    private static final String FORM = "TAG=WEIGHT:IN/OUT[,...], e.g. --mix chat=0.7:128/256,rag=0.3:2048/64";

    @Option(names = "--mix", split = ",", paramLabel = "TAG=WEIGHT:IN/OUT", description = "Mixed traffic: classes of "
            + "synthetic prompts, each a WEIGHT share of the requests with prompts of IN and answers of OUT tokens, "
            + "tagged TAG (reported apart), e.g. chat=0.7:128/256,rag=0.3:2048/64; replaces --input-tokens and "
            + "--output-tokens")
    List<String> classes;

    @Spec(Spec.Target.MIXEE)
    CommandSpec command;

    /** {@code sweep} with the mix's classes, when given; returns it. */
    Sweep applyTo(Sweep sweep) {
        if (classes == null || classes.isEmpty()) {
            return sweep;
        }
        for (String o : new String[] {"--input-tokens", "--output-tokens", "--dataset", "--trace", "--shared-prefix",
            "--multi-turn"}) {
            if (command.commandLine().getParseResult().hasMatchedOption(o)) {
                throw new IllegalArgumentException("--mix gives each class its own prompts and lengths: it does not "
                        + "combine with " + o + "; remove one");
            }
        }
        for (String c : classes) {
            int eq = c.indexOf('=');
            int colon = c.indexOf(':', eq + 1);
            int slash = c.indexOf('/', colon + 1);
            if (eq < 1 || colon < 0 || slash < 0) {
                throw new IllegalArgumentException("--mix takes " + FORM + "; got '" + c + "'");
            }
            try {
                sweep.mix(c.substring(0, eq).strip(), Double.parseDouble(c.substring(eq + 1, colon).strip()),
                        Integer.parseInt(c.substring(colon + 1, slash).strip()),
                        Integer.parseInt(c.substring(slash + 1).strip()));
            } catch (NumberFormatException e) {
                throw new IllegalArgumentException("--mix takes " + FORM + " (WEIGHT a number, IN and OUT whole "
                        + "token counts); got '" + c + "'");
            }
        }
        return sweep;
    }
}
