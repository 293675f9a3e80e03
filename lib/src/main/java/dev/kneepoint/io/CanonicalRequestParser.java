package dev.kneepoint.io;

import dev.kneepoint.metrics.RequestRecord;
import java.lang.invoke.MethodHandles;
import java.lang.invoke.VarHandle;
import java.nio.ByteOrder;
import java.nio.charset.StandardCharsets;
import java.util.Arrays;
import java.util.Map;

/**
 * The fast path of {@link RequestParser}: reads a line byte by byte when it is exactly in the compact form
 * {@link RequestJson#write} produces (the always-written fields of {@link RequestField} in its order, no whitespace
 * but leading blanks, strings without escapes, empty {@code server_timings}), and gives up, returning {@code null},
 * at the first deviation; the general Jackson parser then reads the line (and reports it when it is malformed).
 * Repeated string values (step, tag, outcome...) are decoded once and reused. Not thread-safe.
 */
final class CanonicalRequestParser {
    /** Thrown at the first deviation from the canonical form; carries no stack trace. */
    private static final class Deviation extends RuntimeException {
        Deviation() {
            super(null, null, false, false);
        }
    }

    private static final Deviation DEVIATION = new Deviation();
    /** Eight bytes of a line as one little-endian long: the first byte is the lowest. */
    static final VarHandle LONGS = MethodHandles.byteArrayViewVarHandle(long[].class, ByteOrder.LITTLE_ENDIAN);
    private static final long ZEROS = 0x3030303030303030L;
    private static final long HIGH_NIBBLES = 0xF0F0F0F0F0F0F0F0L;
    /** Each prefix field's name as it stands in the line: <code>{"id":</code>, <code>,"step":</code>, ... */
    private static final byte[][] NAMES = names(RequestField.PREFIX);
    /** The names of the fields read among the derived ones ({@code t_first_answer_ns}). */
    private static final byte[][] TAIL_NAMES = new byte[RequestField.TAIL_LONGS.length][];
    /** The fields after the prefix as they stand in the line, <code>,"ttft_ms":</code>, ...; and their index in TAIL_NAMES, or -1. */
    private static final byte[][] TAIL_KEYS = new byte[RequestField.ALL.length - RequestField.PREFIX.length][];
    private static final int[] TAIL_KEY_FIELDS = new int[TAIL_KEYS.length];
    private static final int STRING_SLOTS = RequestField.PREFIX.length;
    private static final int CACHE = 64;

    private byte[] buf;
    private int pos;
    private int end;
    private final NumberScratch numbers = new NumberScratch();
    /** The prefix's texts (by ordinal), set once the whole line is read. */
    private final String[] texts = new String[RequestField.PREFIX.length];
    private final byte[][][] cachedBytes = new byte[STRING_SLOTS][CACHE][];
    private final String[][] cachedStrings = new String[STRING_SLOTS][CACHE];

    static {
        for (int i = 0; i < TAIL_NAMES.length; i++) {
            TAIL_NAMES[i] = RequestField.TAIL_LONGS[i].json().getBytes(StandardCharsets.US_ASCII);
        }
        for (int k = 0; k < TAIL_KEYS.length; k++) {
            RequestField f = RequestField.ALL[RequestField.PREFIX.length + k];
            TAIL_KEYS[k] = (",\"" + f.json() + "\":").getBytes(StandardCharsets.US_ASCII);
            TAIL_KEY_FIELDS[k] = Arrays.asList(RequestField.TAIL_LONGS).indexOf(f);
        }
    }

    private static byte[][] names(RequestField[] fields) {
        byte[][] out = new byte[fields.length][];
        for (int i = 0; i < fields.length; i++) {
            out[i] = ((i == 0 ? "{\"" : ",\"") + fields[i].json() + "\":").getBytes(StandardCharsets.US_ASCII);
        }
        return out;
    }

    /** The record in {@code buf[off, off+len)}, or {@code null} when the line is not in canonical form. */
    RequestRecord parse(byte[] buf, int off, int len) {
        this.buf = buf;
        this.pos = off;
        this.end = off + len;
        while (pos < end && (buf[pos] == ' ' || buf[pos] == '\t')) {
            pos++; // the JSON generator separates root values with a space
        }
        try {
            return read();
        } catch (Deviation | ArrayIndexOutOfBoundsException e) {
            return null;
        } finally {
            this.buf = null;
        }
    }

