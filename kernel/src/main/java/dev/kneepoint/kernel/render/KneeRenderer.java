package dev.kneepoint.kernel.render;

import dev.kneepoint.analysis.Answer;
import dev.kneepoint.analysis.KneeReport;
import dev.kneepoint.analysis.Reading;

/**
 * A {@link KneeReport} as a notebook shows it: the plain answer first, its caveats, the steps table with each
 * step's role, the readings that apply; the method and every reading's evidence folded.
 */
public final class KneeRenderer {
    private KneeRenderer() {}

    /** The answer, caveats and summary as plain text. */
    public static String text(KneeReport k) {
        return k.answer() + "\n" + k.summary();
    }

    public static String html(KneeReport k) {
        Answer a = k.answer();
        StringBuilder b = new StringBuilder("<div class=\"kneepoint-knee\">\n<p><b>Knee analysis of ")
                .append(Html.escape(k.runId())).append("</b></p>\n<ul>\n");
        a.sentences().forEach(s -> b.append("<li>").append(Html.escape(s)).append("</li>\n"));
        b.append("</ul>\n");
        if (!a.caveats().isEmpty()) {
            b.append("<p><b>Caveats</b></p>\n<ul>\n");
            a.caveats().forEach(c -> b.append("<li><small>").append(Html.escape(c)).append("</small></li>\n"));
            b.append("</ul>\n");
        }
        b.append(TableRenderer.html(k.steps(), TableRenderer.DEFAULT_MAX_ROWS)).append('\n');
        if (!k.applicableReadings().isEmpty()) {
            b.append("<p><b>Readings that apply</b></p>\n<ul>\n");
            for (Reading r : k.applicableReadings()) {
                b.append("<li>").append(Html.escape(r.finding())).append("</li>\n");
            }
            b.append("</ul>\n");
        }
        b.append("<details><summary>Method and evidence</summary>\n<pre>").append(Html.escape(k.summary()))
                .append("</pre>\n</details>\n</div>");
        return b.toString();
    }
}
