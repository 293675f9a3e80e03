package dev.kneepoint.sweep;

import dev.kneepoint.client.StreamingClient;
import dev.kneepoint.client.TargetConfig;
import dev.kneepoint.client.Transport;
import dev.kneepoint.load.ArrivalPlan;
import dev.kneepoint.load.LoadRun;
import dev.kneepoint.load.OpenLoopStep;
import dev.kneepoint.metrics.Outcome;
import dev.kneepoint.metrics.RunClock;
import dev.kneepoint.request.Cancellation;
import dev.kneepoint.request.RequestContext;
import dev.kneepoint.request.RequestSpec;
import dev.kneepoint.sim.SimConfig;
import dev.kneepoint.sim.Simulator;
import dev.kneepoint.workload.Workloads;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.atomic.AtomicInteger;

/**
 * Warms the client's own request path before a JVM's first sweep, so that class loading and the first JIT
 * compilations of the HTTP transport, the stream framer and the decoder do not land in the first measured
 * requests (in a cold JVM the first closed-loop requests otherwise started ≈ 30 ms late and had ≈ 30 ms more
 * TTFT than the rest: bench/reference/performance-history.md, "Side by side with peer tools").
 *
 * <p>It streams a few thousand tokens from an embedded simulator on 127.0.0.1, never from the target, so the
 * server under test sees nothing, through a client with the target's transport, API kind and streaming
 * settings, then sends a quarter second of open-loop load through the load layer, so that the dispatch path is
 * warm too. Once per JVM for each such combination; what it took is returned for the manifest.
 */
final class ClientWarmup {
    /** Streams at once and requests per stream: 4 x 12 requests of {@value #TOKENS} tokens = 6,144 tokens. */
    static final int STREAMS = 4;
    static final int REQUESTS_PER_STREAM = 12;
    static final int TOKENS = 128;
    /** The open-loop part: 50 requests at 200 req/s. */
    static final double OPEN_LOOP_RPS = 200;
    static final java.time.Duration OPEN_LOOP = java.time.Duration.ofMillis(250);
    private static final Set<String> DONE = ConcurrentHashMap.newKeySet();

    private ClientWarmup() {}

    /**
     * Warms the path {@code target} will use, unless this JVM already did.
     *
     * @return the warm-up's wall time in ms, 0 when it was already done, or -1 when it failed or no request came
     *         back OK (a warm-up that fails is not an error of the run: the run then starts cold, as it would have
     *         without it)
     */
    static double ensure(TargetConfig target) {
        String key = target.usesNio() + "|" + target.apiKind() + "|" + target.stream() + "|" + target.continuousUsageStats();
        if (!DONE.add(key)) {
            return 0;
        }
        long start = System.nanoTime();
        SimConfig config = SimConfig.builder().modelName("kneepoint-warmup").stepOverheadNanos(50_000)
                .decodeNanosPerSeq(5_000).prefillNanosPerToken(100).attentionNanosPerContextToken(0).build();
        try (Simulator sim = Simulator.start(config);
             StreamingClient client = new StreamingClient(TargetConfig.builder().baseUrl(sim.url()).model("kneepoint-warmup")
                     // the transport the target will really use: AUTO resolves by scheme, and the warm-up is http
                     .apiKind(target.apiKind()).transport(target.usesNio() ? Transport.NIO : Transport.OKHTTP)
                     .stream(target.stream())
                     .continuousUsageStats(target.continuousUsageStats()).build())) {
            RunClock clock = RunClock.system();
            RequestSpec spec = new RequestSpec("warm up the client's request path", List.of(), TOKENS, -1,
                    Map.of("ignore_eos", true), "warmup");
            AtomicInteger ok = new AtomicInteger();
            List<Thread> threads = new ArrayList<>();
            for (int s = 0; s < STREAMS; s++) {
                int stream = s;
                threads.add(Thread.ofVirtual().name("kneepoint-client-warmup-" + s).start(() -> {
                    for (int r = 0; r < REQUESTS_PER_STREAM && !Thread.currentThread().isInterrupted(); r++) {
                        long id = (long) stream * REQUESTS_PER_STREAM + r;
                        if (client.execute(spec, new RequestContext(id, "client-warmup", true, clock.now(), clock),
                                new Cancellation()).outcome() instanceof Outcome.Ok) {
                            ok.incrementAndGet();
                        }
                    }
                }));
            }
            for (Thread t : threads) {
                t.join();
            }
            if (ok.get() == 0) {
                return -1; // nothing came back: nothing was warmed
            }
            openLoop(client);
            return (System.nanoTime() - start) / 1e6;
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            return -1;
        } catch (RuntimeException e) {
            return -1;
        }
    }

    /**
     * A quarter second of open-loop load through the load layer itself, with synthetic prompts: the step's scheduler
     * thread, the request tracker, a virtual thread per request and the workload's prompt building are then warm too.
     * Without it, in a fresh JVM the first open-loop request left 3-14 ms after its planned instant (5 req/s, no
     * step warm-up, three fresh JVMs; the client path alone warmed) while the rest left within about a millisecond.
     */
    private static void openLoop(StreamingClient client) {
        LoadRun.builder().sender(client).listener(record -> { })
                .workload(Workloads.synthetic().inputTokens(64).outputTokens(16).build())
                .step(OpenLoopStep.builder().arrival(ArrivalPlan.constant(OPEN_LOOP_RPS)).duration(OPEN_LOOP).build())
                .build().run();
    }
}
