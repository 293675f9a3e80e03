package dev.kneepoint.client;

/**
 * The allocation-light fast path of {@link OpenAiChunkDecoder}: decodes the common shape of an OpenAI
 * chunk (strings without escapes, integer usage counts) with a hand-written scanner over the payload,
 * without a Jackson parser per event. It is strict JSON and conservative: anything it does not handle
 * exactly as the Jackson path would (an escape, an error object, {@code timings}, a fractional count,
 * malformed JSON...) makes it give up ({@code null}), and the caller decodes the payload with Jackson.
 * Whenever it returns a chunk, that chunk equals the Jackson path's ({@code ChunkFastPathTest} checks
 * this over generated and mutated payloads). One instance per payload; not thread-safe.
 */
final class ChunkFastPath {
    /** Thrown (without a stack trace) to give up; never leaves this class. */
    private static final class GiveUp extends RuntimeException {
        GiveUp() {
            super(null, null, false, false);
        }
    }

    private static final GiveUp GIVE_UP = new GiveUp();
    private static final int MAX_DEPTH = 64;

    private final String s;
    private final int n;
    private int i;
    /** Where the string last scanned by {@link #key} ends (its closing quote). */
    private int end;
    private String content;
    private String reasoning;
    private String role;
    private String finishReason;
    private int choices = -1;
    private int promptTokens = -1;
    private int completionTokens = -1;

    private ChunkFastPath(String s) {
        this.s = s;
        this.n = s.length();
    }

    /** The decoded chunk, or null when the payload needs the general (Jackson) path. */
    static StreamPayload.Chunk tryDecode(String data) {
        ChunkFastPath p = new ChunkFastPath(data);
        try {
            return p.chunk();
        } catch (GiveUp | StringIndexOutOfBoundsException e) {
            return null;
        }
    }

    private StreamPayload.Chunk chunk() {
        ws();
        expect('{');
        if (membersFollow('}')) {
            while (true) {
                int k = key();
                colon();
                if (is(k, "choices")) {
                    choices();
                } else if (is(k, "usage")) {
                    usage();
                } else if (is(k, "object")) {
                    // "error" is an error object; a non-string value is an edge case left to Jackson
                    if (peek() != '"') {
                        throw GIVE_UP;
                    }
                    int v = key();
                    if (is(v, "error")) {
                        throw GIVE_UP;
                    }
                } else if (is(k, "error") || is(k, "message") || is(k, "timings")) {
                    throw GIVE_UP;
                } else {
                    skipValue(1);
                }
                if (!next('}')) {
                    break;
                }
            }
        }
        ws();
        if (i != n) {
            throw GIVE_UP;
        }
        return new StreamPayload.Chunk(content, reasoning, role, finishReason, choices, promptTokens,
                completionTokens, -1, null);
    }

    /** Just inside an object or array: true when a member follows, false (and past it) when it is empty. */
    private boolean membersFollow(char close) {
        ws();
        if (peek() == close) {
            i++;
            return false;
        }
        return true;
    }

    /** After a member: true when a comma (another member follows), false at the closing {@code close}. */
    private boolean next(char close) {
        ws();
        char c = peek();
        i++;
        if (c == ',') {
            ws();
            return true;
        }
        if (c == close) {
            return false;
        }
        throw GIVE_UP;
    }

    private void choices() {
        if (peek() != '[') {
            skipValue(1);
            return;
        }
        i++;
        choices = 0;
        if (!membersFollow(']')) {
            return;
        }
        do {
            expect('{');
            choices++;
            if (!membersFollow('}')) {
                continue;
            }
            do {
                int k = key();
                colon();
                if (is(k, "delta") || is(k, "message")) {
                    if (peek() == '{') {
                        delta();
                    } else {
                        skipValue(2);
                    }
                } else if (is(k, "text")) {
                    content = concat(content, stringOrSkip());
                } else if (is(k, "finish_reason")) {
                    char c = peek();
                    if (c == '"') {
                        int r = key();
                        if (finishReason == null) {
                            finishReason = text(r);
                        }
                    } else if (c == '{' || c == '[') {
                        throw GIVE_UP;
                    } else {
                        skipValue(2);
                    }
                } else {
                    skipValue(2);
                }
            } while (next('}'));
        } while (next(']'));
    }

    private void delta() {
        i++;
        if (!membersFollow('}')) {
            return;
        }
        do {
            int k = key();
            colon();
            if (is(k, "content")) {
                content = concat(content, stringOrSkip());
            } else if (is(k, "reasoning_content") || is(k, "reasoning")) {
                reasoning = concat(reasoning, stringOrSkip());
            } else if (is(k, "role")) {
                String v = stringOrSkip();
                role = v != null ? v : role;
            } else {
                skipValue(3);
            }
        } while (next('}'));
    }

