package dev.kneepoint.analysis;

import java.util.List;
import java.util.Locale;

/**
 * Rows of text cells laid out as aligned columns, as the console tables print them (the steps summary,
 * {@link SummaryText}; a serve sweep's comparison): each column as wide as its widest cell, the first left-aligned,
 * the others right-aligned two spaces after the one before, one line per row.
 *
 * <pre>{@code
 * TextColumns.of(List.of(new String[] {"step", "req/s"}, new String[] {"c1", "12.5"}))
 * // "step  req/s\nc1     12.5\n"
 * }</pre>
 */
public final class TextColumns {
    private TextColumns() {}

    /** {@code rows} (the header first, if any), each row as many cells as the first, each line ending in a newline. */
    public static String of(List<String[]> rows) {
        int[] width = new int[rows.isEmpty() ? 0 : rows.get(0).length];
        for (String[] row : rows) {
            for (int i = 0; i < row.length; i++) {
                width[i] = Math.max(width[i], row[i].length());
            }
        }
        StringBuilder sb = new StringBuilder();
        for (String[] row : rows) {
            for (int i = 0; i < row.length; i++) {
                sb.append(i == 0 ? String.format(Locale.ROOT, "%-" + width[i] + "s", row[i])
                        : String.format(Locale.ROOT, "  %" + width[i] + "s", row[i]));
            }
            sb.append('\n');
        }
        return sb.toString();
    }
}
