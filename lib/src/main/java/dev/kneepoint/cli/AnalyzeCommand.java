package dev.kneepoint.cli;

import dev.kneepoint.Kneepoint;
import dev.kneepoint.analysis.SummaryText;
import dev.kneepoint.metrics.RunResult;
import java.nio.file.Path;
import java.util.List;
import java.util.concurrent.Callable;
import picocli.CommandLine.Command;
import picocli.CommandLine.Parameters;

/** {@code kneepoint analyze}: re-reads saved run directories and prints their summaries. */
@Command(name = "analyze", mixinStandardHelpOptions = true,
        description = "Load saved run directories (complete or not) and print their step summaries.")
final class AnalyzeCommand implements Callable<Integer> {
    @Parameters(arity = "1..*", paramLabel = "RUN_DIR", description = "Run directories written by run or demo")
    List<Path> runs;

    @Override
    public Integer call() {
        for (Path dir : runs) {
            RunResult r = Kneepoint.load(dir);
            System.out.print(SummaryText.format(r));
            System.out.println();
        }
        return 0;
    }
}
