package dev.kneepoint.cli;

import dev.kneepoint.metrics.RunResult;
import dev.kneepoint.sweep.Sweep;
import java.nio.file.Path;
import picocli.CommandLine.Option;

/**
 * Where a command writes its run directories and what it names them. Defaults: the sweep's
 * ({@link dev.kneepoint.sweep.SweepDefaults#OUTPUT_DIR}, {@link dev.kneepoint.sweep.SweepDefaults#NAME}), or a
 * command's own ({@link OptionDefaults.Own}: {@code demo} names its two runs after {@code demo}).
 */
final class OutputOptions {
    @Option(names = "--out", description = "Parent folder of run directories (default: ${DEFAULT-VALUE})")
    Path out;

    @Option(names = "--name", description = "Run name, in each run directory's name after the start time "
            + "(default: ${DEFAULT-VALUE})")
    String name;

    @Option(names = "--verbose", description = "Print the whole report (the knee's method, every reading and its "
            + "evidence), not only the answer, the table and the readings that apply; report.txt always has it")
    boolean verbose;

    /** {@code sweep} writing into {@code --out} under {@code --name}; returns it. */
    Sweep applyTo(Sweep sweep) {
        return sweep.outputDir(out).name(name);
    }

    /** {@code sweep} writing into {@code --out} as one part of a command's runs, named {@code <name>-<part>}. */
    Sweep applyTo(Sweep sweep, String part) {
        return sweep.outputDir(out).name(name + "-" + part);
    }

    /** The folder of a finished run: where it says it was written, else where it would have been. */
    Path directory(RunResult result) {
        return result.directory().orElse(out.resolve(result.runId()));
    }
}
