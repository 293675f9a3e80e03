package dev.kneepoint.report;

import dev.kneepoint.analysis.KneeReport;
import dev.kneepoint.analysis.Reading;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.math.BigDecimal;
import java.math.MathContext;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Base64;
import java.util.List;
import tech.tablesaw.api.NumberColumn;
import tech.tablesaw.api.Table;
import tech.tablesaw.columns.Column;

/**
 * {@code report.html}: one self-contained page of a run directory, to open offline or attach to a ticket: the answer,
 * the workload and the server, the step table, the search, trial and cost blocks, the charts embedded as data URLs,
 * the readings that apply, and folded below them every reading's evidence, the step metrics and the run's
 * configuration. Nothing is fetched: no script, no stylesheet, no image from elsewhere.
 */
final class ReportHtml {
    /** The file, beside {@code report.txt}. */
    static final String FILE = "report.html";

    private static final String STYLE = "body{font-family:system-ui,-apple-system,'Segoe UI',sans-serif;max-width:"
            + "1100px;margin:1.5em auto;padding:0 1em;color:#1b1b1b;line-height:1.45}pre{background:#f6f6f6;padding:"
            + ".7em;overflow-x:auto;font-size:12.5px;white-space:pre}pre.answer{white-space:pre-wrap;font-size:14px;"
            + "background:#eef5ee}img{max-width:100%;height:auto;border:1px solid #ddd;margin:.4em 0}table{border-"
            + "collapse:collapse;font-size:12px}td,th{border:1px solid #ccc;padding:2px 6px;text-align:right}th{background"
            + ":#f0f0f0}details{margin:.6em 0}summary{cursor:pointer;font-weight:600}.note{color:#555;font-size:13px}";

    private ReportHtml() {}

    /**
     * The page.
     *
     * @param runId    the run
     * @param knee     its analysis (the answer, the readings, the method)
     * @param header   the workload and server lines (may be empty)
     * @param blocks   the text blocks shown as they are in {@code report.txt}: the step table first
     * @param charts   the chart files written into the run directory, embedded in this order
     * @param steps    the step metrics, folded
     * @param config   the manifest's configuration as JSON text, folded (empty: none)
     */
    static String of(String runId, KneeReport knee, String header, List<String> blocks, List<Path> charts, Table steps,
                     String config) {
        StringBuilder b = new StringBuilder("<!DOCTYPE html>\n<html lang=\"en\"><head><meta charset=\"utf-8\">"
                + "<meta name=\"viewport\" content=\"width=device-width, initial-scale=1\"><title>Kneepoint run ")
                .append(esc(runId)).append("</title><style>").append(STYLE).append("</style></head><body>\n");
        b.append("<h1>Kneepoint run ").append(esc(runId)).append("</h1>\n");
        b.append("<pre class=\"answer\">").append(esc(knee.answer().toString().strip())).append("</pre>\n");
        if (!header.isBlank()) {
            b.append("<p class=\"note\">").append(esc(header.strip()).replace("\n", "<br>")).append("</p>\n");
        }
        b.append("<h2>Steps</h2>\n");
        for (String block : blocks) {
            if (!block.isBlank()) {
                b.append("<pre>").append(esc(block.strip())).append("</pre>\n");
            }
        }
        b.append("<h2>Charts</h2>\n");
        for (Path chart : charts) {
            if (Files.isRegularFile(chart)) {
                b.append("<img alt=\"").append(esc(chart.getFileName().toString())).append("\" src=\"data:image/png;base64,")
                        .append(base64(chart)).append("\">\n");
            }
        }
        b.append("<h2>Readings that apply</h2>\n<ul>\n");
        List<Reading> applies = knee.applicableReadings();
        if (applies.isEmpty()) {
            b.append("<li>none</li>\n");
        }
        applies.forEach(r -> b.append("<li><b>").append(esc(r.kind().toString())).append("</b>: ")
                .append(esc(r.finding())).append("</li>\n"));
        b.append("</ul>\n");
        fold(b, "The knee's method and every reading with its evidence", "<pre>" + esc(knee.summary().strip()) + "</pre>");
        fold(b, "Every step metric (steps.csv)", table(steps));
        if (!config.isBlank()) {
            fold(b, "The run's configuration (manifest.json config)", "<pre>" + esc(config.strip()) + "</pre>");
        }
        return b.append("</body></html>\n").toString();
    }

    private static void fold(StringBuilder b, String summary, String body) {
        b.append("<details><summary>").append(esc(summary)).append("</summary>\n").append(body).append("\n</details>\n");
    }

    /** The table as HTML, numbers to four significant digits (steps.csv keeps them whole). */
    private static String table(Table t) {
        StringBuilder b = new StringBuilder("<div style=\"overflow-x:auto\"><table><tr>");
        for (String name : t.columnNames()) {
            b.append("<th>").append(esc(name)).append("</th>");
        }
        b.append("</tr>\n");
        for (int row = 0; row < t.rowCount(); row++) {
            b.append("<tr>");
            for (Column<?> c : t.columns()) {
                b.append("<td>").append(esc(c instanceof NumberColumn<?, ?> n ? num(n.getDouble(row)) : c.getString(row)))
                        .append("</td>");
            }
            b.append("</tr>\n");
        }
        return b.append("</table></div>").toString();
    }

    private static String num(double v) {
        if (Double.isNaN(v)) {
            return "";
        }
        if (v == Math.rint(v) && Math.abs(v) < 1e15) {
            return Long.toString((long) v);
        }
        return new BigDecimal(v).round(new MathContext(4)).stripTrailingZeros().toPlainString();
    }

    private static String base64(Path file) {
        try {
            return Base64.getEncoder().encodeToString(Files.readAllBytes(file));
        } catch (IOException e) {
            throw new UncheckedIOException("cannot read the chart " + file + " for " + FILE, e);
        }
    }

    private static String esc(String s) {
        return s.replace("&", "&amp;").replace("<", "&lt;").replace(">", "&gt;").replace("\"", "&quot;");
    }

    /** Writes the page into {@code dir}. */
    static void write(Path dir, String html) throws IOException {
        Files.writeString(dir.resolve(FILE), html, StandardCharsets.UTF_8);
    }
}
