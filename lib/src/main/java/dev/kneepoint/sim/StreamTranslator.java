package dev.kneepoint.sim;

/**
 * Rewrites the engine's OpenAI chat or completion stream, write by write, into another API's stream (so every
 * write still leaves at its scheduled time and the faults work the same). One instance per request; used by the
 * thread that writes the stream at that moment, one at a time.
 */
interface StreamTranslator {

    /** The content type of the translated stream. */
    String contentType();

    /** Rewrites one write of OpenAI SSE events into the translated stream's text. */
    String translate(String chunk);
}
