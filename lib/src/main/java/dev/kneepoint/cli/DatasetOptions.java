package dev.kneepoint.cli;

import dev.kneepoint.sweep.Sweep;
import dev.kneepoint.workload.DatasetWorkload;
import dev.kneepoint.workload.LengthDistribution;
import dev.kneepoint.workload.OutputControl;
import dev.kneepoint.workload.Workloads;
import java.io.PrintStream;
import java.nio.file.Path;
import picocli.CommandLine.Model.CommandSpec;
import picocli.CommandLine.Option;
import picocli.CommandLine.Spec;

/**
 * Requests from a dataset file ({@link Workloads#dataset(Path)}) instead of synthetic prompts: {@code --dataset FILE
 * [--dataset-format F] [--no-salt]}. The records' own {@code output_tokens} come first, {@code --output-tokens} for
 * the others.
 */
final class DatasetOptions {
    @Option(names = "--dataset", paramLabel = "FILE", description = "Requests from a JSONL file instead of synthetic "
            + "prompts: OpenAI chat (messages), ShareGPT (conversations) or plain (prompt) lines, each with optional "
            + "output_tokens, prompt_tokens and tag; cycled when a run needs more requests than the file holds")
    Path dataset;

    @Option(names = "--dataset-format", paramLabel = "FORMAT", description = "Require every line of --dataset to be "
            + "openai, sharegpt or prompts (default: any of the three)")
    String format;

    @Option(names = "--no-salt", description = "Send the repeats of --dataset's records unchanged (default: each repeat "
            + "gets a short salt before its first message, so it does not hit the prefix cache its first pass warmed)")
    boolean noSalt;

    @Spec(Spec.Target.MIXEE)
    CommandSpec command;

    /** True when a dataset replaces the synthetic prompts. */
    boolean given() {
        return dataset != null;
    }

    /**
     * {@code sweep} with the dataset as its workload, records without their own length asking for
     * {@code outputTokens} as {@code ignoreEos} says; warns on {@code err} when repeats go unsalted. Returns {@code sweep}.
     */
    Sweep applyTo(Sweep sweep, LengthDistribution outputTokens, boolean ignoreEos, long seed, PrintStream err) {
        if (dataset == null) {
            for (String o : new String[] {"--dataset-format", "--no-salt"}) {
                if (command.commandLine().getParseResult().hasMatchedOption(o)) {
                    throw new IllegalArgumentException(o + " applies to --dataset only: add --dataset FILE");
                }
            }
            return sweep;
        }
        for (String o : new String[] {"--input-tokens", "--shared-prefix", "--multi-turn", "--calibrate", "--trace"}) {
            if (command.commandLine().getParseResult().hasMatchedOption(o)) {
                throw new IllegalArgumentException(o + " does not apply to --dataset: the dataset's records are the "
                        + "prompts, sent as they are; remove " + o);
            }
        }
        DatasetWorkload.Builder b = Workloads.dataset(dataset).outputTokens(outputTokens)
                .output(OutputControl.forIgnoreEos(ignoreEos)).seed(seed);
        if (format != null) {
            b.format(DatasetWorkload.Format.parse(format));
        }
        if (noSalt) {
            b.noSalt();
        }
        DatasetWorkload w = b.build();
        if (noSalt) {
            err.println("warning: --no-salt: the " + w.size() + " records of " + dataset + " repeat unchanged, so from "
                    + "request " + (w.size() + 1) + " on a server's prefix cache may answer from what the first pass "
                    + "warmed");
        }
        return sweep.workload(w);
    }
}
