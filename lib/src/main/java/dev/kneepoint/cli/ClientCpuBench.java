package dev.kneepoint.cli;

import dev.kneepoint.client.StreamingClient;
import dev.kneepoint.client.TargetConfig;
import dev.kneepoint.client.Transport;
import dev.kneepoint.metrics.RequestRecord;
import dev.kneepoint.metrics.RunClock;
import dev.kneepoint.request.Cancellation;
import dev.kneepoint.request.RequestContext;
import dev.kneepoint.request.RequestSpec;
import java.lang.management.ManagementFactory;
import java.util.ArrayList;
import java.util.List;
import java.util.Locale;
import java.util.concurrent.atomic.LongAdder;

/**
 * The client's own CPU per streamed token, with the server in another process (so nothing but the
 * client runs in this JVM): {@code STREAMS} virtual threads each stream one long completion
 * ({@code ignore_eos}) from {@code URL}; after {@code WARMUP_S} the process CPU time is sampled, after
 * {@code SECONDS} more again, then every stream is cancelled and the tokens whose arrival falls in the
 * window are counted from the records. Prints CPU µs per token (JIT, GC and the kernel's socket work
 * included) and the tokens/s received.
 *
 * <p>Usage: {@code ClientCpuBench URL TRANSPORT [STREAMS=2000] [SECONDS=8] [WARMUP_S=3] [OUTPUT=3000] [MODEL=sim-fast]}, against
 * e.g. {@code bin/kneepoint sim --preset fast --step-overhead 40ms ...} (see docs/PERFORMANCE.md).
 */
public final class ClientCpuBench {
    private ClientCpuBench() {
    }

    public static void main(String[] args) throws Exception {
        String url = args[0];
        Transport transport = Transport.valueOf(args[1].toUpperCase(Locale.ROOT));
        int streams = args.length > 2 ? Integer.parseInt(args[2]) : 2000;
        int seconds = args.length > 3 ? Integer.parseInt(args[3]) : 8;
        int warmup = args.length > 4 ? Integer.parseInt(args[4]) : 3;
        int output = args.length > 5 ? Integer.parseInt(args[5]) : 3000;
        TargetConfig target = TargetConfig.builder().baseUrl(url).model(args.length > 6 ? args[6] : "sim-fast").apiKind(dev.kneepoint.client.ApiKind.COMPLETIONS)
                .extraBody("ignore_eos", true).transport(transport).build();
        RunClock clock = RunClock.system();
        List<Cancellation> cancels = new ArrayList<>();
        List<Thread> threads = new ArrayList<>();
        RequestRecord[] records = new RequestRecord[streams];
        try (StreamingClient client = new StreamingClient(target)) {
            for (int i = 0; i < streams; i++) {
                Cancellation c = new Cancellation();
                cancels.add(c);
                int id = i;
                threads.add(Thread.ofVirtual().start(() -> records[id] = client.execute(RequestSpec.of("bench", output),
                        new RequestContext(id, "bench", false, clock.now(), clock), c)));
            }
            Thread.sleep(warmup * 1000L);
            long cpu0 = processCpuNanos();
            long t0 = clock.now();
            Thread.sleep(seconds * 1000L);
            long cpu1 = processCpuNanos();
            long t1 = clock.now();
            cancels.forEach(Cancellation::cancel);
            for (Thread t : threads) {
                t.join();
            }
            java.util.Map<String, Integer> outcomes = new java.util.TreeMap<>();
            LongAdder tokens = new LongAdder();
            for (RequestRecord r : records) {
                outcomes.merge(r.outcome().label(), 1, Integer::sum);
                long[] chunkNanos = r.timing().chunkNanos();
                for (int k = 0; k < chunkNanos.length; k++) {
                    if (chunkNanos[k] >= t0 && chunkNanos[k] < t1) {
                        tokens.add(r.timing().chunkTokens()[k]);
                    }
                }
            }
            double window = (t1 - t0) / 1e9;
            System.out.printf(Locale.ROOT, "transport=%s streams=%d window_s=%.1f received_tokens_per_s=%.0f"
                            + " client_cpu_us_per_token=%.2f cpu_cores=%.2f load_average=%.1f outcomes=%s%n", transport, streams, window,
                    tokens.sum() / window, (cpu1 - cpu0) / 1e3 / Math.max(1, tokens.sum()), (cpu1 - cpu0) / 1e9 / window,
                    ManagementFactory.getOperatingSystemMXBean().getSystemLoadAverage(), outcomes);
        }
    }

    private static long processCpuNanos() {
        return ((com.sun.management.OperatingSystemMXBean) ManagementFactory.getOperatingSystemMXBean())
                .getProcessCpuTime();
    }
}
