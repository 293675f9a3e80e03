package dev.kneepoint.cli;

import dev.kneepoint.Kneepoint;
import dev.kneepoint.client.TargetConfig;
import dev.kneepoint.serve.ConfigRunner;
import dev.kneepoint.serve.ServeCommandLine;
import dev.kneepoint.serve.ServeParam;
import dev.kneepoint.serve.ServeSweep;
import dev.kneepoint.serve.ServeSweepIndex;
import dev.kneepoint.serve.ServeSweepTable;
import dev.kneepoint.serve.ServerLauncher;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.concurrent.Callable;
import picocli.CommandLine;
import picocli.CommandLine.Command;
import picocli.CommandLine.Option;
import picocli.CommandLine.Parameters;

/**
 * {@code kneepoint serve-sweep}: one run per server configuration ({@link ServeSweep}); each run is the options after
 * {@code --}, parsed and executed exactly as {@code kneepoint run} would ({@link RunCommand}), with {@code --url},
 * {@code --name}, {@code --out} and one {@code --label} per parameter filled in.
 */
@Command(name = "serve-sweep", mixinStandardHelpOptions = true, defaultValueProvider = OptionDefaults.class,
        description = "Sweep server settings: for each combination of the --param values start the --serve command on a "
                + "free 127.0.0.1 port, wait until it is ready, run the ladder or SLO search given after -- (the options "
                + "of 'kneepoint run', without --url, --out, --name), stop the server; then one table and plot across "
                + "configurations. See docs/SERVE-SWEEP.md.",
        footer = ExitCodes.HELP + " serve-sweep exits 3 when any configuration failed.")
final class ServeSweepCommand implements Callable<Integer>, ConfigRunner {
    /** The run options serve-sweep sets itself, and why they may not be given after {@code --}. */
    private static final Map<String, String> OWN = Map.of(
            "--url", "serve-sweep points each run at its own server (http://127.0.0.1:{port}/v1)",
            "--out", "give serve-sweep's --out before --",
            "--name", "give serve-sweep's --name before --; each run is named after its configuration");

    @Option(names = "--serve", required = true, paramLabel = "COMMAND", description = "The server's command line, with "
            + "{port} and a {NAME} per --param, e.g. 'llama-server -m m.gguf --parallel {parallel} --port {port}'; "
            + "split like a shell's simple quoting, run without a shell")
    String serve;

    @Option(names = "--param", required = true, paramLabel = "NAME=V1,V2,...", description = "A setting to sweep and "
            + "its values (repeatable: every combination runs, the first --param varying slowest)")
    List<String> params = List.of();

    @Option(names = "--repeat", paramLabel = "N", description = "Measure each load N times in every configuration "
            + "(the run's --repeat)")
    Integer repeat;

    @Option(names = "--resume", description = "Skip the configurations whose run directory in the sweep folder is "
            + "complete from an earlier invocation with the same --name and --out")
    boolean resume;

    @Option(names = "--ready-timeout", description = "Longest wait for each server to answer GET /health or "
            + "/v1/models with 200 and then a first request (default: ${DEFAULT-VALUE})")
    Duration readyTimeout;

    @Option(names = "--out", description = "Parent folder of the sweep folder (default: ${DEFAULT-VALUE})")
    Path out;

    @Option(names = "--name", description = "The sweep's name: its folder is <out>/<name>-serve-sweep "
            + "(default: ${DEFAULT-VALUE})")
    String name;

    @Parameters(paramLabel = "RUN_OPTIONS", description = "After --: the options of 'kneepoint run' (--model, "
            + "--concurrency or --rate or --slo-search, --duration, --price-per-hour, ...)")
    List<String> runOptions = List.of();