    private RequestRecord read() {
        RequestDraft d = new RequestDraft();
        String[] texts = this.texts;
        for (RequestField f : RequestField.PREFIX) {
            int i = f.ordinal(); // the prefix opens the table: ordinal = position
            name(i);
            switch (f.kind()) {
                case LONG -> f.putLong(d, number());
                case INT -> f.putInt(d, integer());
                case FLAG -> f.putFlag(d, bool());
                case TEXT -> texts[i] = peek() == 'n' && f.nullable() ? literal("null") : string(i);
                case LONGS -> f.putLongs(d, numbers(false).longs());
                case INTS -> f.putInts(d, numbers(true).ints());
                case TIMINGS -> {
                    literal("{}");
                    f.putTimings(d, Map.of());
                }
                case MILLIS, DECIMAL -> throw new IllegalStateException("a derived field in the prefix");
            }
        }
        derivedTail(d);
        for (RequestField f : RequestField.PREFIX_TEXTS) { // texts last, in order: token source, outcome may not parse
            String v = texts[f.ordinal()];
            if (v != null) {
                f.putText(d, v);
            }
        }
        return d.build();
    }

    private byte peek() {
        if (pos >= end) {
            throw DEVIATION;
        }
        return buf[pos];
    }

    private void name(int i) {
        byte[] n = NAMES[i];
        if (end - pos < n.length || !Arrays.equals(buf, pos, pos + n.length, n, 0, n.length)) {
            throw DEVIATION;
        }
        pos += n.length;
    }

    private String literal(String s) {
        for (int i = 0; i < s.length(); i++) {
            if (peek() != s.charAt(i)) {
                throw DEVIATION;
            }
            pos++;
        }
        return null;
    }

    private boolean bool() {
        if (peek() == 't') {
            literal("true");
            return true;
        }
        literal("false");
        return false;
    }

    private long number() {
        byte[] b = buf;
        int p = pos;
        int e = end;
        boolean negative = p < e && b[p] == '-';
        if (negative) {
            p++;
        }
        int start = p;
        long v = 0;
        while (p + 8 <= e) { // eight digits at a time while there are eight (timestamps have 9-13)
            long x = (long) LONGS.get(b, p);
            if ((x & HIGH_NIBBLES) != ZEROS || ((x + 0x0606060606060606L) & HIGH_NIBBLES) != ZEROS) {
                break; // not all eight are '0'..'9'
            }
            v = 100_000_000L * v + eightDigits(x - ZEROS);
            p += 8;
        }
        while (p < e && b[p] >= '0' && b[p] <= '9') {
            v = 10 * v + (b[p++] - '0');
        }
        pos = p;
        int digits = p - start;
        if (digits == 0 || digits > 18 || (digits > 1 && b[start] == '0')) {
            throw DEVIATION; // empty, possibly overflowing, or not canonical
        }
        byte next = peek();
        if (next != ',' && next != ']' && next != '}') {
            throw DEVIATION; // a fraction or an exponent
        }
        return negative ? -v : v;
    }

    /**
     * The value of eight decimal digits, one per byte (0-9 each, the first the most significant), by three
     * multiplications instead of eight (the SWAR method of simdjson's {@code parse_eight_digits_unrolled}).
     */
    static long eightDigits(long digits) {
        long v = digits * 10 + (digits >>> 8); // each 16-bit lane's low byte: a two-digit number
        return ((v & 0x000000FF000000FFL) * (100 + (1_000_000L << 32))
                + ((v >>> 16) & 0x000000FF000000FFL) * (1 + (10_000L << 32))) >>> 32;
    }

    private int integer() {
        long v = number();
        if (v != (int) v) {
            throw DEVIATION;
        }
        return (int) v;
    }

