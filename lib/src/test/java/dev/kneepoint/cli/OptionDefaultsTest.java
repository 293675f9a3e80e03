package dev.kneepoint.cli;

import static org.assertj.core.api.Assertions.assertThat;

import dev.kneepoint.client.TargetConfig;
import dev.kneepoint.sim.SimConfig;
import dev.kneepoint.sweep.SweepDefaults;
import dev.kneepoint.telemetry.Telemetry;
import java.time.Duration;
import java.util.List;
import dev.kneepoint.workload.Lengths;
import org.junit.jupiter.api.Test;
import picocli.CommandLine;

/**
 * The command line states no default of its own where the library has one: unset options parse to the library's
 * values (SweepDefaults, SimConfig, TargetConfig, Telemetry), {@code --help} shows those values, and only the
 * commands' deliberate own values (demo's short steps, sim's port and preset, the benches' sizes) differ.
 */
class OptionDefaultsTest {
    /** {@code command} parsed from {@code args}, through the top-level command line as {@code bin/kneepoint} does. */
    private static CommandLine parsed(String command, String... args) {
        CommandLine top = Main.commandLine();
        top.parseArgs(java.util.stream.Stream.concat(java.util.stream.Stream.of(command), java.util.stream.Stream.of(args))
                .toArray(String[]::new));
        return top.getSubcommands().get(command);
    }

    private static <T> T parse(String command, String... args) {
        return parsed(command, args).getCommand();
    }

    @Test
    void runTakesEveryDefaultFromTheLibrary() {
        RunCommand run = parse("run", "--url", "http://127.0.0.1:9", "--model", "m");
        assertThat(run.timing.duration).isEqualTo(SweepDefaults.STEP_DURATION);
        assertThat(run.timing.warmup).isEqualTo(SweepDefaults.WARMUP);
        assertThat(run.timing.pause).isEqualTo(SweepDefaults.PAUSE);
        assertThat(run.arrival.arrival).isEqualTo(SweepDefaults.ARRIVAL);
        assertThat(run.arrival.burstiness).isEqualTo(SweepDefaults.BURST_CV);
        assertThat(run.arrival.seed).isEqualTo(SweepDefaults.SEED);
        assertThat(run.lengths.inputTokens).isEqualTo(Lengths.fixed(SweepDefaults.INPUT_TOKENS));
        assertThat(run.lengths.outputTokens).isEqualTo(Lengths.fixed(SweepDefaults.OUTPUT_TOKENS));
        assertThat(run.output.out).isEqualTo(SweepDefaults.OUTPUT_DIR);
        assertThat(run.output.name).isEqualTo(SweepDefaults.NAME);
        assertThat(run.telemetry.telemetryInterval).isEqualTo(Telemetry.DEFAULT_INTERVAL);
        assertThat(TelemetryOptions.parseGpu(run.telemetry.gpu)).isEqualTo(Telemetry.defaults().gpu());
        TargetConfig target = run.access.applyTo(run.target.builder()).build();
        TargetConfig plain = TargetConfig.builder().baseUrl("http://127.0.0.1:9").model("m").build();
        assertThat(target).isEqualTo(plain);
        assertThat(run.throughputConcurrency).isNull(); // unset: the sweep's own, only with --rate-sweep
    }

    @Test
    void runsTimeoutOptionsDefaultToTheTargetsAndSetItsFourTimeouts() {
        RunCommand unset = parse("run", "--url", "http://127.0.0.1:9", "--model", "m");
        assertThat(unset.target.idleTimeout).isEqualTo(TargetConfig.DEFAULT_IDLE_TIMEOUT);
        assertThat(unset.target.firstTokenTimeout).isEqualTo(TargetConfig.DEFAULT_FIRST_TOKEN_TIMEOUT);
        RunCommand run = parse("run", "--url", "http://127.0.0.1:9", "--model", "m", "--timeout-connect", "2s",
                "--timeout-first-token", "3m", "--timeout-idle", "1500ms", "--timeout-total", "1h");
        TargetConfig t = run.target.builder().build();
        assertThat(t.connectTimeout()).isEqualTo(Duration.ofSeconds(2));
        assertThat(t.firstTokenTimeout()).isEqualTo(Duration.ofMinutes(3));
        assertThat(t.idleTimeout()).isEqualTo(Duration.ofMillis(1500));
        assertThat(t.totalTimeout()).isEqualTo(Duration.ofHours(1));
        assertThat(t.describe()).containsEntry("idle_timeout_ms", 1500L);
    }

