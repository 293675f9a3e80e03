package dev.kneepoint.client;

import java.util.Locale;

/**
 * A pure, transport-free newline-delimited JSON line splitter (Ollama's stream): bytes in, lines
 * out through a {@link Listener}, with the same guarantees as {@link SseParser}. Lines end with LF or
 * CRLF (a CR ending one read and its LF starting the next included); blank lines are skipped. Each
 * complete line is decoded as UTF-8 on its own, so a multi-byte sequence split across reads decodes
 * correctly; invalid UTF-8 is reported ({@link SseParser.ErrorKind#INVALID_UTF8}), never replaced; a
 * line longer than the limit is reported as {@link SseParser.ErrorKind#OVERSIZE}. It does not parse
 * JSON: that is the decoder's job.
 *
 * <p>After an error the parser is failed: further input is ignored and nothing more is reported.
 * Not thread-safe: one parser per stream.
 */
public final class NdjsonParser extends LineFramer<NdjsonParser.Listener> {

    /** Receives lines, in stream order, on the thread calling {@link #feed} or {@link #finish}. */
    public interface Listener {
        /**
         * One non-blank line without its terminator.
         *
         * @param terminated false for a last line that the stream ended without a newline after
         *                   (complete JSON or a cut-off one: the listener decides)
         */
        void onLine(String line, boolean terminated);

        /** The stream is malformed; the parser has stopped. Called at most once, as the last call. */
        void onError(SseParser.ErrorKind kind, String message);
    }

    private static final byte CR = '\r';
    private static final byte LF = '\n';

    private final StringBuilder text = new StringBuilder(256);

    /**
     * @param maxLineBytes bytes one line may take before {@link SseParser.ErrorKind#OVERSIZE} is
     *                     reported; must be positive
     */
    public NdjsonParser(Listener listener, int maxLineBytes) {
        super(listener, maxLineBytes, "maxLineBytes", "NDJSON line");
    }

    @Override
    void split(byte[] buf, int off, int end) {
        int lineStart = off;
        for (int i = off; i < end && !failed; i++) {
            if (buf[i] != LF) {
                continue;
            }
            if (pendingLen > 0) {
                if (!appendPending(buf, lineStart, i - lineStart, 0)) {
                    return;
                }
                line(pending, 0, pendingLen, true);
                pendingLen = 0;
            } else {
                if (i - lineStart > limit) {
                    oversize();
                    return;
                }
                line(buf, lineStart, i - lineStart, true);
            }
            lineStart = i + 1;
        }
        if (!failed && lineStart < end) {
            appendPending(buf, lineStart, end - lineStart, 0);
        }
    }

    /**
     * Ends the stream; a last line without a newline is reported with {@code terminated = false}.
     *
     * @return true when such an unterminated line was pending
     */
    @Override
    public boolean finish() {
        boolean partial = !failed && pendingLen > 0;
        if (partial) {
            line(pending, 0, pendingLen, false);
        }
        pendingLen = 0;
        return partial;
    }

    private void line(byte[] b, int off, int len, boolean terminated) {
        if (len > 0 && b[off + len - 1] == CR) {
            len--;
        }
        int s = off;
        int e = off + len;
        while (s < e && (b[s] == ' ' || b[s] == '\t')) {
            s++;
        }
        while (e > s && (b[e - 1] == ' ' || b[e - 1] == '\t' || b[e - 1] == CR)) {
            e--;
        }
        if (s == e) {
            return;
        }
        text.setLength(0);
        int bad = Utf8.decode(b, s, e - s, text);
        if (bad >= 0) {
            fail(SseParser.ErrorKind.INVALID_UTF8, String.format(Locale.ROOT,
                    "invalid UTF-8 at byte %d of a %d-byte line (byte 0x%02x)", bad - off, len, b[bad] & 0xff));
            return;
        }
        listener.onLine(text.toString(), terminated);
        if (text.capacity() > (1 << 20)) {
            text.setLength(256);
            text.trimToSize();
        }
    }

    @Override
    void report(SseParser.ErrorKind kind, String message) {
        listener.onError(kind, message);
    }
}
