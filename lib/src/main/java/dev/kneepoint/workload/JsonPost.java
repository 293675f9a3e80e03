package dev.kneepoint.workload;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import java.io.IOException;
import java.io.InterruptedIOException;
import java.util.concurrent.atomic.AtomicLong;
import okhttp3.HttpUrl;
import okhttp3.MediaType;
import okhttp3.OkHttpClient;
import okhttp3.Request;
import okhttp3.RequestBody;
import okhttp3.Response;

/**
 * One JSON {@code POST} and its answer, as the server-side token counters make them: a transport failure or an
 * interrupt is a {@link TokenizerException} naming the URL; any answer, error or not, comes back as a {@link Reply}.
 * Counts its calls (calibration reports its round trips). Thread-safe.
 */
final class JsonPost {
    private static final ObjectMapper MAPPER = new ObjectMapper();
    private static final MediaType JSON = MediaType.get("application/json");

    private final OkHttpClient http;
    private final AtomicLong calls = new AtomicLong();

    JsonPost(OkHttpClient http) {
        this.http = http;
    }

    /** HTTP calls made so far. */
    long calls() {
        return calls.get();
    }

    /** One answer: status, body text and the body as JSON ({@code null} when it is not JSON). */
    record Reply(HttpUrl url, int code, String text, JsonNode json) {
        boolean successful() {
            return code >= 200 && code < 300;
        }

        /** This reply when it is a success with a JSON body; otherwise a {@link TokenizerException} saying which. */
        Reply ok() {
            if (!successful()) {
                throw new TokenizerException("POST " + url + " answered HTTP " + code + ": " + snippet());
            }
            if (json == null) {
                throw new TokenizerException("POST " + url + " answered something that is not JSON: " + snippet());
            }
            return this;
        }

        /** The body, stripped and cut at 300 characters, for error messages. */
        String snippet() {
            String s = text.strip();
            return s.length() > 300 ? s.substring(0, 300) + "..." : s;
        }
    }

    /** Posts {@code body} as JSON to {@code url}. */
    Reply post(HttpUrl url, Object body) {
        calls.incrementAndGet();
        try {
            Request req = new Request.Builder().url(url)
                    .post(RequestBody.create(MAPPER.writeValueAsBytes(body), JSON)).build();
            try (Response resp = http.newCall(req).execute()) {
                String text = resp.body().string();
                JsonNode json;
                try {
                    json = text.isBlank() ? null : MAPPER.readTree(text);
                } catch (IOException notJson) {
                    json = null;
                }
                return new Reply(url, resp.code(), text, json);
            }
        } catch (InterruptedIOException e) {
            if (!(e instanceof java.net.SocketTimeoutException)) {
                Thread.currentThread().interrupt();
            }
            throw new TokenizerException("POST " + url + " interrupted or timed out", e);
        } catch (IOException e) {
            throw new TokenizerException("POST " + url + " failed: " + e.getMessage(), e);
        }
    }
}
