package dev.kneepoint.client;

import com.fasterxml.jackson.databind.JsonNode;

/**
 * A decoder of a native (non-OpenAI) stream, whose every payload is one JSON object: parsing, error objects,
 * (for the APIs that send it) the {@code [DONE]} sentinel and {@link #ended()} are handled here, once; a subclass
 * decodes the object.
 */
abstract class NativeDecoder implements PayloadDecoder {
    private final boolean doneSentinel;
    private boolean ended;

    /** @param doneSentinel true for an API whose stream may end with {@code [DONE]} (SGLang, llama.cpp) */
    NativeDecoder(boolean doneSentinel) {
        this.doneSentinel = doneSentinel;
    }

    @Override
    public final StreamPayload decode(String data) {
        if (doneSentinel && data.length() < 16 && data.strip().equals("[DONE]")) {
            return StreamPayload.DONE;
        }
        Object parsed = NativeJson.parse(data);
        return parsed instanceof JsonNode n ? decodeObject(n) : (StreamPayload) parsed;
    }

    /** Decodes one parsed payload object that is not an error object. */
    abstract StreamPayload decodeObject(JsonNode n);

    /** Returns the stream's own final event, {@code last}, after marking the stream {@link #ended()}. */
    final StreamPayload ending(StreamPayload.Chunk last) {
        ended = true;
        return last;
    }

    @Override
    public final boolean ended() {
        return ended;
    }
}