    /** An array of whole numbers (each within an int when {@code ints}), read into the scratch. */
    private NumberScratch numbers(boolean ints) {
        NumberScratch out = numbers;
        out.clear();
        literal("[");
        if (peek() != ']') {
            while (true) {
                out.add(ints ? integer() : number());
                if (buf[pos] != ',') {
                    break;
                }
                pos++;
            }
        }
        literal("]");
        return out;
    }

    /**
     * Steps over a string without escapes or control characters, its quotes included: where its content starts (it
     * ends before the closing quote, at {@code pos - 1}).
     */
    private int plainString() {
        literal("\"");
        int start = pos;
        while (peek() != '"') {
            byte c = buf[pos++];
            if (c == '\\' || (c >= 0 && c < 0x20)) {
                throw DEVIATION;
            }
        }
        pos++;
        return start;
    }

    /** A string without escapes or control characters, decoded once per distinct value and slot. */
    private String string(int slot) {
        int start = plainString();
        int len = pos - 1 - start;
        byte[][] bytes = cachedBytes[slot];
        for (int i = 0; i < CACHE; i++) {
            byte[] c = bytes[i];
            if (c == null) {
                bytes[i] = Arrays.copyOfRange(buf, start, start + len);
                cachedStrings[slot][i] = new String(buf, start, len, StandardCharsets.UTF_8);
                return cachedStrings[slot][i];
            }
            if (c.length == len && Arrays.equals(buf, start, start + len, c, 0, len)) {
                return cachedStrings[slot][i];
            }
        }
        return new String(buf, start, len, StandardCharsets.UTF_8); // many distinct values: no caching
    }

    /**
     * Skips the derived fields after {@code server_timings} ({@code ttft_ms} ...), reading into {@code d} the whole
     * numbers written only when set that may stand among them ({@code t_first_answer_ns}, only for requests with
     * reasoning); a flag written only when set ({@code retried}) is not a number, so the line deviates.
     */
    private void derivedTail(RequestDraft d) {
        int next = 0; // the tail as written: the table's fields after the prefix, in order
        while (peek() == ',') {
            int field;
            int k = expectedKey(next);
            if (k >= 0) { // the name as written: taken whole, with the same result as reading it byte by byte
                pos += TAIL_KEYS[k].length;
                next = k + 1;
                field = TAIL_KEY_FIELDS[k];
            } else {
                pos++;
                int nameStart = plainString();
                field = tailField(nameStart, pos - 1);
                literal(":");
            }
            if (peek() == 'n') {
                literal("null");
            } else {
                int start = pos;
                while (pos < end && isNumberByte(buf[pos])) {
                    pos++;
                }
                if (pos == start || (buf[start] != '-' && (buf[start] < '0' || buf[start] > '9'))) {
                    throw DEVIATION;
                }
                if (field >= 0) {
                    long v;
                    try {
                        v = Long.parseLong(new String(buf, start, pos - start, StandardCharsets.US_ASCII));
                    } catch (NumberFormatException e) {
                        throw DEVIATION;
                    }
                    RequestField.TAIL_LONGS[field].putLong(d, v);
                }
            }
        }
        literal("}");
        while (pos < end) {
            byte c = buf[pos++];
            if (c != ' ' && c != '\t' && c != '\r') {
                throw DEVIATION;
            }
        }
    }

    /** The first of the tail's keys from {@code next} on that stands at {@code pos}, or -1. */
    private int expectedKey(int next) {
        for (int k = next; k < TAIL_KEYS.length; k++) {
            byte[] key = TAIL_KEYS[k];
            if (end - pos >= key.length && Arrays.equals(buf, pos, pos + key.length, key, 0, key.length)) {
                return k;
            }
        }
        return -1;
    }

    /** The index in {@link RequestField#TAIL_LONGS} of the field named by {@code buf[from, to)}, or -1. */
    private int tailField(int from, int to) {
        for (int i = 0; i < TAIL_NAMES.length; i++) {
            if (Arrays.equals(buf, from, to, TAIL_NAMES[i], 0, TAIL_NAMES[i].length)) {
                return i;
            }
        }
        return -1;
    }

    private static boolean isNumberByte(byte c) {
        return (c >= '0' && c <= '9') || c == '-' || c == '+' || c == '.' || c == 'e' || c == 'E';
    }
}
