package dev.kneepoint.cli;

import dev.kneepoint.Kneepoint;
import dev.kneepoint.analysis.Compare;
import dev.kneepoint.analysis.CompareOptions;
import dev.kneepoint.analysis.Comparison;
import dev.kneepoint.metrics.RunResult;
import dev.kneepoint.plot.ChartFiles;
import dev.kneepoint.plot.Plots;
import dev.kneepoint.report.RunReport;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.Callable;
import picocli.CommandLine.Command;
import picocli.CommandLine.Option;
import picocli.CommandLine.Parameters;

/** {@code kneepoint analyze}: re-analyses saved run directories and compares two or more of them. */
@Command(name = "analyze", mixinStandardHelpOptions = true,
        description = "Re-analyse saved run directories (complete or not): summary, knee, plots; with two or more,"
                + " compare them step by step with bootstrap confidence intervals (the first is the baseline).")
final class AnalyzeCommand implements Callable<Integer> {
    @Parameters(arity = "1..*", paramLabel = "RUN_DIR", description = "Run directories written by run or demo")
    List<Path> runs;

    @Option(names = "--compare-out", description = "Where to write the comparison table and plot (default: the first run directory)")
    Path compareOut;

    @Option(names = "--min-effect", paramLabel = "PCT", description = "Smallest difference, in %% of the baseline, "
            + "that a comparison calls better or worse; smaller significant ones are 'same (within PCT%%)' (default: 2)")
    double minEffectPct = 100 * CompareOptions.DEFAULT_MIN_RELATIVE_EFFECT;

    @Option(names = "--verbose", description = "Print each run's whole report (the knee's method, every reading and "
            + "its evidence), not only the answer, the table and the readings that apply")
    boolean verbose;

    @Override
    public Integer call() {
        if (runs.stream().map(p -> p.toAbsolutePath().normalize()).distinct().count() < runs.size()) {
            throw new IllegalArgumentException("a run directory is given twice: " + runs
                    + "; name each run once (the first is the baseline of the comparison)");
        }
        List<RunResult> results = new ArrayList<>();
        for (Path dir : runs) {
            System.out.println("== " + dir);
            System.out.print(RunReport.write(dir, verbose));
            System.out.println();
            results.add(Kneepoint.load(dir));
        }
        if (results.size() >= 2) {
            Comparison c = Compare.runs(results,
                    CompareOptions.builder().minRelativeEffect(minEffectPct / 100).build());
            Path target = compareOut == null ? runs.get(0) : compareOut;
            c.deltas().write().csv(target.resolve("comparison.csv").toFile());
            ChartFiles.write(Plots.compare(results.get(0), results.get(1),
                    results.subList(2, results.size()).toArray(RunResult[]::new)), target.resolve("comparison.png"));
            System.out.println("== Comparison against " + c.baselineRunId());
            c.warnings().forEach(w -> System.out.println("warning: " + w));
            System.out.println(c.significant().print(200));
            System.out.println("full table: " + target.resolve("comparison.csv"));
        }
        return 0;
    }
}
