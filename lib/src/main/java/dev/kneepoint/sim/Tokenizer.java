package dev.kneepoint.sim;

import java.util.ArrayList;
import java.util.List;

/**
 * The simulator's deterministic tokenizer, so that token counts are exact and reproducible.
 *
 * <p>Rule: a token is an optional single leading space followed by exactly one of
 * <ul>
 *   <li>a run of 1 to 6 ASCII letters ({@code a-z}, {@code A-Z}; longer runs split every 6 letters),</li>
 *   <li>one ASCII digit,</li>
 *   <li>one other character that is not a space (punctuation, newline, any non-ASCII code point).</li>
 * </ul>
 * A space that is not followed by such a character (a trailing space, or the first of two spaces)
 * is a token by itself. So a prompt of N lowercase words of at most 6 letters separated by single
 * spaces has exactly N tokens, and {@code "hello, world"} is {@code ["hello", ",", " world"]}.
 *
 * <p>Token ids are a reversible encoding of the token text (not a dense vocabulary): ids below
 * {@link #SPECIAL_LIMIT} are the chat template's special tokens ({@link ChatTemplate}); every
 * other id decodes back to its exact text, so {@code detokenize(tokenize(s)) == s}.
 *
 * <p>Thread-safe (stateless).
 */
public final class Tokenizer {
    /** Ids below this are special (chat template) tokens. */
    public static final long SPECIAL_LIMIT = 1024;
    private static final int MAX_LETTERS = 6;
    private static final long LETTER_BASE = 53; // digit 0 unused, 1..52 letters
    private static final long LETTER_RUN_OFFSET = 1L << 22; // above all code points

    private Tokenizer() {
    }

    /** The token texts of {@code text}, in order; their concatenation is {@code text}. */
    public static List<String> split(String text) {
        List<String> out = new ArrayList<>();
        int i = 0;
        int n = text.length();
        while (i < n) {
            int start = i;
            if (text.charAt(i) == ' ') {
                if (i + 1 >= n || text.charAt(i + 1) == ' ') {
                    out.add(" ");
                    i++;
                    continue;
                }
                i++;
            }
            i = endOfCore(text, i);
            out.add(text.substring(start, i));
        }
        return out;
    }

    /** Number of tokens in {@code text}, without allocating the token list. */
    public static int count(String text) {
        int count = 0;
        int i = 0;
        int n = text.length();
        while (i < n) {
            if (text.charAt(i) == ' ') {
                if (i + 1 >= n || text.charAt(i + 1) == ' ') {
                    count++;
                    i++;
                    continue;
                }
                i++;
            }
            i = endOfCore(text, i);
            count++;
        }
        return count;
    }

    /** Token ids of {@code text} (see the class comment for the encoding). */
    public static long[] encode(String text) {
        List<String> parts = split(text);
        long[] ids = new long[parts.size()];
        for (int k = 0; k < ids.length; k++) {
            ids[k] = idOf(parts.get(k));
        }
        return ids;
    }

    /** Text of token ids; special ids decode to their template text. */
    public static String decode(long[] ids) {
        StringBuilder sb = new StringBuilder();
        for (long id : ids) {
            sb.append(textOf(id));
        }
        return sb.toString();
    }

    /** The id of one token's text (which must be a single token as produced by {@link #split}). */
    static long idOf(String token) {
        boolean space = token.charAt(0) == ' ' && token.length() > 1;
        String core = space ? token.substring(1) : token;
        long value;
        char c0 = core.charAt(0);
        if (isLetter(c0)) {
            long v = 0;
            for (int k = 0; k < core.length(); k++) {
                v = v * LETTER_BASE + letterDigit(core.charAt(k));
            }
            value = LETTER_RUN_OFFSET + v;
        } else {
            value = core.codePointAt(0);
        }
        return SPECIAL_LIMIT + ((value << 1) | (space ? 1 : 0));
    }

    /** The text of one id. */
    static String textOf(long id) {
        if (id < SPECIAL_LIMIT) {
            return ChatTemplate.specialText(id);
        }
        long raw = id - SPECIAL_LIMIT;
        boolean space = (raw & 1) == 1;
        long value = raw >>> 1;
        String core;
        if (value >= LETTER_RUN_OFFSET) {
            long v = value - LETTER_RUN_OFFSET;
            StringBuilder sb = new StringBuilder();
            while (v > 0) {
                sb.append(letterOf((int) (v % LETTER_BASE)));
                v /= LETTER_BASE;
            }
            core = sb.reverse().toString();
        } else {
            core = new String(Character.toChars((int) value));
        }
        return space ? " " + core : core;
    }

    private static int endOfCore(String text, int i) {
        char c = text.charAt(i);
        if (isLetter(c)) {
            int end = i;
            while (end < text.length() && end - i < MAX_LETTERS && isLetter(text.charAt(end))) {
                end++;
            }
            return end;
        }
        return i + Character.charCount(text.codePointAt(i));
    }

    private static boolean isLetter(char c) {
        return (c >= 'a' && c <= 'z') || (c >= 'A' && c <= 'Z');
    }

    private static int letterDigit(char c) {
        return c >= 'a' ? 1 + (c - 'a') : 27 + (c - 'A');
    }

    private static char letterOf(int digit) {
        return digit <= 26 ? (char) ('a' + digit - 1) : (char) ('A' + digit - 27);
    }
}
