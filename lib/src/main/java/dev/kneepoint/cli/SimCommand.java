package dev.kneepoint.cli;

import dev.kneepoint.sim.SimConfig;
import dev.kneepoint.sim.Simulator;
import java.util.concurrent.Callable;
import java.util.concurrent.CountDownLatch;
import picocli.CommandLine.Command;
import picocli.CommandLine.Option;

/** {@code kneepoint sim}: the embedded simulator as a standalone server, until interrupted. */
@Command(name = "sim", mixinStandardHelpOptions = true,
        description = "Start the embedded LLM server simulator (OpenAI-compatible) until Ctrl-C.")
final class SimCommand implements Callable<Integer> {
    @Option(names = "--port", defaultValue = "8000", description = "Port, 0 for any free one (default: ${DEFAULT-VALUE})")
    int port;

    @Option(names = "--host", defaultValue = "127.0.0.1", description = "Address to listen on (default: ${DEFAULT-VALUE})")
    String host;

    @Option(names = "--preset", defaultValue = "cpu-small",
            description = "Engine preset: fast, cpu-small, gpu-8b, gpu-70b-tp8 (default: ${DEFAULT-VALUE})")
    String preset;

    @Option(names = "--seed", defaultValue = "42", description = "Seed for jitter, output lengths and faults")
    long seed;

    @Override
    public Integer call() throws InterruptedException {
        SimConfig config = SimConfig.presetBuilder(preset).host(host).port(port).seed(seed).build();
        CountDownLatch stopped = new CountDownLatch(1);
        try (Simulator sim = Simulator.start(config)) {
            Runtime.getRuntime().addShutdownHook(new Thread(() -> {
                sim.close();
                stopped.countDown();
            }));
            System.out.println("simulator '" + preset + "' serving model '" + config.modelName() + "' at " + sim.url()
                    + " (Ctrl-C to stop)");
            stopped.await();
        }
        return 0;
    }
}
