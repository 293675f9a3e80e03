package dev.kneepoint.cli;

import dev.kneepoint.Kneepoint;
import dev.kneepoint.client.TargetConfig;
import dev.kneepoint.metrics.RunResult;
import dev.kneepoint.report.RunReport;
import dev.kneepoint.sim.Simulator;
import dev.kneepoint.sweep.Sweep;
import java.nio.file.Path;
import java.time.Duration;
import java.util.Locale;
import java.util.Map;
import java.util.concurrent.Callable;
import picocli.CommandLine.Command;
import picocli.CommandLine.Mixin;
import picocli.CommandLine.Option;

/**
 * {@code kneepoint demo}: the main job on the embedded simulator. A closed-loop concurrency ladder
 * finds the capacity; an open-loop rate ladder at fractions of it shows queueing without
 * coordinated omission. Both runs are written as run directories.
 *
 * <p>A demo should be over in a couple of minutes, so some of its defaults are its own (the constants below,
 * through {@link OptionDefaults.Own}): shorter steps and drain than a sweep's, an 8B-GPU simulator with a ladder
 * that reaches its batch limit, and lengths that keep each request short. The others (warm-up, pause, output
 * folder, simulator seed) are the library's.
 */
@Command(name = "demo", mixinStandardHelpOptions = true, defaultValueProvider = OptionDefaults.class,
        description = "Start the embedded simulator, run a concurrency ladder and a request-rate ladder, "
                + "print the summaries and write the run directories.")
final class DemoCommand implements Callable<Integer>, OptionDefaults.Own {
    /** The simulator: an 8B model on one GPU, 256 sequences in its batch. */
    private static final String PRESET = "gpu-8b";
    /** The closed-loop ladder, past the preset's batch limit. */
    private static final String CONCURRENCY = "1,4,16,64,256,512";
    /** Measured length of each step. */
    private static final Duration STEP = Duration.ofSeconds(5);
    /** How long an open-loop step waits for its in-flight requests (overloaded at 1.2x capacity). */
    private static final Duration DRAIN = Duration.ofSeconds(10);
    /** Prompt length, tokens. */
    private static final int INPUT_TOKENS = 256;
    /** Output length, tokens. */
    private static final int OUTPUT_TOKENS = 64;
    /** The runs' name: {@code demo-concurrency} and {@code demo-rate}. */
    private static final String NAME = "demo";

    @Mixin
    SimulatorOptions simulator;

    @Option(names = "--concurrency", split = ",", defaultValue = CONCURRENCY,
            description = "Concurrency ladder (default: ${DEFAULT-VALUE})")
    int[] concurrency;

    @Mixin
    StepTimingOptions timing;

    @Mixin
    LengthOptions lengths;

    @Mixin
    OutputOptions output;

    @Override
    public Map<String, ?> ownDefaults() {
        return Map.of("--preset", PRESET, "--duration", STEP, "--input-tokens", INPUT_TOKENS,
                "--output-tokens", OUTPUT_TOKENS, "--name", NAME);
    }

    @Override
    public Integer call() {
        try (Simulator sim = Kneepoint.simulator(simulator.builder().build())) {
            TargetConfig target = Kneepoint.target(sim);
            System.err.println("embedded simulator '" + simulator.preset + "' at " + sim.url());
            RunResult ladder = configure(Kneepoint.ladder(target, concurrency), "concurrency").run();
            Path ladderDir = output.directory(ladder);
            System.out.println("== Closed loop: concurrency ladder");
            System.out.print(RunReport.write(ladderDir, output.verbose));

            double capacity = ladder.steps().stream().mapToDouble(s -> s.rates().requestsPerS()).max().orElse(1.0);
            double[] rates = {round(capacity * 0.5), round(capacity * 0.9), round(capacity * 1.2)};
            System.err.printf(Locale.ROOT, "measured capacity %.2f req/s; open-loop rates %.2f, %.2f, %.2f req/s%n",
                    capacity, rates[0], rates[1], rates[2]);
            RunResult open = configure(Kneepoint.rateLadder(target, rates), "rate").drainTimeout(DRAIN).run();
            System.out.println();
            Path openDir = output.directory(open);
            System.out.println("== Open loop: request-rate ladder (Poisson arrivals)");
            System.out.print(RunReport.write(openDir, output.verbose));
            System.out.println();
            System.out.println("Simulator emission lag p99: "
                    + String.format(Locale.ROOT, "%.2f ms", sim.stats().emissionLagP99().toNanos() / 1e6)
                    + " (the simulator's own slop; large values mean the machine is saturated)");
            System.out.println("Run directories (report.html to open, requests.jsonl, summary.json, report.txt, plots): "
                    + ladderDir + " and " + openDir);
            return ladder.complete() && open.complete() ? 0 : 3;
        }
    }

    /** One of the demo's two ladders with the shared options, named {@code <name>-<part>}. */
    private Sweep configure(Sweep sweep, String part) {
        timing.applyTo(sweep, false);
        lengths.applyTo(sweep);
        return output.applyTo(sweep, part).progress(new ConsoleProgress(System.err));
    }

    private static double round(double v) {
        return Math.max(0.1, Math.round(v * 10) / 10.0);
    }
}
