package dev.kneepoint.cli;

import dev.kneepoint.analysis.Requirement;
import dev.kneepoint.analysis.RunTables;
import java.io.UncheckedIOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.Callable;
import picocli.CommandLine.Command;
import picocli.CommandLine.Option;
import picocli.CommandLine.Parameters;
import tech.tablesaw.api.Table;

/** {@code kneepoint check}: gates a saved run on requirements over its steps table (k6's thresholds, for CI). */
@Command(name = "check", mixinStandardHelpOptions = true,
        description = "Check a saved run directory against requirements on its steps table (the columns of steps.csv):"
                + " exit 0 when every requirement holds on every chosen step, 1 when one does not (one line per"
                + " violation), 2 for a bad expression, column, step or run directory. A step without data for a"
                + " column (NaN, e.g. no OK request) fails the requirement.",
        footer = {"%nEXPR: " + Requirement.GRAMMAR + ". Units: _ms columns take ms, s, us; fractions (failure_rate,"
                + " good_fraction, reasoning_share) take %%; other columns a plain number. Quote each EXPR in the"
                + " shell (< and > redirect).",
                "%nExample: kneepoint check runs/DIR --require 'ttft_p99_ms<=500' --require 'failure_rate<1%%'"
                        + " --step c=8",
                "%nExit codes: 0 every requirement holds on every chosen step; 1 some requirement failed; 2 bad input"
                        + " (expression, column, step label, run directory)."})
final class CheckCommand implements Callable<Integer> {

    @Parameters(index = "0", paramLabel = "RUN_DIR", description = "The run directory (written by run or demo)")
    Path run;

    @Option(names = "--require", required = true, paramLabel = "EXPR",
            description = "A requirement <column><op><number>[unit], e.g. ttft_p99_ms<=500; repeat for more")
    List<String> requirements;

    @Option(names = "--step", paramLabel = "LABEL",
            description = "Check only this step (its label, e.g. c=8 or rate=10); repeat for more (default: every step)")
    List<String> stepLabels = new ArrayList<>();

    /** Reports every problem of the input at once (exit 2), else checks each requirement on each chosen step. */
    @Override
    public Integer call() {
        List<Requirement> parsed = new ArrayList<>();
        List<String> problems = new ArrayList<>();
        for (String r : requirements) {
            try {
                parsed.add(Requirement.parse(r));
            } catch (IllegalArgumentException e) {
                problems.add(e.getMessage());
            }
        }
        RunTables tables = load(problems);
        Table all = tables.steps();
        if (all.rowCount() == 0) {
            problems.add("run " + run + " has no measured step: nothing to check");
            failOn(problems);
        }
        Table steps = all;
        try {
            steps = Requirement.selectSteps(all, stepLabels);
        } catch (IllegalArgumentException e) {
            problems.add(e.getMessage());
        }
        List<Requirement.Result> results = new ArrayList<>();
        for (Requirement r : parsed) {
            try {
                results.add(r.check(steps));
            } catch (IllegalArgumentException e) {
                problems.add("requirement '" + r.expression() + "': " + e.getMessage());
            }
        }
        failOn(problems);
        if (!tables.complete()) {
            System.out.println("note: the run is incomplete (interrupted or stopped early): checking the steps it measured");
        }
        return report(results, steps.rowCount());
    }

    /** The run directory's tables; a missing or unreadable directory ends the command with the problems so far. */
    private RunTables load(List<String> problems) {
        if (!Files.isDirectory(run)) {
            problems.add("RUN_DIR " + run + " is not a directory (give one written by run or demo)");
            failOn(problems);
        }
        try {
            return RunTables.load(run);
        } catch (UncheckedIOException e) {
            problems.add(e.getMessage());
            failOn(problems);
            throw e;
        }
    }

    /** Prints the violations and a count (exit 1), or each requirement's worst step (exit 0). */
    private static int report(List<Requirement.Result> results, int stepCount) {
        int checks = results.size() * stepCount;
        int failed = 0;
        for (Requirement.Result r : results) {
            for (Requirement.StepCheck s : r.violations()) {
                failed++;
                System.out.println("FAIL " + s.step() + ": " + r.requirement().column() + " "
                        + (s.noData() ? "no data (NaN)" : "= " + Requirement.number(s.value()))
                        + ", required " + r.requirement().op().symbol() + " " + Requirement.number(r.requirement().bound())
                        + " (" + r.requirement().expression() + ")");
            }
        }
        if (failed > 0) {
            System.out.println(failed + " of " + checks + " checks failed");
            return ExitCodes.GATE_FAILED;
        }
        for (Requirement.Result r : results) {
            Requirement.StepCheck w = r.worst().orElseThrow();
            System.out.println("ok   " + r.requirement().text() + ": worst " + Requirement.number(w.value())
                    + " (" + w.step() + ") over " + stepCount + (stepCount == 1 ? " step" : " steps"));
        }
        System.out.println("all " + checks + " checks passed");
        return ExitCodes.MEASURED;
    }

    private static void failOn(List<String> problems) {
        if (!problems.isEmpty()) {
            throw new IllegalArgumentException(String.join(System.lineSeparator() + "kneepoint: ", problems));
        }
    }
}
