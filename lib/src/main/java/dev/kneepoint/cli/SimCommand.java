package dev.kneepoint.cli;

import dev.kneepoint.sim.SimConfig;
import dev.kneepoint.sim.Simulator;
import java.util.Map;
import java.util.concurrent.Callable;
import java.util.concurrent.CountDownLatch;
import picocli.CommandLine.Command;
import picocli.CommandLine.Mixin;
import picocli.CommandLine.Option;

/**
 * {@code kneepoint sim}: the embedded simulator as a standalone server, until interrupted. Its address and seed
 * default to {@link SimConfig}'s ({@link OptionDefaults}); its port and preset are its own (the constants below):
 * a standalone server listens where another tool can be pointed at it (vLLM's 8000, where the library's embedded
 * simulator takes any free port), and the library names no default engine.
 */
@Command(name = "sim", mixinStandardHelpOptions = true, defaultValueProvider = OptionDefaults.class,
        description = "Start the embedded LLM server simulator (OpenAI-compatible) until Ctrl-C.")
final class SimCommand implements Callable<Integer>, OptionDefaults.Own {
    /** The port served. */
    private static final int PORT = 8000;
    /** The engine: a ~1B model on a laptop CPU. */
    private static final String PRESET = "cpu-small";

    @Option(names = "--port", description = "Port, 0 for any free one (default: ${DEFAULT-VALUE})")
    int port;

    @Option(names = "--host", description = "Address to listen on (default: ${DEFAULT-VALUE})")
    String host;

    @Mixin
    SimulatorOptions simulator;

    @Option(names = "--max-num-seqs", description = "Override: sequences in the running batch")
    Integer maxNumSeqs;

    @Option(names = "--max-batched-tokens", description = "Override: token budget per engine step")
    Integer maxBatchedTokens;

    @Option(names = "--kv-tokens", description = "Override: KV-cache capacity in tokens")
    Integer kvTokens;

    @Option(names = "--max-model-len", description = "Override: context length")
    Integer maxModelLen;

    @Option(names = "--step-overhead", description = "Override: fixed cost of one engine step, e.g. 6ms")
    java.time.Duration stepOverhead;

    @Option(names = "--decode-us", description = "Override: microseconds per decoding sequence per step")
    Double decodeMicros;

    @Option(names = "--prefill-us", description = "Override: microseconds per prefill token")
    Double prefillMicros;

    @Option(names = "--attention-ns", description = "Override: nanoseconds per context token per step")
    Double attentionNanos;

    @Option(names = "--tokens-per-chunk", description = "Override: tokens per streamed event (speculative decoding)")
    Integer tokensPerChunk;

    @Option(names = "--jitter", description = "Override: relative step-time jitter (0 = none)")
    Double jitter;

    @Override
    public Map<String, ?> ownDefaults() {
        return Map.of("--port", PORT, "--preset", PRESET);
    }

    SimConfig config() {
        SimConfig.Builder b = simulator.builder().host(host).port(port);
        Given.set(maxNumSeqs, b::maxNumSeqs);
        Given.set(maxBatchedTokens, b::maxNumBatchedTokens);
        Given.set(kvTokens, b::kvCapacityTokens);
        Given.set(maxModelLen, b::maxModelLen);
        Given.set(stepOverhead, b::stepOverhead);
        Given.set(decodeMicros, v -> b.decodeNanosPerSeq(v * 1000));
        Given.set(prefillMicros, v -> b.prefillNanosPerToken(v * 1000));
        Given.set(attentionNanos, b::attentionNanosPerContextToken);
        Given.set(tokensPerChunk, b::tokensPerChunk);
        Given.set(jitter, b::jitter);
        return b.build();
    }

    @Override
    public Integer call() throws InterruptedException {
        SimConfig config = config();
        CountDownLatch stopped = new CountDownLatch(1);
        try (Simulator sim = Simulator.start(config)) {
            Runtime.getRuntime().addShutdownHook(new Thread(() -> {
                sim.close();
                stopped.countDown();
            }));
            System.out.println("simulator '" + simulator.preset + "' serving model '" + config.modelName() + "' at " + sim.url()
                    + " (Ctrl-C to stop)");
            stopped.await();
        }
        return 0;
    }
}
