package dev.kneepoint.kernel.render;

import java.io.ByteArrayOutputStream;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.charset.StandardCharsets;
import java.util.Base64;
import org.knowm.xchart.BitmapEncoder;
import org.knowm.xchart.VectorGraphicsEncoder;
import org.knowm.xchart.internal.chartpart.Chart;

/** XChart charts as PNG (base64, as Jupyter wants it) and SVG. Needs {@code java.awt.headless=true} on servers. */
public final class ChartRenderer {
    private ChartRenderer() {}

    /** PNG bytes of the chart. */
    public static byte[] png(Chart<?, ?> chart) {
        try {
            return BitmapEncoder.getBitmapBytes(chart, BitmapEncoder.BitmapFormat.PNG);
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
    }

    /** PNG of the chart, base64-encoded. */
    public static String pngBase64(Chart<?, ?> chart) {
        return Base64.getEncoder().encodeToString(png(chart));
    }

    /** SVG document of the chart. */
    public static String svg(Chart<?, ?> chart) {
        ByteArrayOutputStream out = new ByteArrayOutputStream();
        try {
            VectorGraphicsEncoder.saveVectorGraphic(chart, out, VectorGraphicsEncoder.VectorGraphicsFormat.SVG);
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
        return out.toString(StandardCharsets.UTF_8);
    }
}
