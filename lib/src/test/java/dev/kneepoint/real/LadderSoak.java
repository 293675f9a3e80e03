package dev.kneepoint.real;

import dev.kneepoint.Kneepoint;
import dev.kneepoint.client.ApiKind;
import dev.kneepoint.client.TargetConfig;
import dev.kneepoint.client.Transport;
import dev.kneepoint.metrics.RunResult;
import dev.kneepoint.metrics.StepResult;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.Random;
import java.util.TreeMap;
import java.util.stream.Stream;

/**
 * Not a test: a soak of {@link LlamaServerTest}'s ladder (c = 1, 2, 4 closed loop, 32 in / 32 out, warm-up 1 s,
 * steps 5 s) against a running llama-server, alternating the transports with random idle gaps, to count
 * connection errors and resent requests (bench/reference/performance-history.md, "NIO transport", follow-up).
 *
 * <p>Usage: {@code java -cp <test classpath> dev.kneepoint.real.LadderSoak URL LADDERS_PER_TRANSPORT OUT_DIR
 * [TRANSPORTS]}; prints one line per ladder and a total per transport.
 */
public final class LadderSoak {
    private LadderSoak() {}

    public static void main(String[] args) throws IOException, InterruptedException {
        String url = args[0];
        int n = Integer.parseInt(args[1]);
        Path out = Path.of(args[2]);
        List<Transport> transports = args.length > 3
                ? Stream.of(args[3].split(",")).map(s -> Transport.valueOf(s.toUpperCase(Locale.ROOT))).toList()
                : List.of(Transport.NIO, Transport.OKHTTP);
        RealServer server = RealServer.connect(url, System.getenv());
        Random random = new Random(42);
        Map<Transport, long[]> totals = new TreeMap<>(); // ok, failed, retried, ladders with a failure
        for (int i = 0; i < n; i++) {
            for (Transport t : transports) {
                long gapMs = 1000 + random.nextInt(6001); // 1-7 s idle between ladders
                Thread.sleep(gapMs);
                TargetConfig target = Kneepoint.targetBuilder().baseUrl(url).model(server.model())
                        .apiKind(ApiKind.COMPLETIONS).transport(t)
                        .firstTokenTimeout(Duration.ofSeconds(30)).totalTimeout(Duration.ofSeconds(60)).build();
                Path dir = out.resolve(String.format(Locale.ROOT, "%02d-%s", i, t));
                RunResult run = Kneepoint.ladder(target, 1, 2, 4).inputTokens(32).outputTokens(32).ignoreEos(true)
                        .warmup(Duration.ofSeconds(1)).stepDuration(Duration.ofSeconds(5))
                        .outputDir(dir).name("soak").run();
                long ok = 0;
                long failed = 0;
                Map<String, Long> classes = new TreeMap<>();
                for (StepResult s : run.steps()) {
                    ok += s.counts().requestsOk();
                    failed += s.counts().requestsFailed();
                    s.counts().failuresByClass().forEach((k, v) -> classes.merge(k, v, Long::sum));
                }
                long[] lines = scan(dir);
                long[] tot = totals.computeIfAbsent(t, k -> new long[4]);
                tot[0] += ok;
                tot[1] += lines[1];
                tot[2] += lines[2];
                tot[3] += lines[1] > 0 ? 1 : 0;
                System.out.printf(Locale.ROOT, "ladder %02d %-6s gap %4d ms: steps ok %d failed %d %s; all records %d,"
                        + " not OK %d, retried %d%n", i, t, gapMs, ok, failed, classes, lines[0], lines[1], lines[2]);
            }
        }
        totals.forEach((t, v) -> System.out.printf(Locale.ROOT,
                "TOTAL %-6s ok (windowed) %d, not-OK records %d, retried records %d, ladders with a failure %d%n",
                t, v[0], v[1], v[2], v[3]));
        server.close();
    }

    /** Records, not-OK records (warm-up included) and retried records in the run's requests.jsonl files. */
    private static long[] scan(Path dir) throws IOException {
        long[] c = new long[3];
        try (Stream<Path> files = Files.walk(dir)) {
            for (Path f : files.filter(p -> p.getFileName().toString().startsWith("requests")).toList()) {
                for (String line : Files.readAllLines(f)) {
                    if (line.isBlank()) {
                        continue;
                    }
                    c[0]++;
                    if (!line.contains("\"outcome\":\"OK\"")) {
                        c[1]++;
                        System.out.println("  not OK: " + line.replaceAll("\"chunk_(ns|tokens)\":\\[[^]]*],", ""));
                    }
                    if (line.contains("\"retried\":true")) {
                        c[2]++;
                    }
                }
            }
        }
        return c;
    }
}
