package dev.kneepoint.client;

import dev.kneepoint.metrics.Outcome;
import dev.kneepoint.metrics.Outcome.TimeoutKind;
import dev.kneepoint.metrics.RequestRecord;
import dev.kneepoint.metrics.RunClock;
import dev.kneepoint.request.RequestSpec;
import java.io.ByteArrayOutputStream;
import java.io.IOException;
import java.net.InetAddress;
import java.nio.charset.StandardCharsets;
import java.util.concurrent.locks.LockSupport;
import okhttp3.HttpUrl;

/**
 * One request on the {@link Transport#NIO} transport. The request's thread builds it, hands it to the
 * {@link NioLoop} and parks until it completes; everything between (connect, write, response parse,
 * SSE parse, deadlines) runs on the loop thread, which feeds the same {@link SseParser} and
 * {@link StreamState} as {@link Exchange} with one timestamp per read. The outcome rules mirror
 * {@link Exchange} one for one, so both transports produce the same records.
 */
final class NioExchange {
    private static final int ERROR_SNIPPET_CHARS = 500;

    /** What the response body is read as. */
    private enum Mode { STREAM, WHOLE, ERROR }

    final TargetConfig target;
    final byte[] request;
    final RunClock clock;
    final RequestRecord.Builder b;
    final StreamState state;
    private final int requestedPromptTokens;
    private final Thread waiter = Thread.currentThread();

    // deadlines, System.nanoTime() based like RequestDeadlines
    private long connectAt;
    private long firstTokenAt;
    private long totalAt;
    private long idleNanos;

    // loop-thread state
    InetAddress[] addresses;
    /** How long the host name's lookup took (ns), -1 for an IP address. */
    long lookupNanos = -1;
    /** When the current connection's first connect attempt began (System.nanoTime()), -1 before one. */
    long connectStart = -1;
    int addressIndex;
    NioConnection connection;
    boolean connected;
    /** True once the request was sent again after meeting a stale pooled connection (at most once). */
    boolean retried;
    private boolean tokensFlowing;
    private long lastReadAt;
    private boolean headersReceived;
    private Mode mode;
    private StreamFramer parser;
    private ByteArrayOutputStream body;
    private int errorCode;
    private String errorCharsetHint;

    private volatile boolean complete;
    volatile boolean cancelRequested;
    private volatile NioLoop loop;

    NioExchange(TargetConfig target, byte[] request, RunClock clock, RequestRecord.Builder b, int requestedPromptTokens) {
        this.target = target;
        this.request = request;
        this.clock = clock;
        this.b = b;
        this.requestedPromptTokens = requestedPromptTokens;
        this.state = new StreamState(target.apiKind());
    }

    /**
     * Judges the answer by what {@code spec} asked: keeps its text in the record's {@code responseText} (opt-in, see
     * {@code RequestSpec.keepResponseText}); a pooling answer must return an item per input.
     */
    NioExchange answering(RequestSpec spec) {
        state.expect(spec);
        return this;
    }

    /** Runs the request on {@code loop} and blocks until it ended; failures end as outcomes. */
    void run(NioLoop loop) {
        this.loop = loop;
        b.dispatchNanos = clock.now();
        long start = System.nanoTime();
        connectAt = start + target.connectTimeout().toNanos();
        firstTokenAt = start + target.firstTokenTimeout().toNanos();
        totalAt = start + target.totalTimeout().toNanos();
        idleNanos = target.idleTimeout().toNanos();
        HttpUrl url = target.endpoint();
        try {
            long before = System.nanoTime();
            addresses = lookup(url.host(), target);
            lookupNanos = isAddress(url.host()) ? -1 : System.nanoTime() - before;
            loop.submit(this);
            await();
        } catch (IOException e) {
            b.outcome = Failures.classify(e, url, false, false, 0);
        } finally {
            if (b.outcome == null) {
                b.outcome = Outcome.CANCELLED;
            }
            b.outcome = Exchange.redactKey(b.outcome, target);
            if (b.endNanos < 0) {
                b.endNanos = clock.now();
            }
            state.settle(b, requestedPromptTokens);
        }
    }

