package dev.kneepoint.cli;

import picocli.CommandLine;
import picocli.CommandLine.Command;

/** Entry point of {@code bin/kneepoint}: demo, run, serve-sweep, sim, analyze, check, ... */
@Command(name = "kneepoint", mixinStandardHelpOptions = true, version = "kneepoint 0.1.0",
        description = "Measures what an LLM server really delivers under load.",
        subcommands = {DemoCommand.class, RunCommand.class, SimCommand.class, AnalyzeCommand.class, CheckCommand.class,
                BenchCommand.class, SimBenchCommand.class, PeerReportCommand.class, ImportGpuCommand.class,
                ServeSweepCommand.class})
public final class Main implements Runnable {

    public static void main(String[] args) {
        System.exit(execute(args));
    }

    /** Runs the command line and returns the exit code (for tests). */
    public static int execute(String... args) {
        return commandLine().execute(args);
    }

    /** The command line with its converters and error handling, ready to parse or execute (also for tests). */
    static CommandLine commandLine() {
        CommandLine cl = withConverters(new Main());
        cl.setExecutionExceptionHandler((e, cmd, parsed) -> {
            if (e instanceof IllegalArgumentException || e instanceof java.io.UncheckedIOException
                    || e instanceof dev.kneepoint.workload.DatasetException) {
                cmd.getErr().println("kneepoint: " + e.getMessage());
                return ExitCodes.BAD_INPUT;
            }
            throw e;
        });
        return cl;
    }

    /** A command line over {@code command} with Kneepoint's converters (durations such as {@code 10s}). */
    static CommandLine withConverters(Object command) {
        CommandLine cl = new CommandLine(command);
        cl.registerConverter(java.time.Duration.class, Durations::parse);
        return cl;
    }

    @Override
    public void run() {
        new CommandLine(this).usage(System.out);
    }
}
