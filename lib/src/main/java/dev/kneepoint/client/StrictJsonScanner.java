package dev.kneepoint.client;

/**
 * A hand-written scanner over one strict JSON text, for decoders that read a few fields of a common shape without a
 * JSON parser per payload ({@link ChunkFastPath}). It allocates nothing but the strings asked for
 * ({@link #text}, {@link #stringOrSkip}). It is conservative: anything it does not handle exactly as a JSON parser
 * would (an escape, a control character, a number out of range, a value nested deeper than 64, malformed JSON...)
 * throws {@link GiveUp}, and so may {@link StringIndexOutOfBoundsException} at a truncated text: the decoder then
 * gives up and lets the general path decode the payload. A decoder extends it (rather than holding one) so that a
 * payload costs one object. Not thread-safe.
 */
abstract class StrictJsonScanner {
    /** Thrown (without a stack trace) to give up; the decoder catches it. */
    static final class GiveUp extends RuntimeException {
        GiveUp() {
            super(null, null, false, false);
        }
    }

    static final GiveUp GIVE_UP = new GiveUp();
    private static final int MAX_DEPTH = 64;

    private final String s;
    private final int n;
    private int i;
    /** Where the string last scanned by {@link #key} ends (its closing quote). */
    private int end;

    StrictJsonScanner(String s) {
        this.s = s;
        this.n = s.length();
    }

    /** Only whitespace is left (anything else: give up). */
    final void onlyWhitespaceLeft() {
        ws();
        if (i != n) {
            throw GIVE_UP;
        }
    }

    /** Just inside an object or array: true when a member follows, false (and past it) when it is empty. */
    final boolean membersFollow(char close) {
        ws();
        if (peek() == close) {
            i++;
            return false;
        }
        return true;
    }

    /** Steps into the object or array {@link #peek} is at: true when a member follows, false (and past it) when it is empty. */
    final boolean enter(char close) {
        i++;
        return membersFollow(close);
    }

    /** At an object member: scans its key and the colon after it; returns what {@link #key} returned. */
    final int member() {
        int k = key();
        colon();
        return k;
    }

    /** After a member: true when a comma (another member follows), false at the closing {@code close}. */
    final boolean next(char close) {
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

    /** A string value, or null after skipping a value of another type. */
    final String stringOrSkip() {
        if (peek() == '"') {
            return string();
        }
        skipValue(3);
        return null;
    }

    /** An integer that fits an int (as JSON, without fraction or exponent); another type is skipped. */
    final int intOrSkip(int dflt) {
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

    final void skipValue(int depth) {
        if (depth > MAX_DEPTH) {
            throw GIVE_UP;
        }
        char c = peek();
        switch (c) {
            case '"' -> skipString();
            case '{' -> {
                if (!enter('}')) {
                    return;
                }
                do {
                    skipString();
                    colon();
                    skipValue(depth + 1);
                } while (next('}'));
            }
            case '[' -> {
                if (!enter(']')) {
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
    final int key() {
        int start = i + 1;
        skipString();
        end = i - 1;
        return start;
    }

    /** Whether the string last scanned by {@link #key} (text from {@code start} to {@link #end}) is {@code name}. */
    final boolean is(int start, String name) {
        return end - start == name.length() && s.startsWith(name, start);
    }

    /** The text of the string just scanned, from {@code start}. */
    final String text(int start) {
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

    final void colon() {
        ws();
        expect(':');
        ws();
    }

    final void expect(char c) {
        if (peek() != c) {
            throw GIVE_UP;
        }
        i++;
    }

    final char peek() {
        if (i >= n) {
            throw GIVE_UP;
        }
        return s.charAt(i);
    }

    final void ws() {
        while (i < n) {
            char c = s.charAt(i);
            if (c != ' ' && c != '\t' && c != '\n' && c != '\r') {
                return;
            }
            i++;
        }
    }
}