    @Override
    public Integer call() {
        List<ServeParam> swept = params.stream().map(ServeParam::parse).toList();
        ServeCommandLine command = ServeCommandLine.parse(serve, swept);
        ServeSweep.Plan plan = new ServeSweep.Plan(name, out, serve, swept, runOptions, readyTimeout, resume);
        checkRunOptions(plan);
        ServeSweep.Result result;
        try {
            result = ServeSweep.run(plan, ServerLauncher.processes(command, ServeSweep.STOP_GRACE), this, System.out);
        } catch (InterruptedException e) {
            System.err.println("serve-sweep: interrupted; the server was stopped; " + ServeSweepIndex.FILE
                    + " lists what was measured (--resume continues)");
            return ExitCodes.INCOMPLETE;
        }
        System.out.println("\n== Server-config sweep: " + result.folder());
        System.out.print(result.table().text());
        System.out.println("\nsweep folder: " + result.folder() + " (" + ServeSweepIndex.FILE + ", "
                + ServeSweepTable.CSV + ", " + ServeSweepTable.CHART + ")");
        if (!result.allComplete()) {
            return ExitCodes.INCOMPLETE;
        }
        return result.entries().stream().mapToInt(e -> e.exitCode() == null ? ExitCodes.MEASURED : e.exitCode())
                .filter(c -> c != ExitCodes.MEASURED).findFirst().orElse(ExitCodes.MEASURED);
    }

    /** The run options' problems before any server starts: what serve-sweep sets, then the sweep's own checks. */
    private void checkRunOptions(ServeSweep.Plan plan) {
        List<String> problems = new ArrayList<>();
        for (int i = 0; i < runOptions.size(); i++) {
            String a = runOptions.get(i);
            int eq = a.indexOf('=');
            String opt = eq < 0 ? a : a.substring(0, eq);
            if (OWN.containsKey(opt)) {
                problems.add("after --, leave out " + opt + ": " + OWN.get(opt));
            }
            if (opt.equals("--repeat") && repeat != null) {
                problems.add("--repeat is given both before and after --: give it once");
            }
            String label = !opt.equals("--label") ? null : eq >= 0 ? a.substring(eq + 1)
                    : i + 1 < runOptions.size() ? runOptions.get(i + 1) : "";
            for (ServeParam p : plan.params()) {
                if (label != null && label.strip().startsWith(p.name() + "=")) {
                    problems.add("--label " + label + " clashes with --param " + p.name() + ": each run is labelled "
                            + "with its parameters; remove the --label");
                }
            }
        }
        if (!problems.isEmpty()) {
            throw new IllegalArgumentException(String.join("\n", problems));
        }
        String url = "http://127.0.0.1:1/v1";
        RunCommand probe = parse(url, plan.configs().getFirst().name(), plan.configs().getFirst().params(), out);
        probe.configure(Kneepoint.sweep(probe.targetConfig())).validate();
    }

    @Override
    public TargetConfig target(String url) {
        return parse(url, "preflight", Map.of(), out).targetConfig();
    }

    @Override
    public Finished run(String url, String runName, Map<String, String> labels, Path runOut) {
        return parse(url, runName, labels, runOut).execute();
    }

    /** The run options with the URL, name, output folder, labels and repeat filled in, as {@code run} parses them. */
    private RunCommand parse(String url, String runName, Map<String, String> labels, Path runOut) {
        List<String> args = new ArrayList<>(runOptions);
        args.addAll(List.of("--url", url, "--name", runName, "--out", runOut.toString()));
        labels.forEach((k, v) -> args.addAll(List.of("--label", k + "=" + v)));
        if (repeat != null) {
            args.addAll(List.of("--repeat", String.valueOf(repeat)));
        }
        CommandLine cl = Main.withConverters(new RunCommand());
        try {
            cl.parseArgs(args.toArray(String[]::new));
        } catch (CommandLine.ParameterException e) {
            throw new IllegalArgumentException("the run options after --: " + e.getMessage() + " (they are the "
                    + "options of 'kneepoint run'; see kneepoint run --help)", e);
        }
        return cl.getCommand();
    }
}
