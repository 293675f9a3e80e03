package dev.kneepoint.kernel.render;

import java.util.ArrayList;
import java.util.List;
import java.util.Locale;
import tech.tablesaw.api.DoubleColumn;
import tech.tablesaw.api.FloatColumn;
import tech.tablesaw.api.Table;

/**
 * Tablesaw tables as HTML (first {@code maxRows} rows, with a note saying how many were left out, decimals rounded
 * for reading) and text.
 */
public final class TableRenderer {
    /** Rows shown by default: enough to read a ladder, short enough to scroll past. */
    public static final int DEFAULT_MAX_ROWS = 50;

    private TableRenderer() {}

    /** The table as an HTML fragment. */
    public static String html(Table t, int maxRows) {
        int shown = Math.min(t.rowCount(), maxRows);
        List<String> header = t.columnNames();
        List<List<String>> rows = new ArrayList<>(shown);
        for (int r = 0; r < shown; r++) {
            List<String> row = new ArrayList<>(header.size());
            for (int c = 0; c < t.columnCount(); c++) {
                row.add(cell(t, r, c));
            }
            rows.add(row);
        }
        StringBuilder b = new StringBuilder();
        if (t.name() != null && !t.name().isBlank()) {
            b.append("<p><b>").append(Html.escape(t.name())).append("</b></p>\n");
        }
        b.append(Html.table(header, rows));
        if (shown < t.rowCount()) {
            b.append('\n').append(Html.note(String.format(Locale.ROOT, "Showing %d of %d rows × %d columns.",
                    shown, t.rowCount(), t.columnCount())));
        } else {
            b.append('\n').append(Html.note(String.format(Locale.ROOT, "%d rows × %d columns.",
                    t.rowCount(), t.columnCount())));
        }
        return b.toString();
    }

    /**
     * A cell as a person reads it: decimals with about four significant digits ({@link Html#num}: 0.9955 reads
     * 0.996, 160.653 reads 160.7); the table itself, its CSV and summary.json keep full precision.
     */
    static String cell(Table t, int r, int c) {
        if (t.column(c) instanceof DoubleColumn d && !d.isMissing(r)) {
            return Html.num(d.getDouble(r));
        }
        if (t.column(c) instanceof FloatColumn f && !f.isMissing(r)) {
            return Html.num(f.getFloat(r));
        }
        return t.getString(r, c);
    }

    /** The table as fixed-width text, capped like the HTML. */
    public static String text(Table t, int maxRows) {
        String s = t.print(maxRows);
        return t.rowCount() > maxRows
                ? s + String.format(Locale.ROOT, "%n(showing %d of %d rows)", maxRows, t.rowCount())
                : s;
    }
}
