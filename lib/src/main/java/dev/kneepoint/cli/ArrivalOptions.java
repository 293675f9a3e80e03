package dev.kneepoint.cli;

import dev.kneepoint.sweep.Sweep;
import picocli.CommandLine.Option;

/**
 * When open-loop requests arrive, and the seed of that schedule and of the synthetic prompts. Defaults: the
 * sweep's ({@link dev.kneepoint.sweep.SweepDefaults#ARRIVAL}, {@link dev.kneepoint.sweep.SweepDefaults#BURST_CV},
 * {@link dev.kneepoint.sweep.SweepDefaults#SEED}).
 */
final class ArrivalOptions {
    @Option(names = "--arrival", description = "constant, poisson or gamma (default: ${DEFAULT-VALUE})")
    String arrival;

    @Option(names = "--burstiness", description = "Gamma arrivals' coefficient of variation (default: ${DEFAULT-VALUE})")
    double burstiness;

    @Option(names = "--seed", description = "Seed for arrivals and prompts (default: ${DEFAULT-VALUE})")
    long seed;

    /** {@code sweep} with this arrival process and seed ({@code --burstiness} counts for gamma arrivals only). */
    Sweep applyTo(Sweep sweep) {
        sweep.arrival(arrival).seed(seed);
        if (arrival.equals("gamma")) {
            sweep.burstiness(burstiness);
        }
        return sweep;
    }
}
