package dev.kneepoint.client;

import dev.kneepoint.metrics.Outcome;
import dev.kneepoint.metrics.RequestRecord;
import dev.kneepoint.metrics.RunClock;
import dev.kneepoint.request.Cancellation;
import dev.kneepoint.request.RequestSpec;
import java.io.IOException;
import java.util.Locale;
import okhttp3.Call;
import okhttp3.Response;
import okhttp3.ResponseBody;
import okio.BufferedSource;

/**
 * One request on the wire: executes the call on the caller's thread, reads the body in large reads,
 * timestamps each read once, and leaves timestamps, counts and the outcome in the record builder.
 * Single use; owned by the request's thread.
 */
final class Exchange {
    /**
     * Read buffer. okio hands out at most one 8 KiB segment per read from an empty buffer, so a
     * larger array only costs memory when thousands of streams are open at once.
     */
    private static final int READ_BUFFER_BYTES = 16 * 1024;
    private static final int ERROR_SNIPPET_CHARS = 500;

    private final TargetConfig target;
    private final Call call;
    private final CallProbe probe;
    private final RunClock clock;
    private final RequestRecord.Builder b;
    private final RequestDeadlines deadlines;
    private final StreamState state;
    private boolean headersReceived;

    Exchange(TargetConfig target, Call call, CallProbe probe, RunClock clock, RequestRecord.Builder b) {
        this.target = target;
        this.call = call;
        this.probe = probe;
        this.clock = clock;
        this.b = b;
        this.deadlines = new RequestDeadlines(call, System.nanoTime(), target);
        this.state = new StreamState(target.apiKind());
    }

    /**
     * Judges the answer by what {@code spec} asked: keeps its text in the record's {@code responseText} (opt-in, see
     * {@code RequestSpec.keepResponseText}); a pooling answer must return an item per input.
     */
    Exchange answering(RequestSpec spec) {
        state.expect(spec);
        return this;
    }

    /** Tells {@code l} the output tokens so far after each token-carrying event (see {@link Cancellation#onTokens}). */
    void tokenListener(java.util.function.IntConsumer l) {
        state.tally.tokenListener(l);
    }

    /** Thread-safe: what the request measured so far (see {@link Cancellation#onProgress}). */
    RequestRecord inFlight() {
        return state.tally.inFlight(b);
    }

    /** Runs the request; every failure ends as an outcome in the builder, never as an exception. */
    void run(Cancellation cancellation, int requestedPromptTokens) {
        b.dispatchNanos = clock.now();
        try {
            deadlines.arm();
            try (Response response = call.execute()) {
                deadlines.disarm();
                b.firstByteNanos = clock.now();
                headersReceived = true;
                b.outcome = handle(response, cancellation);
            }
        } catch (IOException | RuntimeException e) {
            b.outcome = failure(e, cancellation);
        } finally {
            deadlines.disarm();
            b.retried = probe.retried();
            probe.phasesTo(b);
            b.outcome = redactKey(b.outcome, target);
            if (b.endNanos < 0) {
                b.endNanos = clock.now();
            }
            state.settle(b, requestedPromptTokens);
        }
    }

    private Outcome handle(Response response, Cancellation cancellation) throws IOException {
        ResponseBody body = response.body();
        if (response.code() >= 400) {
            return httpError(response);
        }
        // a JSON body on a streaming SSE request is an answer without a stream (an error, a proxy);
        // NDJSON (application/x-ndjson) is the stream itself
        boolean json = target.apiKind().framing() == ApiKind.Framing.SSE && isJson(response.header("Content-Type"));
        if (!target.stream() || json) {
            return readWhole(body);
        }
        state.onHeaders(response.header("Content-Type"));
        return readStream(body.source(), cancellation);
    }

