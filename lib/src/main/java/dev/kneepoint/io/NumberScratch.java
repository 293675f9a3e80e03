package dev.kneepoint.io;

import java.util.Arrays;

/**
 * The whole numbers of one JSON array as a reader takes them ({@code chunk_ns}, {@code chunk_tokens}), kept in one
 * growing array that is reused from line to line, then copied out at their size. Not thread-safe.
 */
final class NumberScratch {
    private long[] values = new long[64];
    private int size;

    /** Empties it for the next array. */
    void clear() {
        size = 0;
    }

    void add(long v) {
        if (size == values.length) {
            values = Arrays.copyOf(values, 2 * size);
        }
        values[size++] = v;
    }

    /** The numbers added since {@link #clear()}. */
    long[] longs() {
        return Arrays.copyOf(values, size);
    }

    /** The numbers added since {@link #clear()}, each added as an int. */
    int[] ints() {
        int[] v = new int[size];
        for (int i = 0; i < size; i++) {
            v[i] = (int) values[i];
        }
        return v;
    }
}
