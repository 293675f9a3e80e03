package dev.kneepoint.sim;

import java.nio.charset.StandardCharsets;
import java.util.Arrays;

/**
 * A growable UTF-8 byte buffer for the streaming hot path: SSE events are formatted straight into
 * bytes from pre-encoded pieces (no {@code StringBuilder}, no char-to-byte pass). Not thread-safe:
 * one per stream, guarded by its stream's lock.
 */
final class ByteText {
    private byte[] bytes;
    private int length;

    ByteText(int capacity) {
        bytes = new byte[capacity];
    }

    int length() {
        return length;
    }

    /** The backing array (valid until the next append). */
    byte[] array() {
        return bytes;
    }

    void clear() {
        length = 0;
    }

    ByteText append(byte[] b) {
        ensure(b.length);
        System.arraycopy(b, 0, bytes, length, b.length);
        length += b.length;
        return this;
    }

    /** Appends {@code s} as UTF-8 (ASCII in practice: the rare non-ASCII string takes a slower path). */
    ByteText append(String s) {
        int n = s.length();
        ensure(n);
        byte[] b = bytes;
        int k = length;
        for (int i = 0; i < n; i++) {
            char c = s.charAt(i);
            if (c >= 0x80) {
                return append(s.getBytes(StandardCharsets.UTF_8));
            }
            b[k++] = (byte) c;
        }
        length = k;
        return this;
    }

    ByteText append(char c) {
        if (c >= 0x80) {
            return append(String.valueOf(c));
        }
        ensure(1);
        bytes[length++] = (byte) c;
        return this;
    }

    /** Appends the decimal digits of {@code v}. */
    ByteText append(long v) {
        if (v < 0) {
            if (v == Long.MIN_VALUE) {
                return append(Long.toString(v));
            }
            append('-');
            v = -v;
        }
        int digits = 1;
        for (long p = v; p >= 10; p /= 10) {
            digits++;
        }
        ensure(digits);
        int end = length + digits;
        for (int i = end - 1; i >= length; i--) {
            bytes[i] = (byte) ('0' + v % 10);
            v /= 10;
        }
        length = end;
        return this;
    }

    @Override
    public String toString() {
        return new String(bytes, 0, length, StandardCharsets.UTF_8);
    }

    private void ensure(int more) {
        if (length + more > bytes.length) {
            bytes = Arrays.copyOf(bytes, Math.max(length + more, bytes.length * 2));
        }
    }
}
