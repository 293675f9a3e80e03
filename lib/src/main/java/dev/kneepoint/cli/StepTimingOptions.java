package dev.kneepoint.cli;

import dev.kneepoint.sweep.Sweep;
import java.time.Duration;
import picocli.CommandLine.Model.CommandSpec;
import picocli.CommandLine.Option;
import picocli.CommandLine.Spec;

/**
 * How long each step lasts: its measured window, the warm-up before it, the pause after it, the closed loop's
 * ramp-up, and how many trials measure each load. Defaults: the sweep's ({@link dev.kneepoint.sweep.SweepDefaults#STEP_DURATION},
 * {@link dev.kneepoint.sweep.SweepDefaults#WARMUP}, {@link dev.kneepoint.sweep.SweepDefaults#PAUSE},
 * {@link dev.kneepoint.sweep.SweepDefaults#RAMP_UP}), or a command's own ({@link OptionDefaults.Own}: {@code demo}'s
 * short steps). In a trace replay an unset {@code --duration} is the whole trace and an unset {@code --warmup} none,
 * as in {@link Sweep#trace(java.nio.file.Path)}.
 */
final class StepTimingOptions {
    @Option(names = {"--duration", "--step"}, description = "Measured length of each step (default: ${DEFAULT-VALUE})")
    Duration duration;

    @Option(names = "--warmup", description = "Warm-up per step, excluded from statistics (default: ${DEFAULT-VALUE})")
    Duration warmup;

    @Option(names = "--pause", description = "Pause between steps (default: ${DEFAULT-VALUE})")
    Duration pause;

    @Option(names = "--ramp-up", description = "Closed loop: the users of a step start evenly over this time, not in "
            + "lock-step; 0s starts them all at once (default: ${DEFAULT-VALUE})")
    Duration rampUp;

    @Option(names = "--repeat", paramLabel = "N", description = "Measure each load N times, trial after trial across "
            + "the ladder; the report pools a load's trials and gives each headline metric's mean, 95%% interval and CV "
            + "across them (default: ${DEFAULT-VALUE})")
    int repeat;

    @Spec(Spec.Target.MIXEE)
    CommandSpec command;

    /**
     * {@code sweep} with these timings; a trace replay ({@code replaysTrace}) takes only those given on the command
     * line, the others left to the trace's own window. Returns {@code sweep}.
     */
    Sweep applyTo(Sweep sweep, boolean replaysTrace) {
        if (!replaysTrace || given("--duration")) {
            sweep.stepDuration(duration);
        }
        if (!replaysTrace || given("--warmup")) {
            sweep.warmup(warmup);
        }
        return sweep.pause(pause).rampUp(rampUp).repeat(repeat);
    }

    private boolean given(String option) {
        return command.commandLine().getParseResult().hasMatchedOption(option);
    }
}
