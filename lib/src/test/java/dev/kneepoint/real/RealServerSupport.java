package dev.kneepoint.real;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.fail;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import dev.kneepoint.client.Cancellation;
import dev.kneepoint.client.OpenAiClient;
import dev.kneepoint.client.RequestContext;
import dev.kneepoint.client.TargetConfig;
import dev.kneepoint.metrics.RequestRecord;
import dev.kneepoint.metrics.RunClock;
import dev.kneepoint.workload.RequestSpec;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.time.Duration;
import java.util.List;
import java.util.Map;
import java.util.Objects;
import okhttp3.OkHttpClient;
import okhttp3.Request;
import okhttp3.Response;
import org.junit.jupiter.api.Assumptions;

/**
 * What the real-server tests ({@link LlamaServerTest}, {@link OllamaServerTest}) share: the run / skip / fail
 * decision from the environment ({@link RealServer#gate}, {@link OllamaServer#gate}), its application before
 * every test, one request sent through a fresh client, and the median of measured values.
 */
final class RealServerSupport {
    private RealServerSupport() {
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
        try (OpenAiClient client = new OpenAiClient(target)) {
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
