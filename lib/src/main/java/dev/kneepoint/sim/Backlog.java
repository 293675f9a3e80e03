package dev.kneepoint.sim;

import java.nio.ByteBuffer;
import java.util.Arrays;

/**
 * Bytes of one stream that are formatted but not yet on the wire, with the scheduled time and token
 * count of each output they carry (for the emission lag, recorded when the bytes are written). Not
 * thread-safe: guarded by its stream's lock.
 */
final class Backlog {
    private byte[] bytes = new byte[0];
    private int length;
    private long[] scheduled = new long[4];
    private int[] tokens = new int[4];
    private int outs;

    boolean hasBytes() {
        return length > 0;
    }

    int outs() {
        return outs;
    }

    long scheduled(int i) {
        return scheduled[i];
    }

    int tokens(int i) {
        return tokens[i];
    }

    /** Appends the remaining bytes of {@code b} (consuming them). */
    void append(ByteBuffer b) {
        int n = b.remaining();
        if (length + n > bytes.length) {
            bytes = Arrays.copyOf(bytes, Math.max(length + n, Math.max(256, bytes.length * 2)));
        }
        b.get(bytes, length, n);
        length += n;
    }

    /** Adds an output whose bytes are (or are about to be) in this backlog or in flight. */
    void addOut(long scheduledNanos, int tokenCount) {
        if (outs == scheduled.length) {
            scheduled = Arrays.copyOf(scheduled, outs * 2);
            tokens = Arrays.copyOf(tokens, outs * 2);
        }
        scheduled[outs] = scheduledNanos;
        tokens[outs++] = tokenCount;
    }

    /** Moves everything into {@code into} (cleared first) and leaves this empty. */
    void moveTo(Backlog into) {
        into.clear();
        byte[] b = into.bytes;
        into.bytes = bytes;
        into.length = length;
        bytes = b;
        length = 0;
        long[] s = into.scheduled;
        int[] t = into.tokens;
        into.scheduled = scheduled;
        into.tokens = tokens;
        into.outs = outs;
        scheduled = s;
        tokens = t;
        outs = 0;
    }

    /** The bytes as a buffer (a view, valid until this backlog changes). */
    ByteBuffer buffer() {
        return ByteBuffer.wrap(bytes, 0, length);
    }

    void clearOuts() {
        outs = 0;
    }

    void clear() {
        length = 0;
        outs = 0;
    }
}
