package dev.kneepoint.sim;

import java.io.IOException;
import java.net.InetSocketAddress;
import java.net.StandardSocketOptions;
import java.nio.ByteBuffer;
import java.nio.channels.SelectionKey;
import java.nio.channels.Selector;
import java.nio.channels.SocketChannel;
import java.nio.charset.StandardCharsets;
import java.util.Locale;
import java.util.concurrent.atomic.AtomicBoolean;
import java.util.concurrent.atomic.LongAdder;

/**
 * Benchmark of the simulator itself: {@code streams} closed-loop clients in the same JVM (one NIO
 * selector thread, keep-alive sockets) stream completions from a simulator whose engine
 * is tuned to deliver {@code tokensPerSecond} in total (step = streams / tokensPerSecond, one token
 * per stream per step). Prints the tokens/s received, requests/s and the simulator's emission lag
 * (measured after the warm-up).
 *
 * <p>Usage: {@code SimBench [streams=2000] [tokensPerSecond=50000] [seconds=20] [outputTokens=200] [warmupSeconds=5]
 * [spreadPercent=0]}; {@code spreadPercent} spreads each step's outputs over that share of the step
 * ({@link SimConfig#emitNanosPerSeq()}), 0 = every output of a step due at the step's end.
 */
public final class SimBench {
    private static final byte[] CONTENT = ":null}]}".getBytes(StandardCharsets.US_ASCII);
    private static final byte[] END = "[DONE]\n\n\r\n0\r\n\r\n".getBytes(StandardCharsets.US_ASCII);

    private SimBench() {
    }

    /** Runs the benchmark and prints one result line per phase. */
    public static void main(String[] args) throws Exception {
        int streams = arg(args, 0, 2000);
        int tps = arg(args, 1, 50_000);
        int seconds = arg(args, 2, 20);
        int output = arg(args, 3, 200);
        int warmup = arg(args, 4, 5);
        int spreadPercent = arg(args, 5, 0);
        long stepNanos = 1_000_000_000L * streams / tps;
        long emitNanos = stepNanos * spreadPercent / 100 / streams;
        SimConfig c = SimConfig.presetBuilder("fast").maxNumSeqs(streams).maxNumBatchedTokens(Math.max(8192, 2 * streams))
                .kvCapacityTokens(streams * (output + 64)).stepOverheadNanos(stepNanos).prefillNanosPerToken(0)
                .decodeNanosPerSeq(0).attentionNanosPerContextToken(0).prefixCaching(false).emitNanosPerSeq(emitNanos).build();
        LongAdder tokens = new LongAdder();
        LongAdder served = new LongAdder();
        LongAdder failures = new LongAdder();
        AtomicBoolean stop = new AtomicBoolean();
        byte[][] requests = new byte[16][];
        for (int i = 0; i < requests.length; i++) {
            // lengths spread over [output/2, 3*output/2) so the closed loops do not turn over in lockstep
            String body = "{\"prompt\":\"bench prompt of eight tokens in all\",\"max_tokens\":"
                    + (output / 2 + i * output / requests.length) + ",\"ignore_eos\":true,\"stream\":true}";
            requests[i] = ("POST /v1/completions HTTP/1.1\r\nHost: localhost\r\nContent-Type: application/json\r\n"
                    + "Content-Length: " + body.length() + "\r\n\r\n" + body).getBytes(StandardCharsets.US_ASCII);
        }
        try (Simulator sim = Simulator.start(c)) {
            Thread client = Thread.ofPlatform().name("simbench-client").start(
                    () -> clients(sim.port(), streams, requests, stop, tokens, served, failures));
            Thread.sleep(warmup * 1000L);
            sim.resetEmissionLag();
            long t0 = System.nanoTime();
            long cpu0 = processCpuNanos();
            long emitted0 = sim.stats().tokensEmitted();
            long tok0 = tokens.sum();
            long req0 = served.sum();
            Thread.sleep(seconds * 1000L);
            double span = (System.nanoTime() - t0) / 1e9;
            long cpu = processCpuNanos() - cpu0;
            long tok = tokens.sum() - tok0;
            long req = served.sum() - req0;
            SimStats st = sim.stats();
            System.out.printf(Locale.ROOT, "streams=%d target_tokens_per_s=%d step_ms=%.1f emit_us_per_seq=%.1f window_s=%.1f%n",
                    streams, tps, stepNanos / 1e6, emitNanos / 1e3, span);
            System.out.printf(Locale.ROOT, "received_tokens_per_s=%.0f requests_per_s=%.1f running=%d waiting=%d "
                            + "failures=%d%n", tok / span, req / span, st.running(), st.waiting(), failures.sum());
            System.out.printf(Locale.ROOT, "emission_lag_ms p50=%.3f p99=%.3f max=%.3f count=%d%n",
                    st.emissionLagP50().toNanos() / 1e6, st.emissionLagP99().toNanos() / 1e6,
                    st.emissionLagMax().toNanos() / 1e6, st.emissionLagCount());
            System.out.printf(Locale.ROOT, "process_cpu_us_per_emitted_token=%.2f (simulator and this minimal client)%n",
                    cpu / 1e3 / Math.max(1, sim.stats().tokensEmitted() - emitted0));
            stop.set(true);
            client.join();
        }
    }

