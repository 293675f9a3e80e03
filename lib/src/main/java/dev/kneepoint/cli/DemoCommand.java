package dev.kneepoint.cli;

import dev.kneepoint.Kneepoint;
import dev.kneepoint.client.TargetConfig;
import dev.kneepoint.metrics.RunResult;
import dev.kneepoint.metrics.StepResult;
import dev.kneepoint.report.RunReport;
import dev.kneepoint.sim.Simulator;
import java.nio.file.Path;
import java.time.Duration;
import java.util.Locale;
import java.util.concurrent.Callable;
import picocli.CommandLine.Command;
import picocli.CommandLine.Option;

/**
 * {@code kneepoint demo}: the main job on the embedded simulator. A closed-loop concurrency ladder
 * finds the capacity; an open-loop rate ladder at fractions of it shows queueing without
 * coordinated omission. Both runs are written as run directories.
 */
@Command(name = "demo", mixinStandardHelpOptions = true,
        description = "Start the embedded simulator, run a concurrency ladder and a request-rate ladder, "
                + "print the summaries and write the run directories.")
final class DemoCommand implements Callable<Integer> {
    @Option(names = "--preset", defaultValue = "gpu-8b", description = "Simulator preset (default: ${DEFAULT-VALUE})")
    String preset;

    @Option(names = "--concurrency", split = ",", defaultValue = "1,4,16,64,256,512",
            description = "Concurrency ladder (default: ${DEFAULT-VALUE})")
    int[] concurrency;

    @Option(names = "--step", defaultValue = "5s", description = "Measured length of each step (default: ${DEFAULT-VALUE})")
    Duration step;

    @Option(names = "--warmup", defaultValue = "2s", description = "Warm-up per step (default: ${DEFAULT-VALUE})")
    Duration warmup;

    @Option(names = "--input-tokens", defaultValue = "256", description = "Prompt length (default: ${DEFAULT-VALUE})")
    int inputTokens;

    @Option(names = "--output-tokens", defaultValue = "64", description = "Output length (default: ${DEFAULT-VALUE})")
    int outputTokens;

    @Option(names = "--out", defaultValue = "runs", description = "Parent folder of run directories (default: ${DEFAULT-VALUE})")
    Path out;

    @Override
    public Integer call() {
        try (Simulator sim = Kneepoint.simulator(preset)) {
            TargetConfig target = Kneepoint.target(sim);
            System.err.println("embedded simulator '" + preset + "' at " + sim.url());
            RunResult ladder = Kneepoint.ladder(target, concurrency)
                    .inputTokens(inputTokens).outputTokens(outputTokens)
                    .stepDuration(step).warmup(warmup)
                    .outputDir(out).name("demo-concurrency")
                    .progress(new ConsoleProgress(System.err))
                    .run();
            Path ladderDir = ladder.directory().orElse(out.resolve(ladder.runId()));
            System.out.println("== Closed loop: concurrency ladder");
            System.out.print(RunReport.write(ladderDir));

            double capacity = ladder.steps().stream().mapToDouble(StepResult::requestsPerS).max().orElse(1.0);
            double[] rates = {round(capacity * 0.5), round(capacity * 0.9), round(capacity * 1.2)};
            System.err.printf(Locale.ROOT, "measured capacity %.2f req/s; open-loop rates %.2f, %.2f, %.2f req/s%n",
                    capacity, rates[0], rates[1], rates[2]);
            RunResult open = Kneepoint.rateLadder(target, rates)
                    .inputTokens(inputTokens).outputTokens(outputTokens)
                    .stepDuration(step).warmup(warmup).drainTimeout(Duration.ofSeconds(10))
                    .outputDir(out).name("demo-rate")
                    .progress(new ConsoleProgress(System.err))
                    .run();
            System.out.println();
            Path openDir = open.directory().orElse(out.resolve(open.runId()));
            System.out.println("== Open loop: request-rate ladder (Poisson arrivals)");
            System.out.print(RunReport.write(openDir));
            System.out.println();
            System.out.println("Simulator emission lag p99: "
                    + String.format(Locale.ROOT, "%.2f ms", sim.stats().emissionLagP99().toNanos() / 1e6)
                    + " (the simulator's own slop; large values mean the machine is saturated)");
            System.out.println("Run directories (requests.jsonl, summary.json, report.txt, plots): "
                    + ladderDir + " and " + openDir);
            return ladder.complete() && open.complete() ? 0 : 3;
        }
    }

    private static double round(double v) {
        return Math.max(0.1, Math.round(v * 10) / 10.0);
    }
}
