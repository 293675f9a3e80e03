package dev.kneepoint.kernel.render;

import dev.kneepoint.plot.ChartFiles;
import java.nio.charset.StandardCharsets;
import java.util.Base64;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import org.knowm.xchart.internal.chartpart.Chart;

/** XChart charts as PNG (base64, as Jupyter wants it) and SVG. Needs {@code java.awt.headless=true} on servers. */
public final class ChartRenderer {
    private ChartRenderer() {}

    /** PNG bytes of the chart. */
    public static byte[] png(Chart<?, ?> chart) {
        return ChartFiles.png(chart);
    }

    /** PNG of the chart, base64-encoded. */
    public static String pngBase64(Chart<?, ?> chart) {
        return Base64.getEncoder().encodeToString(png(chart));
    }

    /**
     * SVG document of the chart, sized to fit its output area: it scales down to the area's width (a notebook with
     * its file browser open is narrower than a 900 px chart) and never up past the chart's own width.
     */
    public static String svg(Chart<?, ?> chart) {
        return fitted(new String(ChartFiles.svg(chart), StandardCharsets.UTF_8), chart.getWidth());
    }

    /**
     * The root element's fixed {@code width} and {@code height} (in whatever order) replaced by a width that
     * follows the container; its {@code viewBox} keeps the proportions.
     */
    static String fitted(String svg, int widthPx) {
        Matcher root = ROOT.matcher(svg);
        if (!root.find()) {
            return svg;
        }
        String tag = SIZE.matcher(root.group()).replaceAll("");
        tag = tag.substring(0, tag.length() - 1) + " width=\"100%\" style=\"max-width:" + widthPx + "px;height:auto\">";
        return svg.substring(0, root.start()) + tag + svg.substring(root.end());
    }

    private static final Pattern ROOT = Pattern.compile("<svg\\b[^>]*>");
    private static final Pattern SIZE = Pattern.compile("\\s(?:width|height)=\"[^\"]*\"");
}
