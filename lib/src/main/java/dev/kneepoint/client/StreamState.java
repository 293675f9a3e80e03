package dev.kneepoint.client;

import dev.kneepoint.metrics.Outcome;
import dev.kneepoint.metrics.RequestRecord;
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

    /** State for an OpenAI-shaped stream. */
    StreamState() {
        this(ApiKind.CHAT);
    }

    /** State for a stream of {@code kind}. */
    StreamState(ApiKind kind) {
        this.kind = kind;
        this.decoder = kind.newDecoder();
    }

    /** A framer for this kind's stream that reports to this state. */
    StreamFramer framer(int maxEventBytes) {
        return kind.framing() == ApiKind.Framing.NDJSON
                ? new NdjsonParser(this, maxEventBytes) : new SseParser(this, maxEventBytes);
    }

    /** Feeds one read's bytes, all stamped {@code nowNanos}. */
    void onRead(StreamFramer framer, long nowNanos, byte[] buf, int off, int len) {
        now = nowNanos;
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
            case StreamPayload.ServerError e -> new Outcome.StreamError("server error: " + e.message());
            case StreamPayload.Malformed m -> new Outcome.StreamError("malformed response: " + m.message());
            case StreamPayload.Done d -> Outcome.EMPTY;
        };
    }

    /**
     * Puts what the stream delivered into the request's record, at its end (both transports): the settled token
     * counts ({@link TokenTally#settle}), the finish reason, the server timings and, when kept, the text.
     */
    void settle(RequestRecord.Builder b, int requestedPromptTokens) {
        tally.settle(b, requestedPromptTokens);
        b.finishReason = finishReason;
        b.serverTimings = timings;
        if (text != null) {
            b.responseText = text.toString();
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

    /** Appends the chunk's content when the text is kept (reasoning is not part of the answer). */
    void keepText(StreamPayload.Chunk c) {
        if (text != null) {
            text.append(c.content());
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
            return Outcome.TRUNCATED;
        }
        return tally.tokenEvents() == 0 ? Outcome.EMPTY : Outcome.OK;
    }
}
