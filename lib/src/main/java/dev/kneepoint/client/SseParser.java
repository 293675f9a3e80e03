package dev.kneepoint.client;

import java.util.Locale;

/**
 * A pure, transport-free Server-Sent-Events parser (WHATWG "event stream interpretation"): bytes
 * in, events out through a {@link Listener}. It knows nothing about sockets or HTTP.
 *
 * <p>Feed it with {@link #feed(byte[], int, int)} as reads arrive, then call {@link #finish()} at
 * end of stream. Lines end with LF, CRLF or CR, also when a CR ends one read and its LF starts the
 * next. Each complete line is decoded as UTF-8 on its own, so a multi-byte sequence split across
 * reads decodes correctly; invalid UTF-8 is reported, never replaced. Fields: {@code data} (several
 * lines joined with {@code \n}), {@code event}, {@code id}; {@code retry} and unknown fields are
 * ignored; one space after the colon is dropped. A line starting with {@code :} is a comment.
 *
 * <p>After an error the parser is failed: further input is ignored and nothing more is reported.
 * The parser reuses its buffers and allocates nothing per byte. Not thread-safe: one parser per
 * stream.
 */
public final class SseParser extends LineFramer<SseParser.Listener> {

    /** Default maximum size of one event: 64 MiB. */
    public static final int DEFAULT_MAX_EVENT_BYTES = 64 << 20;

    /** What went wrong in the stream itself. */
    public enum ErrorKind {
        /** A line was not valid UTF-8. */
        INVALID_UTF8,
        /** One event grew beyond the configured maximum size. */
        OVERSIZE
    }

    /**
     * Receives what the parser finds. All calls happen on the thread calling {@link #feed} or
     * {@link #finish}, in stream order: for each event, any comments that precede it, then
     * {@link #onEvent}. {@link #onError} is called at most once and is the last call ever made.
     */
    public interface Listener {
        /**
         * One complete event (terminated by a blank line, with at least one {@code data} field).
         *
         * @param type the {@code event} field, or {@code ""} when absent
         * @param id   the last {@code id} seen in the stream, or {@code ""}
         * @param data the data lines joined with {@code \n}
         */
        void onEvent(String type, String id, String data);

        /** A comment line (TGI keep-alive pings and the like), without the colon and one leading space. */
        default void onComment(String text) {
        }

        /**
         * A field other than {@code data}, {@code event}, {@code id} and {@code retry}, which the SSE
         * standard ignores; llama.cpp reports a failure mid-stream as an {@code error: {...}} line.
         */
        default void onOtherField(String name, String value) {
        }

        /** The stream is malformed; the parser has stopped. */
        void onError(ErrorKind kind, String message);
    }

    private static final byte CR = '\r';
    private static final byte LF = '\n';

    private final StringBuilder data = new StringBuilder(256);
    private final StringBuilder scratch = new StringBuilder(64);
    private boolean skipLf;
    private boolean hasData;
    private long eventBytes;
    private String eventType = "";
    private String lastId = "";

    /** A parser with the default maximum event size. */
    public SseParser(Listener listener) {
        this(listener, DEFAULT_MAX_EVENT_BYTES);
    }

    /**
     * @param maxEventBytes bytes one event may take on the wire (all its lines) before
     *                      {@link ErrorKind#OVERSIZE} is reported; must be positive
     */
    public SseParser(Listener listener, int maxEventBytes) {
        super(listener, maxEventBytes, "maxEventBytes", "SSE event");
    }

    @Override
    void split(byte[] buf, int off, int end) {
        int i = off;
        if (skipLf && i < end) {
            skipLf = false;
            if (buf[i] == LF) {
                i++;
            }
        }
        int lineStart = i;
        while (i < end && !failed) {
            byte b = buf[i];
            if (b != LF && b != CR) {
                i++;
                continue;
            }
            if (pendingLen > 0) {
                if (!appendPending(buf, lineStart, i - lineStart, eventBytes)) {
                    return;
                }
                processLine(pending, 0, pendingLen);
                pendingLen = 0;
            } else {
                processLine(buf, lineStart, i - lineStart);
            }
            i++;
            if (b == CR) {
                if (i < end) {
                    if (buf[i] == LF) {
                        i++;
                    }
                } else {
                    skipLf = true;
                }
            }
            lineStart = i;
        }
        if (!failed && lineStart < end) {
            appendPending(buf, lineStart, end - lineStart, eventBytes);
        }
    }

