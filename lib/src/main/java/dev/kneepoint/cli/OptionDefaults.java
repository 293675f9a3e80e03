package dev.kneepoint.cli;

import dev.kneepoint.client.TargetConfig;
import dev.kneepoint.serve.ServeSweep;
import dev.kneepoint.sim.SimConfig;
import dev.kneepoint.sweep.SweepDefaults;
import dev.kneepoint.telemetry.Telemetry;
import java.lang.reflect.Field;
import java.time.Duration;
import java.util.Map;
import picocli.CommandLine.IDefaultValueProvider;
import picocli.CommandLine.Model.ArgSpec;
import picocli.CommandLine.Model.OptionSpec;

/**
 * Where the options' defaults come from, so that the command line restates none: the library's own values
 * ({@link SweepDefaults}, {@link SimConfig}, {@link TargetConfig}, {@link Telemetry}), read here for each option
 * group, or, for the few options a command deliberately sets otherwise, the command's {@link Own} values. picocli
 * asks this provider for every option of the commands that name it ({@code defaultValueProvider}); the value it
 * gets is parsed like a typed one and shown as {@code ${DEFAULT-VALUE}} in {@code --help}. An option neither
 * answers keeps its annotation's default (none: null, false or 0).
 */
final class OptionDefaults implements IDefaultValueProvider {
    /** A command with defaults of its own for some options, replacing the library's (or giving one it has not). */
    interface Own {
        /** This command's own defaults, by the options' longest names; any other option takes the library's. */
        Map<String, ?> ownDefaults();
    }

    /** A target that sets only what a target needs: everything else about it is {@link TargetConfig}'s default. */
    private static final TargetConfig CLIENT = TargetConfig.builder().baseUrl("http://127.0.0.1").model("model").build();
    /** A simulator configuration that sets nothing: {@link SimConfig}'s defaults. */
    private static final SimConfig SIMULATOR = SimConfig.builder().build();

    /** The library's default of each option that has one, by the option group declaring it and its longest name. */
    private static final Map<String, Object> LIBRARY = Map.ofEntries(
            entry(TargetOptions.class, "--api", CLIENT.apiKind().label()),
            entry(TargetOptions.class, "--timeout-connect", CLIENT.connectTimeout()),
            entry(TargetOptions.class, "--timeout-first-token", CLIENT.firstTokenTimeout()),
            entry(TargetOptions.class, "--timeout-idle", CLIENT.idleTimeout()),
            entry(TargetOptions.class, "--timeout-total", CLIENT.totalTimeout()),
            entry(StepTimingOptions.class, "--duration", SweepDefaults.STEP_DURATION),
            entry(StepTimingOptions.class, "--warmup", SweepDefaults.WARMUP),
            entry(StepTimingOptions.class, "--pause", SweepDefaults.PAUSE),
            entry(StepTimingOptions.class, "--ramp-up", SweepDefaults.RAMP_UP),
            entry(StepTimingOptions.class, "--repeat", SweepDefaults.REPEAT),
            entry(LengthOptions.class, "--input-tokens", SweepDefaults.INPUT_TOKENS),
            entry(LengthOptions.class, "--output-tokens", SweepDefaults.OUTPUT_TOKENS),
            entry(ArrivalOptions.class, "--arrival", SweepDefaults.ARRIVAL),
            entry(ArrivalOptions.class, "--burstiness", SweepDefaults.BURST_CV),
            entry(ArrivalOptions.class, "--seed", SweepDefaults.SEED),
            entry(OutputOptions.class, "--out", SweepDefaults.OUTPUT_DIR),
            entry(OutputOptions.class, "--name", SweepDefaults.NAME),
            entry(TelemetryOptions.class, "--telemetry-interval", Telemetry.DEFAULT_INTERVAL),
            entry(TelemetryOptions.class, "--gpu", TelemetryOptions.gpuName(Telemetry.defaults().gpu())),
            entry(SimulatorOptions.class, "--seed", SIMULATOR.seed()),
            entry(SimCommand.class, "--host", SIMULATOR.host()),
            entry(ServeSweepCommand.class, "--ready-timeout", ServeSweep.READY_TIMEOUT),
            entry(ServeSweepCommand.class, "--out", SweepDefaults.OUTPUT_DIR),
            entry(ServeSweepCommand.class, "--name", SweepDefaults.NAME));

    @Override
    public String defaultValue(ArgSpec arg) {
        if (!(arg instanceof OptionSpec option) || !(arg.userObject() instanceof Field field)) {
            return null;
        }
        String name = option.longestName();
        Object value = arg.command().userObject() instanceof Own own ? own.ownDefaults().get(name) : null;
        if (value == null) {
            value = LIBRARY.get(key(field.getDeclaringClass(), name));
        }
        return value == null ? null : text(value);
    }

    private static Map.Entry<String, Object> entry(Class<?> group, String option, Object value) {
        return Map.entry(key(group, option), value);
    }

    private static String key(Class<?> group, String option) {
        return group.getName() + " " + option;
    }

    /** {@code value} as typed on the command line: durations as {@code 10s} or {@code 500ms}. */
    private static String text(Object value) {
        return switch (value) {
            case Duration d -> Durations.format(d);
            default -> String.valueOf(value);
        };
    }
}
