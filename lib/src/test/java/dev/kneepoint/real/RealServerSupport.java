package dev.kneepoint.real;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.fail;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import dev.kneepoint.client.StreamingClient;
import dev.kneepoint.client.TargetConfig;
import dev.kneepoint.metrics.RequestRecord;
import dev.kneepoint.metrics.RunClock;
import dev.kneepoint.request.Cancellation;
import dev.kneepoint.request.RequestContext;
import dev.kneepoint.request.RequestSpec;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Objects;
import java.util.function.Consumer;
import java.util.function.Function;
import java.util.function.Supplier;
import okhttp3.OkHttpClient;
import okhttp3.Request;
import okhttp3.Response;
import org.junit.jupiter.api.Assumptions;

/**
 * What the real-server tests ({@link LlamaServerTest}, {@link OllamaServerTest}) share: the run / skip / fail
 * decision from the environment ({@link RealServer#gate}, {@link OllamaServer#gate}), its application before
 * every test, the test class's {@link Session} (server, clock, request ids, report), one request sent through a
 * fresh client, and the median of measured values.
 */
final class RealServerSupport {
    private RealServerSupport() {
    }

    /**
     * A real-server test class's shared state and JUnit set-up, one per class (a static final field):
     * {@link #connect} in {@code @BeforeAll} decides run / skip / fail from the environment and connects only on
     * run; {@link #require} in {@code @BeforeEach} makes every test show as skipped (with the reason) or failed,
     * never silently absent; {@link #close} in {@code @AfterAll} closes the server, if one was connected, and
     * writes the measured numbers {@link #report}ed (not asserted) to {@code target/<reportFile>}.
     *
     * @param <S> the server handle ({@link RealServer}, {@link OllamaServer})
     */
    static final class Session<S> {
        private final Supplier<RealServer.Gate> gates;
        private final Function<String, S> connector;
        private final Consumer<S> closer;
        private final String reportFile;
        private final RunClock clock = RunClock.system();
        private final List<String> report = new ArrayList<>();
        private RealServer.Gate gate;
        private S server;
        private long nextId = 1;

        /**
         * @param gate       the run / skip / fail decision from the environment, taken in {@link #connect}
         * @param connect    connects to the base URL of a {@code Run} gate
         * @param close      lets go of a connected server
         * @param reportFile the report's file name under {@code target/}
         */
        Session(Supplier<RealServer.Gate> gate, Function<String, S> connect, Consumer<S> close, String reportFile) {
            this.gates = gate;
            this.connector = connect;
            this.closer = close;
            this.reportFile = reportFile;
        }

        /** {@code @BeforeAll}: decides from the environment and connects on {@code Run}; returns the server or null. */
        S connect() {
            gate = gates.get();
            if (gate instanceof RealServer.Gate.Run r) {
                server = connector.apply(r.baseUrl());
            }
            return server;
        }

        /** {@code @BeforeEach}: {@link RealServerSupport#require} with this class's gate and server. */
        void require() {
            RealServerSupport.require(gate, server);
        }

        /** {@code @AfterAll}: closes a connected server and writes the report (nothing when none was connected). */
        void close() throws IOException {
            if (server != null) {
                closer.accept(server);
                Files.write(Path.of("target", reportFile), report);
            }
        }

        /** Adds measured numbers to the report (for docs/REAL-SERVER.md; not asserted). */
        void report(String line) {
            report.add(line);
        }

        /** A request context with the next id, on this class's clock ({@link RealServerSupport#context}). */
        RequestContext context() {
            return RealServerSupport.context(nextId++, clock);
        }

        /** Sends {@code spec} through a fresh client of {@code target} with the next id ({@link RealServerSupport#send}). */
        RequestRecord send(TargetConfig target, RequestSpec spec) {
            return RealServerSupport.send(target, spec, nextId++, clock);
        }
    }

    /** A test class's session against the llama.cpp server named by the environment ({@link RealServer#gate}). */
    static Session<RealServer> llamaSession(String reportFile) {
        return new Session<>(() -> RealServer.gate(System.getenv(), RealServer::probeHealth),
                url -> RealServer.connect(url, System.getenv()), RealServer::close, reportFile);
    }