    /**
     * The host's addresses: an IP literal as it is, a name through the same connect-timeout-bounded lookup
     * as the OkHttp transport ({@link BoundedDns}), so a slow resolver cannot hang the request.
     */
    private static InetAddress[] lookup(String host, TargetConfig target) throws java.net.UnknownHostException {
        if (isAddress(host)) {
            return InetAddress.getAllByName(host);
        }
        return new BoundedDns(BoundedDns.SYSTEM, target.connectTimeout()).lookup(host).toArray(new InetAddress[0]);
    }

    private static boolean isAddress(String host) {
        return host.indexOf(':') >= 0 || host.chars().allMatch(c -> c == '.' || (c >= '0' && c <= '9'));
    }

    private void await() {
        boolean interrupted = false;
        while (!complete) {
            LockSupport.park(this);
            if (Thread.interrupted()) {
                interrupted = true;
                cancel();
            }
        }
        if (interrupted) {
            Thread.currentThread().interrupt();
        }
    }

    /** Asks the loop to abort this request (it ends as {@code CANCELLED} unless it already ended). */
    void cancel() {
        if (!cancelRequested) {
            cancelRequested = true;
            NioLoop l = loop;
            if (l != null) {
                l.cancel(this);
            }
        }
    }

    boolean isComplete() {
        return complete;
    }

    // ---- loop thread from here on ----

    /** The instant (System.nanoTime) when the deadline now in force passes. */
    long deadline() {
        if (!tokensFlowing) {
            long pre = firstTokenAt - totalAt < 0 ? firstTokenAt : totalAt;
            return !connected && connectAt - pre < 0 ? connectAt : pre;
        }
        long idle = lastReadAt + idleNanos;
        return idle - totalAt < 0 ? idle : totalAt;
    }

    /** Which deadline has passed at {@code now} (checked as RequestDeadlines does: total first), or null. */
    TimeoutKind expired(long now) {
        if (now - deadline() < 0) {
            return null;
        }
        if (now - totalAt >= 0) {
            return TimeoutKind.TOTAL;
        }
        if (!tokensFlowing && now - firstTokenAt >= 0) {
            return TimeoutKind.FIRST_TOKEN;
        }
        if (!connected && now - connectAt >= 0) {
            return TimeoutKind.CONNECT;
        }
        return TimeoutKind.IDLE;
    }

    /** Ends the request by a passed deadline (an error body being read keeps its HTTP error, as with OkHttp). */
    void timedOut(TimeoutKind kind) {
        if (mode == Mode.ERROR) {
            // OkHttp cancels the call when a deadline passes, so its snippet read fails with this text
            finishError("(body unreadable: SocketException: Socket closed)");
            return;
        }
        complete(cancelRequested ? Outcome.CANCELLED : new Outcome.Timeout(kind), clock.now());
    }

    /** Ends the request by cancellation. */
    void cancelled() {
        complete(Outcome.CANCELLED, clock.now());
    }

    /** Ends the request by a transport failure. */
    void failed(IOException e) {
        long now = clock.now();
        if (cancelRequested) {
            complete(Outcome.CANCELLED, now);
        } else if (mode == Mode.ERROR) {
            finishError("(body unreadable: " + Failures.describe(e) + ")");
        } else {
            complete(Exchange.afterFinish(Failures.classify(e, target.endpoint(), headersReceived, connected,
                    state.tally.tokenEvents()), state.finishReason), now);
        }
    }

