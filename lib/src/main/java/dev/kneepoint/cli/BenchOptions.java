package dev.kneepoint.cli;

import dev.kneepoint.client.Transport;
import picocli.CommandLine.Option;

/**
 * The client benches' sizes and client ({@code bench}, {@code bench-sim}; docs/PERFORMANCE.md): the measured
 * seconds and warm-up of each scenario, and the transport measured. These are the benches' own settings, not a
 * library default: {@link #TRANSPORT} is {@link Transport#NIO} rather than the client's {@link Transport#AUTO}
 * because the published figures are the NIO client's (AUTO picks it for the simulator's {@code http://} too, but
 * what AUTO means has changed before, and a bench must keep measuring the same client).
 */
final class BenchOptions {
    /** Measured seconds of each scenario. */
    private static final String SECONDS = "10";
    /** Warm-up seconds of each scenario, excluded from every figure. */
    private static final String WARMUP_SECONDS = "3";
    /** The client transport measured. */
    private static final String TRANSPORT = "NIO";

    @Option(names = "--seconds", defaultValue = SECONDS, description = "Measured seconds per scenario (default: ${DEFAULT-VALUE})")
    int seconds;

    @Option(names = "--warmup", defaultValue = WARMUP_SECONDS, description = "Warm-up seconds of each scenario, excluded "
            + "from every figure; JIT compilation mostly ends within it (default: ${DEFAULT-VALUE})")
    int warmupSeconds;

    @Option(names = "--transport", defaultValue = TRANSPORT, description = "Client transport: NIO (selector-based, for "
            + "the simulator's http://), OKHTTP or AUTO (= NIO for http://) (default: ${DEFAULT-VALUE})")
    Transport transport;
}