    /**
     * Ends the stream. An event not terminated by a blank line is discarded, as the SSE standard says.
     *
     * @return true when a partial line or an undispatched event was pending (the stream was cut)
     */
    @Override
    public boolean finish() {
        boolean partial = !failed && (pendingLen > 0 || hasData || eventBytes > 0);
        pendingLen = 0;
        resetEvent();
        return partial;
    }

    private void processLine(byte[] b, int off, int len) {
        if (len == 0) {
            dispatch();
            return;
        }
        eventBytes += len + 1;
        if (eventBytes > limit) {
            oversize();
            return;
        }
        if (b[off] == ':') {
            int s = off + 1;
            if (s < off + len && b[s] == ' ') {
                s++;
            }
            scratch.setLength(0);
            if (decode(b, s, off + len - s, scratch)) {
                listener.onComment(scratch.toString());
            }
            return;
        }
        int colon = -1;
        for (int k = off; k < off + len; k++) {
            if (b[k] == ':') {
                colon = k;
                break;
            }
        }
        int nameEnd = colon < 0 ? off + len : colon;
        int vs = colon < 0 ? off + len : colon + 1;
        if (vs < off + len && b[vs] == ' ') {
            vs++;
        }
        int vlen = off + len - vs;
        int nameLen = nameEnd - off;
        if (is(b, off, nameLen, "data")) {
            if (hasData) {
                data.append('\n');
            }
            hasData = true;
            decode(b, vs, vlen, data);
        } else if (is(b, off, nameLen, "event")) {
            scratch.setLength(0);
            if (decode(b, vs, vlen, scratch)) {
                eventType = scratch.toString();
            }
        } else if (is(b, off, nameLen, "id")) {
            scratch.setLength(0);
            if (decode(b, vs, vlen, scratch) && scratch.indexOf("\0") < 0) {
                lastId = scratch.toString();
            }
        } else if (!is(b, off, nameLen, "retry")) {
            scratch.setLength(0);
            if (decode(b, off, nameLen, scratch)) {
                String name = scratch.toString();
                scratch.setLength(0);
                if (decode(b, vs, vlen, scratch)) {
                    listener.onOtherField(name, scratch.toString());
                }
            }
        } else {
            // retry is ignored; still validate the encoding
            scratch.setLength(0);
            decode(b, off, len, scratch);
        }
    }

    private void dispatch() {
        if (hasData) {
            listener.onEvent(eventType, lastId, data.toString());
        }
        resetEvent();
    }

    private void resetEvent() {
        hasData = false;
        data.setLength(0);
        if (data.capacity() > (1 << 20)) {
            data.setLength(256);
            data.trimToSize();
            data.setLength(0);
        }
        eventType = "";
        eventBytes = 0;
    }

    private boolean decode(byte[] b, int off, int len, StringBuilder out) {
        int bad = Utf8.decode(b, off, len, out);
        if (bad >= 0) {
            fail(ErrorKind.INVALID_UTF8, String.format(Locale.ROOT,
                    "invalid UTF-8 at byte %d of a %d-byte line (byte 0x%02x)", bad - off, len, b[bad] & 0xff));
            return false;
        }
        return true;
    }

    @Override
    void report(ErrorKind kind, String message) {
        resetEvent();
        listener.onError(kind, message);
    }

    private static boolean is(byte[] b, int off, int len, String name) {
        if (len != name.length()) {
            return false;
        }
        for (int k = 0; k < len; k++) {
            if (b[off + k] != name.charAt(k)) {
                return false;
            }
        }
        return true;
    }
}
