package dev.kneepoint.client;

import com.fasterxml.jackson.core.JsonProcessingException;
import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import dev.kneepoint.metrics.Outcome;
import dev.kneepoint.metrics.RequestRecord;
import dev.kneepoint.metrics.RunClock;
import dev.kneepoint.request.Cancellation;
import dev.kneepoint.request.RequestContext;
import dev.kneepoint.request.RequestSpec;
import java.io.IOException;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.concurrent.atomic.AtomicBoolean;
import okhttp3.HttpUrl;
import okhttp3.OkHttpClient;
import okhttp3.Request;
import okhttp3.Response;
import okhttp3.ResponseBody;

/**
 * The check before a run's first step (docs/RELIABILITY.md "Preflight"): where the API has it, {@code GET /v1/models}
 * must answer, and one small request must bring tokens back (OK, or a fault after its first token: a stall or a cut
 * stream is the run's to measure). Otherwise {@link #check} throws a {@link PreflightException}
 * naming the cause: connection refused, DNS, TLS, a refused API key, an unknown model (with the names the server
 * serves), or the server's own error. Nothing of it is measured: the request is not part of any step.
 */
public final class Preflight {
    /** Output tokens the preflight request asks for: enough to see a stream, too few to load the server. */
    public static final int MAX_TOKENS = 4;
    /** The prompt of the preflight request. */
    static final String PROMPT = "Reply with OK.";
    /** Time allowed after the first token for the rest of the preflight answer. */
    static final Duration AFTER_FIRST_TOKEN = Duration.ofSeconds(30);
    private static final Set<ApiKind> LISTS_MODELS = Set.of(ApiKind.CHAT, ApiKind.COMPLETIONS, ApiKind.RESPONSES,
            ApiKind.MESSAGES);
    private static final ObjectMapper MAPPER = new ObjectMapper();

    /**
     * What the preflight saw.
     *
     * @param servedModels the model ids {@code GET /v1/models} listed; empty when the API has no such list or the
     *                     server does not serve it (404)
     * @param requestMs    the preflight request's end-to-end time, ms (NaN when it ended without a last token)
     * @param outcome      how the preflight request ended: {@code OK}, or a fault after its first token
     */
    public record Result(List<String> servedModels, double requestMs, String outcome) {
        public Result {
            servedModels = List.copyOf(servedModels);
        }
    }

    private Preflight() {}

    /**
     * Checks that {@code target} answers.
     *
     * @throws PreflightException naming the cause and the fix when it does not
     */
    public static Result check(TargetConfig target) {
        List<String> served = LISTS_MODELS.contains(target.apiKind()) ? models(target) : List.of();
        RequestRecord r;
        Duration limit = limit(target);
        Cancellation cancel = new Cancellation();
        AtomicBoolean late = new AtomicBoolean();
        Thread watchdog = Thread.ofVirtual().name("kneepoint-preflight-watchdog").start(() -> {
            try {
                Thread.sleep(limit);
                late.set(true);
                cancel.cancel();
            } catch (InterruptedException e) {
                // the request ended first
            }
        });
        try (StreamingClient client = new StreamingClient(target)) {
            RunClock clock = RunClock.system();
            r = client.execute(new RequestSpec(PROMPT, List.of(), MAX_TOKENS, -1, Map.of(), "preflight"),
                    new RequestContext(0, "preflight", true, clock.now(), clock), cancel);
        } finally {
            watchdog.interrupt();
        }
        Outcome o = r.outcome();
        if (o.isOk() || r.timing().firstTokenNanos() >= 0) {
            // Tokens came back: the target is reachable and serves the model; a fault after them (a stall, a cut
            // stream) is the run's to measure, not a reason to refuse it.
            return new Result(served, r.e2eNanos() < 0 ? Double.NaN : r.e2eNanos() / 1e6, o.label());
        }
        if (o instanceof Outcome.Cancelled) {
            throw new PreflightException(late.get() ? "the one request for " + MAX_TOKENS + " tokens did not end "
                    + "within " + limit.toSeconds() + " s (POST " + target.endpoint() + "): the server is stuck, still "
                    + "loading, or ignores max_tokens" : "interrupted before the first step: nothing was measured");
        }
        throw new PreflightException(explain(target, o, served));
    }