    /** Response headers are in: picks how to read the body, as {@link Exchange} does. */
    void onHeaders(int code, String contentType, long now) {
        headersReceived = true;
        b.firstByteNanos = now;
        if (code >= 400) {
            mode = Mode.ERROR;
            errorCode = code;
            errorCharsetHint = contentType;
            b.endNanos = now;
            body = new ByteArrayOutputStream(256);
        } else if (!target.stream()
                || (target.apiKind().framing() == ApiKind.Framing.SSE && Exchange.isJson(contentType))) {
            // a JSON body on a streaming SSE request is an answer without a stream; NDJSON is the stream itself
            mode = Mode.WHOLE;
            b.streamed = false;
            body = new ByteArrayOutputStream(1024);
        } else {
            mode = Mode.STREAM;
            state.onHeaders(contentType);
            parser = state.framer(target.maxEventBytes());
        }
    }

    /** Body bytes of the read taken at {@code now}. */
    void onBody(byte[] buf, int off, int len, long now) {
        switch (mode) {
            case STREAM -> {
                state.onRead(parser, now, buf, off, len);
            }
            case WHOLE -> {
                body.write(buf, off, len);
                if (body.size() > target.maxEventBytes()) {
                    complete(new Outcome.StreamError("response larger than the limit of " + target.maxEventBytes()
                            + " bytes"), now);
                }
            }
            case ERROR -> {
                int room = 4 * ERROR_SNIPPET_CHARS - body.size();
                body.write(buf, off, Math.min(room, len));
                if (body.size() >= 4 * ERROR_SNIPPET_CHARS) {
                    finishError(null);
                }
            }
        }
    }

    /** After all bytes of one read were delivered: stop at {@code [DONE]} or a broken stream. */
    void afterRead(long now, long loopNanos) {
        if (mode != Mode.STREAM || complete) {
            return;
        }
        if (state.tally.tokenEvents() > 0) {
            tokensFlowing = true;
            lastReadAt = loopNanos;
        }
        if (state.finished()) {
            complete(state.endOutcome(false), state.doneNanos >= 0 ? state.doneNanos : now);
        }
    }

    /** The body ended properly (length reached, last chunk, or EOF of a body delimited by close). */
    void onBodyEnd(long now) {
        if (complete) {
            return;
        }
        switch (mode) {
            case STREAM -> complete(state.finished() ? state.endOutcome(false) : state.endOutcome(parser.finish()),
                    state.finished() && state.doneNanos >= 0 ? state.doneNanos : now);
            case WHOLE -> complete(wholeOutcome(now), now);
            case ERROR -> finishError(null);
        }
    }

    private Outcome wholeOutcome(long now) {
        return state.onWholeResponse(body.toByteArray(), now);
    }

    private void finishError(String unreadable) {
        String snippet = unreadable != null ? unreadable
                : new String(body.toByteArray(), charsetOf(errorCharsetHint));
        snippet = snippet.strip().replaceAll("\\s+", " ");
        if (snippet.length() > ERROR_SNIPPET_CHARS) {
            snippet = snippet.substring(0, ERROR_SNIPPET_CHARS) + "...";
        }
        complete(new Outcome.HttpError(errorCode, snippet), b.endNanos);
    }

    private static java.nio.charset.Charset charsetOf(String contentType) {
        if (contentType != null) {
            int i = contentType.toLowerCase(java.util.Locale.ROOT).indexOf("charset=");
            if (i >= 0) {
                String name = contentType.substring(i + 8).split("[;\\s]", 2)[0].replace("\"", "");
                try {
                    return java.nio.charset.Charset.forName(name);
                } catch (RuntimeException e) {
                    return StandardCharsets.UTF_8;
                }
            }
        }
        return StandardCharsets.UTF_8;
    }

    /** Records the outcome (first one wins) and wakes the request's thread. */
    void complete(Outcome outcome, long endNanos) {
        if (complete) {
            return;
        }
        b.outcome = outcome;
        if (b.endNanos < 0) {
            b.endNanos = endNanos;
        }
        NioLoop l = loop;
        if (l != null) {
            l.detach(this);
        }
        complete = true;
        LockSupport.unpark(waiter);
    }
}
