package dev.kneepoint.real;

import dev.kneepoint.Kneepoint;
import dev.kneepoint.client.ApiKind;
import dev.kneepoint.client.StreamingClient;
import dev.kneepoint.client.TargetConfig;
import dev.kneepoint.client.Transport;
import dev.kneepoint.metrics.RequestRecord;
import dev.kneepoint.metrics.RunClock;
import dev.kneepoint.request.Cancellation;
import dev.kneepoint.request.RequestContext;
import dev.kneepoint.request.RequestSpec;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.TreeMap;
import java.util.concurrent.atomic.AtomicLong;

/**
 * Not a test: stresses the one moment a stale connection can still be met against llama-server, a client's
 * first reuse (before it learnt that the server closes connections after each streamed response). Many
 * short-lived clients, each with {@code users} threads sending {@code perUser} short streamed requests back to
 * back; counts outcomes and resent requests per transport.
 *
 * <p>Usage: {@code java -cp <test classpath> dev.kneepoint.real.FirstReuseProbe URL CLIENTS USERS PER_USER
 * [TRANSPORTS]}.
 */
public final class FirstReuseProbe {
    private FirstReuseProbe() {}

    public static void main(String[] args) throws Exception {
        String url = args[0];
        int clients = Integer.parseInt(args[1]);
        int users = Integer.parseInt(args[2]);
        int perUser = Integer.parseInt(args[3]);
        List<Transport> transports = args.length > 4
                ? List.of(args[4].split(",")).stream().map(s -> Transport.valueOf(s.toUpperCase(Locale.ROOT))).toList()
                : List.of(Transport.NIO, Transport.OKHTTP);
        RealServer server = RealServer.connect(url, System.getenv());
        RunClock clock = RunClock.system();
        AtomicLong ids = new AtomicLong();
        for (Transport t : transports) {
            TargetConfig target = Kneepoint.targetBuilder().baseUrl(url).model(server.model())
                    .apiKind(ApiKind.COMPLETIONS).transport(t)
                    .firstTokenTimeout(Duration.ofSeconds(30)).totalTimeout(Duration.ofSeconds(60)).build();
            Map<String, Long> outcomes = new TreeMap<>();
            long retried = 0;
            for (int c = 0; c < clients; c++) {
                List<RequestRecord> records = java.util.Collections.synchronizedList(new ArrayList<>());
                try (StreamingClient client = new StreamingClient(target)) {
                    List<Thread> threads = new ArrayList<>();
                    for (int u = 0; u < users; u++) {
                        threads.add(Thread.ofVirtual().start(() -> {
                            for (int k = 0; k < perUser; k++) {
                                RequestSpec spec = new RequestSpec("Count to ten.", List.of(), 4, -1, Map.of("ignore_eos", true), "probe");
                                records.add(client.execute(spec, new RequestContext(ids.incrementAndGet(), "probe",
                                        false, clock.now(), clock), new Cancellation()));
                            }
                        }));
                    }
                    for (Thread th : threads) {
                        th.join();
                    }
                }
                for (RequestRecord r : records) {
                    outcomes.merge(r.outcome().label(), 1L, Long::sum);
                    retried += r.response().retried() ? 1 : 0;
                    if (!r.isOk()) {
                        System.out.println("  " + t + " not OK: " + r.outcome().label() + " " + r.outcome().detail());
                    }
                }
            }
            System.out.printf(Locale.ROOT, "%-6s clients %d x users %d x %d requests: outcomes %s, retried %d%n",
                    t, clients, users, perUser, outcomes, retried);
        }
        server.close();
    }
}
