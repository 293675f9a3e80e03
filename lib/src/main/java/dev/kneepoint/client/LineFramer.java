package dev.kneepoint.client;

import java.util.Locale;
import java.util.Objects;

/**
 * What the two line-based framers ({@link SseParser}, {@link NdjsonParser}) share: the listener and the size
 * limit, the checks of {@link #feed}'s arguments, the start of a line that a read cut off (kept until the rest
 * arrives), and failing: once failed, a framer ignores further input and reports nothing more.
 *
 * @param <L> the framer's listener
 */
abstract class LineFramer<L> implements StreamFramer {
    final L listener;
    /** Bytes that one payload (an NDJSON line, an SSE event) may take; positive. */
    final int limit;
    /** The start of a line that the last read ended in: its first {@link #pendingLen} bytes. */
    byte[] pending = new byte[1024];
    int pendingLen;
    boolean failed;
    private final String payload;

    /**
     * @param limitName the limit's name in the error for one that is not positive
     * @param payload   what the limit bounds, for the {@link SseParser.ErrorKind#OVERSIZE} message
     * @throws IllegalArgumentException when {@code limit} is not positive
     */
    LineFramer(L listener, int limit, String limitName, String payload) {
        this.listener = Objects.requireNonNull(listener, "listener");
        if (limit <= 0) {
            throw new IllegalArgumentException(limitName + " must be positive, got " + limit);
        }
        this.limit = limit;
        this.payload = payload;
    }

    /** Parses {@code len} bytes of {@code buf} from {@code off}; complete payloads are reported at once. */
    @Override
    public final void feed(byte[] buf, int off, int len) {
        Objects.checkFromIndexSize(off, len, buf.length);
        split(buf, off, off + len);
    }

    /** Reports the complete lines of {@code buf[off, end)} and keeps the unfinished last one as pending. */
    abstract void split(byte[] buf, int off, int end);

    /** True once an error has been reported. */
    public final boolean failed() {
        return failed;
    }

    /**
     * Appends {@code buf[off, off + len)} to the pending line; when that, after {@code counted} bytes already taken
     * by the payload, passes the limit, fails with {@link SseParser.ErrorKind#OVERSIZE} instead.
     *
     * @return false when it failed
     */
    final boolean appendPending(byte[] buf, int off, int len, long counted) {
        if (counted + pendingLen + len > limit) {
            oversize();
            return false;
        }
        int need = pendingLen + len;
        if (need > pending.length) {
            pending = grow(pending, pendingLen, need);
        }
        System.arraycopy(buf, off, pending, pendingLen, len);
        pendingLen = need;
        return true;
    }

    /** Fails with {@link SseParser.ErrorKind#OVERSIZE}: a payload passed the limit. */
    final void oversize() {
        fail(SseParser.ErrorKind.OVERSIZE, String.format(Locale.ROOT, "%s larger than the limit of %d bytes",
                payload, limit));
    }

    /** Fails the stream, once: drops the pending line and {@link #report}s the error. */
    final void fail(SseParser.ErrorKind kind, String message) {
        if (failed) {
            return;
        }
        failed = true;
        pendingLen = 0;
        report(kind, message);
    }

    /** Tells the listener of the error that has just stopped the framer: the last call it gets. */
    abstract void report(SseParser.ErrorKind kind, String message);

    /**
     * A pending-bytes buffer grown to hold at least {@code need} bytes (at least doubled, at most
     * {@code Integer.MAX_VALUE - 16}), with the first {@code used} bytes of {@code pending} copied in.
     */
    private static byte[] grow(byte[] pending, int used, int need) {
        long grown = Math.max((long) pending.length * 2, need);
        byte[] bigger = new byte[(int) Math.min(grown, Integer.MAX_VALUE - 16)];
        System.arraycopy(pending, 0, bigger, 0, used);
        return bigger;
    }
}
