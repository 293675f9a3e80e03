package dev.kneepoint.client;

import dev.kneepoint.metrics.Outcome;
import java.util.LinkedHashMap;
import java.util.Map;

/**
 * What one OpenAI stream has delivered so far: listens to the {@link SseParser}, decodes each
 * payload and feeds the {@link TokenTally}. The client sets {@link #now} once per read, so every
 * event decoded from one read shares that read's timestamp. Owned by the request's thread.
 */
final class StreamState implements SseParser.Listener {
    final TokenTally tally = new TokenTally();
    final Map<String, Double> timings = new LinkedHashMap<>();
    long now;
    long doneNanos = -1;
    String finishReason;
    String streamError;
    int events;
    int comments;
    /** The answer's content deltas, concatenated; null unless the spec asked to keep the text. */
    StringBuilder text;

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
        StreamPayload p = OpenAiChunkDecoder.decode(data);
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
            streamError = "malformed SSE stream (" + kind.name().toLowerCase(java.util.Locale.ROOT) + "): " + message;
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
