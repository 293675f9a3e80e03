package dev.kneepoint.client;

import dev.kneepoint.metrics.Outcome;
import dev.kneepoint.metrics.RequestRecord;
import dev.kneepoint.request.RequestSpec;
import java.util.LinkedHashMap;
import java.util.Map;

/**
 * What one response stream has delivered so far: listens to the stream's framer ({@link SseParser}
 * or {@link NdjsonParser}, from {@link #framer}), decodes each payload with the API kind's
 * {@link PayloadDecoder} and feeds the {@link TokenTally}. The transport sets {@link #now} once per
 * read before feeding that read's bytes, so every event decoded from one read shares that read's
 * timestamp. Owned by the request's thread.
 */
final class StreamState implements SseParser.Listener, NdjsonParser.Listener {
    /** How many of the body's first bytes a {@code TRUNCATED} answer of the wrong content type shows in its detail. */
    static final int HEAD_BYTES = 80;

    final TokenTally tally = new TokenTally();
    final ApiKind kind;
    final PayloadDecoder decoder;
    final Map<String, Double> timings = new LinkedHashMap<>();
    long now;
    long doneNanos = -1;
    String finishReason;
    String streamError;
    int events;
    int comments;
    /** The answer's content deltas, concatenated; null unless the spec asked to keep the text. */
    StringBuilder text;
    /** The answer's tool calls, kept with its text (null when the text is not kept). */
    private ToolCallText toolCalls;
    /** The items a pooling answer must return (the request's batch), -1 for a generation request. */
    int expectedItems = -1;
    /** The items the pooling answer returned, -1 before one (or for a generation request). */
    private int items = -1;
    /** The response's Content-Type header (null: none, or not told). */
    private String contentType;
    /** True once the transport told the response headers ({@link #onHeaders}); a replayed stream is not judged. */
    private boolean headersTold;
    /** The body's first {@link #HEAD_BYTES} bytes, for the detail of an answer that was not a stream. */
    private final byte[] head = new byte[HEAD_BYTES];
    private int headLength;

    /** State for an OpenAI-shaped stream. */
    StreamState() {
        this(ApiKind.CHAT);
    }

    /** State for a stream of {@code kind}. */
    StreamState(ApiKind kind) {
        this.kind = kind;
        this.decoder = kind.newDecoder();
    }

    /** Takes from {@code spec} what the answer is judged by: whether its text is kept, the items it must return. */
    void expect(RequestSpec spec) {
        text = spec.keepResponseText() ? new StringBuilder() : null;
        toolCalls = spec.keepResponseText() ? new ToolCallText() : null;
        expectedItems = kind.isPooling() ? PoolingBodies.expectedItems(spec) : -1;
    }

    /** A framer for this kind's stream that reports to this state. */
    StreamFramer framer(int maxEventBytes) {
        return kind.framing() == ApiKind.Framing.NDJSON
                ? new NdjsonParser(this, maxEventBytes) : new SseParser(this, maxEventBytes);
    }

    /** The streamed answer's Content-Type header (null when it had none), told by the transport before any body. */
    void onHeaders(String type) {
        this.contentType = type;
        this.headersTold = true;
    }

    /** Feeds one read's bytes, all stamped {@code nowNanos}. */
    void onRead(StreamFramer framer, long nowNanos, byte[] buf, int off, int len) {
        now = nowNanos;
        if (headLength < HEAD_BYTES) {
            int n = Math.min(len, HEAD_BYTES - headLength);
            System.arraycopy(buf, off, head, headLength, n);
            headLength += n;
        }
        framer.feed(buf, off, len);
    }

    /**
     * The outcome of a whole (non-streamed) response body read at {@code now}: decoded by this kind's
     * decoder, its tokens tallied as one event. Shared by both transports.
     */
    Outcome onWholeResponse(byte[] bytes, long now) {
        StringBuilder body = new StringBuilder(bytes.length);
        int bad = Utf8.decode(bytes, 0, bytes.length, body);
        if (bad >= 0) {
            return new Outcome.StreamError("response is not valid UTF-8 (byte " + bad + ")");
        }
        return switch (decoder.decode(body.toString().strip())) {
            case StreamPayload.Chunk c -> {
                finishReason = c.finishReason();
                timings.putAll(c.timings());
                tally.onWholeResponse(now, c);
                keepText(c);
                yield tally.tokenEvents() == 0 ? Outcome.EMPTY : Outcome.OK;
            }
            case StreamPayload.Pooled p -> pooled(p, now);
            case StreamPayload.ServerError e -> new Outcome.StreamError("server error: " + e.message());
            case StreamPayload.Malformed m -> new Outcome.StreamError("malformed response: " + m.message());
            case StreamPayload.Done d -> Outcome.EMPTY;
        };
    }

    /** A pooling answer: OK when it returned an item for every input of the batch. */
    private Outcome pooled(StreamPayload.Pooled p, long now) {
        timings.putAll(p.timings());
        tally.onPooled(now, p);
        items = p.items();
        if (p.items() == 0) {
            return Outcome.EMPTY;
        }
        if (expectedItems >= 0 && p.items() != expectedItems) {
            return new Outcome.StreamError("the answer has " + p.items() + " items for the " + expectedItems
                    + " inputs sent (" + kind.label() + "): a server that caps the batch (or truncates a rerank's"
                    + " results, top_n) answers less than was asked");
        }
        return Outcome.OK;
    }

