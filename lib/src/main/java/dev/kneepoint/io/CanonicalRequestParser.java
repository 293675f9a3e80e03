package dev.kneepoint.io;

import dev.kneepoint.metrics.Outcome;
import dev.kneepoint.metrics.RequestRecord;
import dev.kneepoint.metrics.TokenSource;
import java.lang.invoke.MethodHandles;
import java.lang.invoke.VarHandle;
import java.nio.ByteOrder;
import java.nio.charset.StandardCharsets;
import java.util.Arrays;
import java.util.Map;

/**
 * The fast path of {@link RequestParser}: reads a line byte by byte when it is exactly in the compact form
 * {@link RequestJson#write} produces (fields in that order, no whitespace but leading blanks, strings without escapes, empty
 * {@code server_timings}), and gives up, returning {@code null}, at the first deviation; the general
 * Jackson parser then reads the line (and reports it when it is malformed). Repeated string values (step,
 * tag, outcome...) are decoded once and reused. Not thread-safe.
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
    private static final byte[][] NAMES = names("id", "step", "tag", "warmup", "t_intended_ns", "t_dispatch_ns",
            "t_first_byte_ns", "t_first_token_ns", "t_last_token_ns", "t_end_ns", "chunk_ns", "chunk_tokens",
            "prompt_tokens", "output_tokens", "reasoning_tokens", "requested_prompt_tokens", "requested_output_tokens",
            "client_counted_tokens", "token_source", "outcome", "outcome_detail", "finish_reason", "streamed",
            "server_timings");
    private static final byte[] FIRST_ANSWER = "t_first_answer_ns".getBytes(StandardCharsets.US_ASCII);
    private static final int STRING_SLOTS = 24;
    private static final int CACHE = 64;

    private byte[] buf;
    private int pos;
    private int end;
    private long[] nanos = new long[64];
    private int[] tokens = new int[64];
    private final byte[][][] cachedBytes = new byte[STRING_SLOTS][CACHE][];
    private final String[][] cachedStrings = new String[STRING_SLOTS][CACHE];

    private static byte[][] names(String... names) {
        byte[][] out = new byte[names.length][];
        for (int i = 0; i < names.length; i++) {
            out[i] = ((i == 0 ? "{\"" : ",\"") + names[i] + "\":").getBytes(StandardCharsets.US_ASCII);
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
        RequestRecord.Builder b = new RequestRecord.Builder();
        name(0);
        b.id = number();
        name(1);
        b.step = string(1);
        name(2);
        b.tag = string(2);
        name(3);
        b.warmup = bool();
        name(4);
        b.intendedNanos = number();
        name(5);
        b.dispatchNanos = number();
        name(6);
        b.firstByteNanos = number();
        name(7);
        b.firstTokenNanos = number();
        name(8);
        b.lastTokenNanos = number();
        name(9);
        b.endNanos = number();
        name(10);
        b.chunkNanos = longs();
        name(11);
        b.chunkTokens = ints();
        name(12);
        b.promptTokens = integer();
        name(13);
        b.outputTokens = integer();
        name(14);
        b.reasoningTokens = integer();
        name(15);
        b.requestedPromptTokens = integer();
        name(16);
        b.requestedOutputTokens = integer();
        name(17);
        b.clientCountedTokens = integer();
        name(18);
        String source = string(18);
        name(19);
        String outcome = string(19);
        name(20);
        String detail = string(20);
        name(21);
        b.finishReason = peek() == 'n' ? literal("null") : string(21);
        name(22);
        b.streamed = bool();
        name(23);
        literal("{}");
        b.serverTimings = Map.of();
        b.firstAnswerNanos = derivedTail();
        b.tokenSource = TokenSource.parse(source);
        b.outcome = RequestJson.withDetail(Outcome.parse(outcome), detail);
        return b.build();
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

    private long[] longs() {
        literal("[");
        int n = 0;
        if (peek() != ']') {
            while (true) {
                if (n == nanos.length) {
                    nanos = Arrays.copyOf(nanos, 2 * n);
                }
                nanos[n++] = number();
                if (buf[pos] != ',') {
                    break;
                }
                pos++;
            }
        }
        literal("]");
        return Arrays.copyOf(nanos, n);
    }

    private int[] ints() {
        literal("[");
        int n = 0;
        if (peek() != ']') {
            while (true) {
                if (n == tokens.length) {
                    tokens = Arrays.copyOf(tokens, 2 * n);
                }
                tokens[n++] = integer();
                if (buf[pos] != ',') {
                    break;
                }
                pos++;
            }
        }
        literal("]");
        return Arrays.copyOf(tokens, n);
    }

    /** A string without escapes or control characters, decoded once per distinct value and slot. */
    private String string(int slot) {
        literal("\"");
        int start = pos;
        while (peek() != '"') {
            byte c = buf[pos++];
            if (c == '\\' || (c >= 0 && c < 0x20)) {
                throw DEVIATION;
            }
        }
        int len = pos - start;
        pos++;
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
     * Skips the derived fields after {@code server_timings} ({@code ttft_ms} ...), reading the one stored field that
     * may stand among them, {@code t_first_answer_ns} (written only for requests with reasoning); returns it, or
     * {@link RequestRecord#ABSENT}.
     */
    private long derivedTail() {
        long firstAnswer = RequestRecord.ABSENT;
        while (peek() == ',') {
            pos++;
            literal("\"");
            int nameStart = pos;
            while (peek() != '"') {
                byte c = buf[pos++];
                if (c == '\\' || (c >= 0 && c < 0x20)) {
                    throw DEVIATION;
                }
            }
            boolean firstAnswerField = Arrays.equals(buf, nameStart, pos, FIRST_ANSWER, 0, FIRST_ANSWER.length);
            pos++;
            literal(":");
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
                if (firstAnswerField) {
                    try {
                        firstAnswer = Long.parseLong(new String(buf, start, pos - start, StandardCharsets.US_ASCII));
                    } catch (NumberFormatException e) {
                        throw DEVIATION;
                    }
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
        return firstAnswer;
    }

    private static boolean isNumberByte(byte c) {
        return (c >= '0' && c <= '9') || c == '-' || c == '+' || c == '.' || c == 'e' || c == 'E';
    }
}
