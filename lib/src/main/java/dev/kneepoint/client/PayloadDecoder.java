package dev.kneepoint.client;

/**
 * Decodes the payloads of one response stream (an SSE event's data, or one NDJSON line) into
 * {@link StreamPayload}s. A decoder belongs to one stream and may keep state across events (SGLang
 * sends cumulative text, TGI one token per event). Decoding never throws: bad input becomes
 * {@link StreamPayload.Malformed}. Not thread-safe.
 */
@FunctionalInterface
interface PayloadDecoder {

    /** Decodes one payload. */
    StreamPayload decode(String data);

    /**
     * True once the stream's own final event has been decoded (TGI {@code details}, Ollama
     * {@code done:true}, llama.cpp {@code stop:true}): the stream has ended properly even though no
     * {@code [DONE]} follows, and reading may stop.
     */
    default boolean ended() {
        return false;
    }
}