    /**
     * How long the preflight request may take in all: the connect and first-token timeouts (a server may load its
     * model on the first request) plus {@link #AFTER_FIRST_TOKEN} for the few tokens after it, at most the total
     * timeout. A server that streams past {@link #MAX_TOKENS} forever is stopped by it.
     */
    static Duration limit(TargetConfig target) {
        Duration d = target.connectTimeout().plus(target.firstTokenTimeout()).plus(AFTER_FIRST_TOKEN);
        return d.compareTo(target.totalTimeout()) > 0 ? target.totalTimeout() : d;
    }

    /** Why the preflight request failed, and what to do. */
    static String explain(TargetConfig target, Outcome o, List<String> served) {
        String where = " (POST " + target.endpoint() + ")";
        if (o instanceof Outcome.HttpError h && (h.status() == 401 || h.status() == 403)) {
            return keyRefused(target, h.status(), h.detail());
        }
        if (o instanceof Outcome.HttpError h && !served.isEmpty() && !served.contains(target.model())) {
            return "unknown model '" + target.model() + "': the server serves " + String.join(", ", served)
                    + " (HTTP " + h.status() + (h.detail().isEmpty() ? "" : ": " + h.detail()) + "); pass one of them "
                    + "with --model (TargetConfig.Builder.model).";
        }
        if (o instanceof Outcome.ConnectionError c) {
            return c.detail() + where + "; is the server running there? Check --url.";
        }
        if (o instanceof Outcome.Timeout t) {
            return "the one request timed out (" + o.label() + ")" + where + ": the server accepted it but "
                    + (t.timeoutKind() == Outcome.TimeoutKind.CONNECT ? "the connection did not open"
                    : "did not answer in time") + "; check that it is not stuck or still loading the model.";
        }
        if (o instanceof Outcome.HttpError h) {
            return "the server answered the one request with HTTP " + h.status() + (h.detail().isEmpty() ? ""
                    : ": " + h.detail()) + where + "; check that it is healthy (its log says more), and --model.";
        }
        return "the one request ended as " + o.label() + (o.detail().isEmpty() ? "" : ": " + o.detail()) + where
                + "; check --api (the server's API) and --model.";
    }

    private static String keyRefused(TargetConfig target, int status, String detail) {
        return "the server refused the request (HTTP " + status + (detail.isEmpty() ? "" : ": " + detail) + "): "
                + (target.hasApiKey() ? "check the API key given" : "no API key was given")
                + "; give it with --api-key-env NAME or --api-key-file FILE (TargetConfig.Builder.apiKeyEnv).";
    }

    /** The ids {@code GET /v1/models} lists; empty when the server has no such list (404) or it is unreadable. */
    private static List<String> models(TargetConfig target) {
        HttpUrl url = target.baseUrl().newBuilder().encodedPath("/v1/models").build();
        OkHttpClient http = HttpClients.forChecks(target);
        Request get = new Request.Builder().url(url).get().build();
        try (Response resp = http.newCall(get).execute()) {
            ResponseBody body = resp.body();
            String text = body == null ? "" : body.string();
            if (resp.code() == 401 || resp.code() == 403) {
                throw new PreflightException(keyRefused(target, resp.code(), firstLine(text)));
            }
            if (!resp.isSuccessful()) {
                return List.of(); // e.g. 404: not every server lists its models; the request will tell
            }
            JsonNode list;
            try {
                list = MAPPER.readTree(text);
            } catch (JsonProcessingException e) {
                return List.of(); // not the OpenAI list: the request will tell
            }
            List<String> ids = new ArrayList<>();
            for (JsonNode m : list.path("data")) {
                if (m.hasNonNull("id")) {
                    ids.add(m.get("id").asText());
                }
            }
            return ids;
        } catch (IOException e) {
            Outcome o = Failures.classify(e, url, false, false, 0);
            if (o instanceof Outcome.Timeout) {
                throw new PreflightException("GET " + url + " timed out (" + o.label() + " after "
                        + seconds(target.connectTimeout()) + "): is the server running there? Check --url.");
            }
            throw new PreflightException(o.detail() + " (GET " + url + "); is the server running there? Check --url.");
        }
    }

    private static String firstLine(String s) {
        String t = s.strip();
        int nl = t.indexOf('\n');
        t = nl < 0 ? t : t.substring(0, nl);
        return t.length() > 200 ? t.substring(0, 200) + "..." : t;
    }

    private static String seconds(Duration d) {
        return d.toMillis() / 1000.0 + " s";
    }
}