    @Test
    void zeroOrNegativeTimeoutsAreRejectedEveryOneAtOnce() {
        RunCommand run = parse("run", "--url", "http://127.0.0.1:9", "--model", "m", "--timeout-idle", "0s",
                "--timeout-total", "PT-5S");
        org.assertj.core.api.Assertions.assertThatThrownBy(() -> run.target.builder())
                .isInstanceOf(IllegalArgumentException.class)
                .hasMessageContaining("--timeout-idle must be a positive duration such as 500ms, 20s or 10m, got 0s")
                .hasMessageContaining("--timeout-total must be a positive duration")
                .hasMessageNotContaining("--timeout-connect");
    }

    @Test
    void runsHelpShowsTheTimeoutDefaults() {
        String help = parsed("run", "--url", "u", "--model", "m").getUsageMessage().replaceAll("\\s+", " ");
        assertThat(help).contains("stream is a timeout, not UNFINISHED (default: 20s)")
                .contains("TIMEOUT (first_token) (default: 600s)").contains("TIMEOUT(total) (default: 1800s)");
    }

    @Test
    void demoKeepsItsOwnShortStepsAndTheLibrarysOtherDefaults() {
        DemoCommand demo = parse("demo");
        assertThat(demo.timing.duration).isEqualTo(Duration.ofSeconds(5));
        assertThat(demo.timing.warmup).isEqualTo(SweepDefaults.WARMUP);
        assertThat(demo.lengths.inputTokens).isEqualTo(Lengths.fixed(256));
        assertThat(demo.lengths.outputTokens).isEqualTo(Lengths.fixed(64));
        assertThat(demo.simulator.preset).isEqualTo("gpu-8b");
        assertThat(demo.simulator.seed).isEqualTo(SimConfig.builder().build().seed());
        assertThat(demo.output.out).isEqualTo(SweepDefaults.OUTPUT_DIR);
        assertThat(demo.output.name).isEqualTo("demo");
        assertThat(demo.concurrency).containsExactly(1, 4, 16, 64, 256, 512);
        // the demo's old option name still works
        assertThat(((DemoCommand) parse("demo", "--step", "3s")).timing.duration).isEqualTo(Duration.ofSeconds(3));
    }

    @Test
    void simServesOnItsOwnPortWithTheSimulatorsAddressAndSeed() {
        SimCommand sim = parse("sim");
        SimConfig config = sim.config();
        SimConfig library = SimConfig.builder().build();
        assertThat(config.port()).isEqualTo(8000);
        assertThat(config.host()).isEqualTo(library.host());
        assertThat(config.seed()).isEqualTo(library.seed());
        assertThat(config).isEqualTo(SimConfig.presetBuilder("cpu-small").port(8000).build());
    }

    @Test
    void theStepOptionsAliasesCountAsGiven() {
        CommandLine sub = parsed("run", "--url", "http://127.0.0.1:9", "--model", "m", "--step", "3s");
        assertThat(sub.getParseResult().hasMatchedOption("--duration")).isTrue();
        assertThat(((RunCommand) sub.getCommand()).timing.duration).isEqualTo(Duration.ofSeconds(3));
    }

    @Test
    void helpShowsEveryDefaultAndNoneIsMissing() throws Exception {
        for (String command : List.of("run", "demo", "sim", "bench", "bench-sim")) {
            String help = Captured.run(() -> Main.execute(command, "--help"), System.out, 0);
            assertThat(help).as(command).doesNotContain("default: null").doesNotContain("default: PT");
        }
        String run = Captured.run(() -> Main.execute("run", "--help"), System.out, 0).replaceAll("\\s+", " ");
        assertThat(run).contains("(default: " + Durations.format(SweepDefaults.STEP_DURATION) + ")")
                .contains("(default: " + Durations.format(SweepDefaults.WARMUP) + ")")
                .contains("(default: " + SweepDefaults.NAME + ")").contains("(default: " + SweepDefaults.SEED + ")")
                .contains("(default: " + SweepDefaults.THROUGHPUT_CONCURRENCY + ")").contains("(default: chat)")
                .contains("(default: " + Durations.format(Telemetry.DEFAULT_INTERVAL) + ")");
    }

    @Test
    void durationsAreShownAsTheyAreTyped() {
        assertThat(Durations.format(Duration.ofSeconds(10))).isEqualTo("10s");
        assertThat(Durations.format(Duration.ofMillis(500))).isEqualTo("500ms");
        assertThat(Durations.format(Duration.ZERO)).isEqualTo("0s");
        assertThat(Durations.format(Duration.ofNanos(1500))).isEqualTo("PT0.0000015S");
        for (Duration d : List.of(Duration.ofSeconds(90), Duration.ofMillis(1500), Duration.ofNanos(1500))) {
            assertThat(Durations.parse(Durations.format(d))).isEqualTo(d);
        }
    }
}