    private void usage() {
        if (peek() != '{') {
            skipValue(1);
            return;
        }
        i++;
        if (!membersFollow('}')) {
            return;
        }
        do {
            int k = key();
            colon();
            if (is(k, "prompt_tokens")) {
                promptTokens = intOrSkip(promptTokens);
            } else if (is(k, "completion_tokens")) {
                completionTokens = intOrSkip(completionTokens);
            } else if (is(k, "completion_tokens_details")) {
                throw GIVE_UP;
            } else {
                skipValue(2);
            }
        } while (next('}'));
    }

    /** A string value, or null after skipping a value of another type. */
    private String stringOrSkip() {
        if (peek() == '"') {
            return string();
        }
        skipValue(3);
        return null;
    }

    /** An integer that fits an int (as JSON, without fraction or exponent); another type is skipped. */
    private int intOrSkip(int dflt) {
        char c = peek();
        if (c != '-' && (c < '0' || c > '9')) {
            skipValue(2);
            return dflt;
        }
        int start = i;
        int end = number();
        if (end - start > 9) {
            throw GIVE_UP;
        }
        int v = 0;
        boolean neg = s.charAt(start) == '-';
        for (int k = neg ? start + 1 : start; k < end; k++) {
            char d = s.charAt(k);
            if (d < '0' || d > '9') {
                throw GIVE_UP; // fraction or exponent
            }
            v = v * 10 + (d - '0');
        }
        return neg ? -v : v;
    }

    private void skipValue(int depth) {
        if (depth > MAX_DEPTH) {
            throw GIVE_UP;
        }
        char c = peek();
        switch (c) {
            case '"' -> skipString();
            case '{' -> {
                i++;
                if (!membersFollow('}')) {
                    return;
                }
                do {
                    skipString();
                    colon();
                    skipValue(depth + 1);
                } while (next('}'));
            }
            case '[' -> {
                i++;
                if (!membersFollow(']')) {
                    return;
                }
                do {
                    skipValue(depth + 1);
                } while (next(']'));
            }
            case 't' -> literal("true");
            case 'f' -> literal("false");
            case 'n' -> literal("null");
            default -> number();
        }
    }

    private void literal(String word) {
        if (!s.startsWith(word, i)) {
            throw GIVE_UP;
        }
        i += word.length();
        // a literal must end here: "nullx" is not JSON
        if (i < n && Character.isLetterOrDigit(s.charAt(i))) {
            throw GIVE_UP;
        }
    }

    /** Scans a strict JSON number; returns its end. */
    private int number() {
        int start = i;
        if (peek() == '-') {
            i++;
        }
        char c = peek();
        if (c == '0') {
            i++;
        } else if (c >= '1' && c <= '9') {
            digits();
        } else {
            throw GIVE_UP;
        }
        if (i < n && s.charAt(i) == '.') {
            i++;
            if (digits() == 0) {
                throw GIVE_UP;
            }
        }
        if (i < n && (s.charAt(i) == 'e' || s.charAt(i) == 'E')) {
            i++;
            if (i < n && (s.charAt(i) == '+' || s.charAt(i) == '-')) {
                i++;
            }
            if (digits() == 0) {
                throw GIVE_UP;
            }
        }
        // a number must end here ("12abc", "01" are not JSON); and stay short (Jackson limits their length)
        if (i < n && (Character.isLetterOrDigit(s.charAt(i)) || s.charAt(i) == '.') || i - start > 100) {
            throw GIVE_UP;
        }
        return i;
    }

    private int digits() {
        int start = i;
        while (i < n && s.charAt(i) >= '0' && s.charAt(i) <= '9') {
            i++;
        }
        return i - start;
    }

    /** A string without escapes or control characters (anything else: give up). */
    private String string() {
        return text(key());
    }

    /**
     * Scans a string without escapes or control characters (anything else: give up) and returns where its
     * text starts; it ends at {@link #end} (the closing quote). Nothing is allocated.
     */
    private int key() {
        int start = i + 1;
        skipString();
        end = i - 1;
        return start;
    }

    /** Whether the string last scanned by {@link #key} (text from {@code start} to {@link #end}) is {@code name}. */
    private boolean is(int start, String name) {
        return end - start == name.length() && s.startsWith(name, start);
    }

    /** The text of the string just scanned, from {@code start}. */
    private String text(int start) {
        return s.substring(start, end);
    }

    private void skipString() {
        expect('"');
        while (true) {
            char c = s.charAt(i++);
            if (c == '"') {
                return;
            }
            if (c == '\\' || c < 0x20) {
                throw GIVE_UP;
            }
        }
    }

    private void colon() {
        ws();
        expect(':');
        ws();
    }

    private void expect(char c) {
        if (peek() != c) {
            throw GIVE_UP;
        }
        i++;
    }

    private char peek() {
        if (i >= n) {
            throw GIVE_UP;
        }
        return s.charAt(i);
    }

    private void ws() {
        while (i < n) {
            char c = s.charAt(i);
            if (c != ' ' && c != '\t' && c != '\n' && c != '\r') {
                return;
            }
            i++;
        }
    }

    private static String concat(String a, String b) {
        if (b == null || b.isEmpty()) {
            return a;
        }
        return a == null || a.isEmpty() ? b : a + b;
    }
}