    /**
     * Run / skip / fail from the environment and a probe (pure, unit-tested through the two servers' gates).
     *
     * @param urlVar      the variable holding the base URL (a trailing {@code /} or {@code /v1} is dropped)
     * @param requireVar  the variable that, at {@code 1} or {@code true}, turns a skip into a failure
     * @param launcher    the script that starts the server, for the message when {@code urlVar} is unset
     * @param label       the server's name in the message when the probe fails
     * @param requirement what {@code requireVar} requires, for the failure message
     */
    static RealServer.Gate gate(Map<String, String> env, RealServer.Probe probe, String urlVar, String requireVar,
                                String launcher, String label, String requirement) {
        boolean required = "1".equals(env.get(requireVar)) || "true".equalsIgnoreCase(env.get(requireVar));
        String url = env.get(urlVar);
        String problem;
        if (url == null || url.isBlank()) {
            problem = urlVar + " is not set (start one with `" + launcher + " start` and export the URL it prints)";
        } else {
            url = url.strip().replaceAll("/+$", "").replaceAll("/v1$", "");
            problem = probe.problem(url);
            if (problem == null) {
                return new RealServer.Gate.Run(url);
            }
            problem = label + " at " + url + " is not usable: " + problem;
        }
        return required
                ? new RealServer.Gate.Fail(problem + " but " + requireVar + "=1 requires " + requirement)
                : new RealServer.Gate.Skip(problem);
    }

    /**
     * Before every test, so that each shows as skipped (with the reason) or failed, never silently absent:
     * aborts on {@code Skip}, fails on {@code Fail}, and on {@code Run} checks that the server was connected.
     */
    static void require(RealServer.Gate gate, Object server) {
        switch (gate) {
            case RealServer.Gate.Skip s -> Assumptions.abort(s.reason());
            case RealServer.Gate.Fail f -> fail(f.reason());
            case RealServer.Gate.Run r -> assertThat(server).isNotNull();
        }
    }

    /** A request context on {@code clock}, dispatched now, phase {@code real}, measured. */
    static RequestContext context(long id, RunClock clock) {
        return new RequestContext(id, "real", false, clock.now(), clock);
    }

    /** Sends {@code spec} through a fresh client of {@code target} (closed afterwards) and returns its record. */
    static RequestRecord send(TargetConfig target, RequestSpec spec, long id, RunClock clock) {
        try (StreamingClient client = new StreamingClient(target)) {
            return client.execute(spec, context(id, clock), new Cancellation());
        }
    }

    /** The median of {@code xs} (the mean of the middle two for an even count). */
    static double median(List<Double> xs) {
        List<Double> s = xs.stream().sorted().toList();
        int m = s.size() / 2;
        return s.size() % 2 == 1 ? s.get(m) : (s.get(m - 1) + s.get(m)) / 2;
    }

    private static final ObjectMapper JSON = new ObjectMapper();

    /** An HTTP client for a real server's own endpoints: connect and read timeouts as given. */
    static OkHttpClient client(Duration connect, Duration read) {
        return new OkHttpClient.Builder().connectTimeout(connect).readTimeout(read).build();
    }

    /** Lets go of a client's threads and pooled connections. */
    static void release(OkHttpClient http) {
        http.dispatcher().executorService().shutdown();
        http.connectionPool().evictAll();
    }

    /** {@code GET baseUrl + path}'s body; anything but 200 is an error naming the path. */
    static String getText(OkHttpClient http, String baseUrl, String path) {
        try (Response r = http.newCall(new Request.Builder().url(baseUrl + path).build()).execute()) {
            String text = Objects.requireNonNull(r.body()).string();
            if (r.code() != 200) {
                throw new IllegalStateException("GET " + path + " answered HTTP " + r.code() + ": " + text);
            }
            return text;
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
    }

    /** {@link #getText} as JSON. */
    static JsonNode getJson(OkHttpClient http, String baseUrl, String path) {
        try {
            return JSON.readTree(getText(http, baseUrl, path));
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
    }
}