    /**
     * True when a Content-Type's subtype mentions json ({@code application/json},
     * {@code application/problem+json}); checked on the raw header, without OkHttp's regex-based
     * {@code MediaType} parse on every response.
     */
    static boolean isJson(String contentType) {
        if (contentType == null) {
            return false;
        }
        int slash = contentType.indexOf('/');
        if (slash < 0) {
            return false;
        }
        int semi = contentType.indexOf(';', slash);
        String subtype = contentType.substring(slash + 1, semi < 0 ? contentType.length() : semi);
        return subtype.toLowerCase(Locale.ROOT).contains("json");
    }

    private Outcome readStream(BufferedSource source, Cancellation cancellation) throws IOException {
        StreamFramer parser = state.framer(target.maxEventBytes());
        byte[] buf = new byte[READ_BUFFER_BYTES];
        while (true) {
            deadlines.arm();
            int n = source.read(buf, 0, buf.length);
            long now = clock.now();
            deadlines.disarm();
            if (cancellation.isCancelled() || Thread.currentThread().isInterrupted()) {
                b.endNanos = now;
                return Outcome.CANCELLED;
            }
            if (n < 0) {
                b.endNanos = now;
                return state.endOutcome(parser.finish());
            }
            state.onRead(parser, now, buf, 0, n);
            if (state.tally.tokenEvents() > 0) {
                deadlines.tokensFlowing();
            }
            if (state.finished()) {
                b.endNanos = state.doneNanos >= 0 ? state.doneNanos : now;
                return state.endOutcome(false);
            }
        }
    }

    private Outcome readWhole(ResponseBody body) throws IOException {
        b.streamed = false;
        BufferedSource source = body.source();
        deadlines.arm();
        source.request((long) target.maxEventBytes() + 1);
        long now = clock.now();
        deadlines.disarm();
        b.endNanos = now;
        long size = source.getBuffer().size();
        if (size > target.maxEventBytes()) {
            return new Outcome.StreamError("response larger than the limit of " + target.maxEventBytes() + " bytes");
        }
        return state.onWholeResponse(source.readByteArray(), now);
    }

    private Outcome httpError(Response response) {
        b.endNanos = clock.now();
        String snippet;
        try {
            deadlines.arm();
            snippet = response.peekBody(4 * ERROR_SNIPPET_CHARS).string();
        } catch (IOException e) {
            snippet = "(body unreadable: " + Failures.describe(e) + ")";
        } finally {
            deadlines.disarm();
        }
        snippet = snippet.strip().replaceAll("\\s+", " ");
        if (snippet.length() > ERROR_SNIPPET_CHARS) {
            snippet = snippet.substring(0, ERROR_SNIPPET_CHARS) + "...";
        }
        return new Outcome.HttpError(response.code(), snippet);
    }

    /** A server that echoes the request's credentials in an error must not put the API key into a record. */
    static Outcome redactKey(Outcome o, TargetConfig target) {
        if (o == null || !target.hasApiKey() || !o.detail().contains(target.apiKey())) {
            return o;
        }
        return o.withDetail(o.detail().replace(target.apiKey(), "<redacted>"));
    }

    private Outcome failure(Exception e, Cancellation cancellation) {
        if (cancellation.isCancelled() || Thread.currentThread().isInterrupted()) {
            return Outcome.CANCELLED;
        }
        Outcome.TimeoutKind fired = deadlines.fired();
        if (fired != null) {
            return new Outcome.Timeout(fired);
        }
        if (e instanceof IOException io) {
            return afterFinish(Failures.classify(io, target.endpoint(), headersReceived, probe.connected(),
                    state.tally.tokenEvents()), state.finishReason);
        }
        return new Outcome.ConnectionError("client failure: " + Failures.describe(e));
    }

    /**
     * A transport failure after the finish reason stays a failure (METRICS.md: usage may be lost), and its
     * detail says where it happened. Shared with {@link NioExchange}.
     */
    static Outcome afterFinish(Outcome o, String finishReason) {
        if (o instanceof Outcome.ConnectionError c && finishReason != null) {
            return new Outcome.ConnectionError(c.detail() + " (after finish reason '" + finishReason
                    + "', before [DONE])");
        }
        return o;
    }
}