    /**
     * Puts what the stream delivered into the request's record, at its end (both transports): the settled token
     * counts ({@link TokenTally#settle}), the finish reason, the server timings and, when kept, the text.
     */
    void settle(RequestRecord.Builder b, int requestedPromptTokens) {
        tally.settle(b, requestedPromptTokens);
        b.finishReason = finishReason;
        b.serverTimings = timings;
        b.items = items;
        if (text != null) {
            b.responseText = text.toString();
            b.toolCalls = toolCalls.calls();
        }
    }

    /** True once reading should stop: {@code [DONE]} seen or the stream is broken. */
    boolean finished() {
        return doneNanos >= 0 || streamError != null;
    }

    @Override
    public void onEvent(String type, String id, String data) {
        if (finished()) {
            return;
        }
        events++;
        if ("error".equals(type)) {
            streamError = "server sent an error event: " + OpenAiChunkDecoder.snippet(data);
            return;
        }
        onPayload(decoder.decode(data));
    }

    @Override
    public void onLine(String line, boolean terminated) {
        if (finished()) {
            return;
        }
        StreamPayload p = decoder.decode(line);
        if (!terminated && p instanceof StreamPayload.Malformed) {
            return; // a line cut by the end of the stream: a truncation, not a malformed stream
        }
        events++;
        onPayload(p);
    }

    @Override
    public void onOtherField(String name, String value) {
        if ("error".equals(name) && !finished()) {
            streamError = "server error in stream: " + NativeJson.errorMessage(value);
        }
    }

    private void onPayload(StreamPayload p) {
        switch (p) {
            case StreamPayload.Done d -> doneNanos = now;
            case StreamPayload.ServerError e -> streamError = "server error in stream: " + e.message();
            case StreamPayload.Malformed m -> streamError = "malformed stream event: " + m.message();
            case StreamPayload.Pooled pooled -> streamError = "a pooling answer inside a stream";
            case StreamPayload.Chunk c -> onChunk(c);
        }
    }

    void onChunk(StreamPayload.Chunk c) {
        if (c.finishReason() != null) {
            finishReason = c.finishReason();
        }
        if (!c.timings().isEmpty()) {
            timings.putAll(c.timings());
        }
        tally.onChunk(now, c);
        keepText(c);
        if (decoder.ended() && doneNanos < 0) {
            doneNanos = now;
        }
    }

    /** Appends the chunk's content and tool calls when the text is kept (reasoning is not part of the answer). */
    void keepText(StreamPayload.Chunk c) {
        if (text != null) {
            text.append(c.content());
            toolCalls.add(c.toolCalls());
        }
    }

    @Override
    public void onComment(String text) {
        comments++;
    }

    @Override
    public void onError(SseParser.ErrorKind kind, String message) {
        if (streamError == null) {
            streamError = "malformed " + this.kind.framing() + " stream (" + kind.name().toLowerCase(java.util.Locale.ROOT) + "): " + message;
        }
    }

    /** The outcome of a stream that ended by EOF or {@code [DONE]} (not by an exception). */
    Outcome endOutcome(boolean partialEventPending) {
        if (streamError != null) {
            return new Outcome.StreamError(streamError);
        }
        boolean endedProperly = doneNanos >= 0 || finishReason != null;
        if (!endedProperly) {
            return new Outcome.Truncated(notAStream());
        }
        return tally.tokenEvents() == 0 ? Outcome.EMPTY : Outcome.OK;
    }

    /**
     * For a stream that ended without finishing: when its content type is not this framing's (a 200 answer that is
     * an HTML page, a proxy's text), says so with the type and the body's first bytes (printable, at most
     * {@link #HEAD_BYTES}); otherwise empty (a real stream cut short).
     */
    private String notAStream() {
        boolean sse = kind.framing() == ApiKind.Framing.SSE;
        String lower = contentType == null ? "" : contentType.toLowerCase(java.util.Locale.ROOT);
        if (!headersTold || (sse ? lower.contains("text/event-stream") : lower.contains("json"))) {
            return "";
        }
        return "the answer is not " + (sse ? "an event stream (text/event-stream)" : "an NDJSON stream")
                + ": content type " + (contentType == null ? "none" : "'" + contentType.strip() + "'")
                + ", body starts '" + printable(head, headLength) + "'";
    }

    /** {@code bytes} as UTF-8 with every control character or run of whitespace one space, stripped. */
    static String printable(byte[] bytes, int length) {
        String t = new String(bytes, 0, length, java.nio.charset.StandardCharsets.UTF_8);
        StringBuilder sb = new StringBuilder(t.length());
        for (int i = 0; i < t.length(); i++) {
            char c = t.charAt(i);
            boolean blank = Character.isWhitespace(c) || Character.isISOControl(c);
            if (!blank) {
                sb.append(c == '\uFFFD' ? '?' : c);
            } else if (!sb.isEmpty() && sb.charAt(sb.length() - 1) != ' ') {
                sb.append(' ');
            }
        }
        return sb.toString().strip();
    }
}
