package dev.kneepoint.kernel.render;

import java.util.List;
import java.util.Locale;

/** Small HTML helpers for the renderers: escaping, Locale.ROOT numbers, tables. */
public final class Html {
    private Html() {}

    /** Escapes text for HTML element content and attribute values. */
    public static String escape(String s) {
        StringBuilder b = new StringBuilder(s.length() + 16);
        for (int i = 0; i < s.length(); i++) {
            char c = s.charAt(i);
            switch (c) {
                case '<' -> b.append("&lt;");
                case '>' -> b.append("&gt;");
                case '&' -> b.append("&amp;");
                case '"' -> b.append("&quot;");
                case '\'' -> b.append("&#39;");
                default -> b.append(c);
            }
        }
        return b.toString();
    }

    /** A number with about four significant digits, "–" for NaN. */
    public static String num(double v) {
        if (Double.isNaN(v)) {
            return "–";
        }
        double a = Math.abs(v);
        if (a >= 1000 || a == 0 || v == Math.rint(v) && a < 1e15) {
            return String.format(Locale.ROOT, a >= 1000 && v != Math.rint(v) ? "%.1f" : "%.0f", v);
        }
        if (a >= 100) {
            return String.format(Locale.ROOT, "%.1f", v);
        }
        if (a >= 10) {
            return String.format(Locale.ROOT, "%.2f", v);
        }
        return String.format(Locale.ROOT, "%.3f", v);
    }

    /** A table with a header row; cells are escaped. */
    public static String table(List<String> header, List<List<String>> rows) {
        StringBuilder b = new StringBuilder("<table class=\"kneepoint\">\n<thead><tr>");
        for (String h : header) {
            b.append("<th>").append(escape(h)).append("</th>");
        }
        b.append("</tr></thead>\n<tbody>\n");
        for (List<String> row : rows) {
            b.append("<tr>");
            for (String cell : row) {
                b.append("<td>").append(escape(cell)).append("</td>");
            }
            b.append("</tr>\n");
        }
        return b.append("</tbody>\n</table>").toString();
    }

    /** A paragraph of small, escaped text. */
    public static String note(String text) {
        return "<p><small>" + escape(text) + "</small></p>";
    }
}