    /**
     * All streams on one NIO selector thread (cheaper than a thread per stream, so the numbers show the
     * simulator's cost): each connection sends a request, counts content events until the terminal
     * chunk after {@code [DONE]}, then sends the next request on the same connection.
     */
    private static void clients(int port, int streams, byte[][] reqs, AtomicBoolean stop, LongAdder tokens,
                                LongAdder requests, LongAdder failures) {
        java.util.SplittableRandom random = new java.util.SplittableRandom(1);
        ByteBuffer buf = ByteBuffer.allocateDirect(64 * 1024);
        byte[] bytes = new byte[64 * 1024];
        try (Selector selector = Selector.open()) {
            for (int i = 0; i < streams; i++) {
                SocketChannel ch = SocketChannel.open(new InetSocketAddress("127.0.0.1", port));
                ch.setOption(StandardSocketOptions.TCP_NODELAY, true);
                ch.configureBlocking(false);
                ch.write(ByteBuffer.wrap(reqs[random.nextInt(reqs.length)]));
                ch.register(selector, SelectionKey.OP_READ, new int[2]);
            }
            while (!stop.get()) {
                selector.select(100);
                for (SelectionKey key : selector.selectedKeys()) {
                    SocketChannel ch = (SocketChannel) key.channel();
                    int[] state = (int[]) key.attachment();
                    buf.clear();
                    int n = ch.read(buf);
                    if (n < 0) {
                        failures.increment();
                        key.cancel();
                        continue;
                    }
                    buf.flip();
                    buf.get(bytes, 0, n);
                    int found = 0;
                    boolean ended = false;
                    for (int i = 0; i < n; i++) {
                        byte b = bytes[i];
                        state[0] = step(CONTENT, state[0], b);
                        if (state[0] == CONTENT.length) {
                            found++;
                            state[0] = 0;
                        }
                        state[1] = step(END, state[1], b);
                        if (state[1] == END.length) {
                            ended = true;
                            state[1] = 0;
                        }
                    }
                    tokens.add(found);
                    if (ended) {
                        requests.increment();
                        ch.write(ByteBuffer.wrap(reqs[random.nextInt(reqs.length)]));
                    }
                }
                selector.selectedKeys().clear();
            }
            for (SelectionKey key : selector.keys()) {
                key.channel().close();
            }
        } catch (IOException e) {
            failures.increment();
        }
    }

    /** Naive pattern matcher step (the patterns have no repeated prefixes that matter here). */
    private static int step(byte[] pattern, int state, byte b) {
        if (pattern[state] == b) {
            return state + 1;
        }
        return pattern[0] == b ? 1 : 0;
    }

    private static long processCpuNanos() {
        return ((com.sun.management.OperatingSystemMXBean) java.lang.management.ManagementFactory
                .getOperatingSystemMXBean()).getProcessCpuTime();
    }

    private static int arg(String[] args, int i, int dflt) {
        return args.length > i ? Integer.parseInt(args[i]) : dflt;
    }

}
