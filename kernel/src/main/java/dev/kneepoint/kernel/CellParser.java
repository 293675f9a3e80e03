package dev.kneepoint.kernel;

import java.util.ArrayList;
import java.util.List;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

/**
 * Splits a cell into Java code and IJava-style magics: a cell magic {@code %%name args} on the first
 * non-blank line takes the rest of the cell as its body; a line magic {@code %name args} is any line that
 * starts (after indentation) with {@code %} and a letter, and runs in order with the code around it.
 */
public final class CellParser {
    private static final Pattern MAGIC = Pattern.compile("^\\s*%(%?)([A-Za-z][\\w-]*)(.*)$");

    private CellParser() {}

    /** A parsed cell. */
    public sealed interface Cell permits Plain, WithCellMagic {}

    /** Code and line magics in cell order. */
    public record Plain(List<Piece> pieces) implements Cell {
        public Plain {
            pieces = List.copyOf(pieces);
        }
    }

    /** A cell magic with its arguments and body. */
    public record WithCellMagic(String name, List<String> args, String body) implements Cell {
        public WithCellMagic {
            args = List.copyOf(args);
        }
    }

    /** One piece of a plain cell. */
    public sealed interface Piece permits Code, LineMagic {}

    /** Java source, possibly several snippets. */
    public record Code(String source) implements Piece {}

    /** A line magic. */
    public record LineMagic(String name, List<String> args) implements Piece {
        public LineMagic {
            args = List.copyOf(args);
        }
    }

    /** Parses a cell. */
    public static Cell parse(String cell) {
        String[] lines = cell.split("\n", -1);
        int first = 0;
        while (first < lines.length && lines[first].isBlank()) {
            first++;
        }
        if (first < lines.length) {
            Matcher m = MAGIC.matcher(lines[first]);
            if (m.matches() && !m.group(1).isEmpty()) {
                String body = String.join("\n", java.util.Arrays.copyOfRange(lines, first + 1, lines.length));
                return new WithCellMagic(m.group(2), arguments(m.group(3)), body);
            }
        }
        List<Piece> pieces = new ArrayList<>();
        StringBuilder code = new StringBuilder();
        for (String line : lines) {
            Matcher m = MAGIC.matcher(line);
            if (m.matches() && m.group(1).isEmpty()) {
                if (!code.toString().isBlank()) {
                    pieces.add(new Code(code.toString()));
                }
                code.setLength(0);
                pieces.add(new LineMagic(m.group(2), arguments(m.group(3))));
            } else {
                code.append(line).append('\n');
            }
        }
        if (!code.toString().isBlank()) {
            pieces.add(new Code(code.toString()));
        }
        return new Plain(pieces);
    }

    /** Whitespace-separated arguments; double or single quotes group, backslash escapes inside double quotes. */
    static List<String> arguments(String s) {
        List<String> out = new ArrayList<>();
        StringBuilder cur = new StringBuilder();
        boolean any = false;
        char quote = 0;
        for (int i = 0; i < s.length(); i++) {
            char c = s.charAt(i);
            if (quote != 0) {
                if (c == quote) {
                    quote = 0;
                } else if (c == '\\' && quote == '"' && i + 1 < s.length()) {
                    cur.append(s.charAt(++i));
                } else {
                    cur.append(c);
                }
            } else if (c == '"' || c == '\'') {
                quote = c;
                any = true;
            } else if (Character.isWhitespace(c)) {
                if (any) {
                    out.add(cur.toString());
                    cur.setLength(0);
                    any = false;
                }
            } else {
                cur.append(c);
                any = true;
            }
        }
        if (any) {
            out.add(cur.toString());
        }
        return out;
    }
}
