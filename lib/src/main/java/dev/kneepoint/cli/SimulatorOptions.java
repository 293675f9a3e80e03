package dev.kneepoint.cli;

import dev.kneepoint.sim.SimConfig;
import picocli.CommandLine.Option;

/**
 * Which simulator a command starts: an engine preset ({@link SimConfig#PRESETS}) and the seed of its jitter, output
 * lengths and faults. The seed's default is {@link SimConfig}'s; the library has no default preset, so each command
 * names its own ({@link OptionDefaults.Own}: {@code sim} a laptop-sized model, {@code demo} an 8B GPU).
 */
final class SimulatorOptions {
    @Option(names = "--preset", description = "Engine preset: fast, cpu-small, gpu-8b, gpu-70b-tp8 (default: ${DEFAULT-VALUE})")
    String preset;

    @Option(names = "--seed", description = "Seed for jitter, output lengths and faults (default: ${DEFAULT-VALUE})")
    long seed;

    @Option(names = "--lora", split = ",", paramLabel = "NAME[,NAME...]", description = "Serve these LoRA adapters "
            + "beside the base model (listed by /v1/models; a request may name one as its model)")
    java.util.List<String> lora = java.util.List.of();

    /** A builder of the preset's configuration with this seed and adapters, for a command to adjust. */
    SimConfig.Builder builder() {
        return SimConfig.presetBuilder(preset).seed(seed).loraAdapters(lora);
    }
}
