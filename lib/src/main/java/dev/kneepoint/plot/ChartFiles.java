package dev.kneepoint.plot;

import java.io.ByteArrayOutputStream;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Locale;
import org.knowm.xchart.BitmapEncoder;
import org.knowm.xchart.VectorGraphicsEncoder;
import org.knowm.xchart.internal.chartpart.Chart;

/** Encoders: any XChart chart to PNG or SVG bytes, or to a file. Works headless. */
public final class ChartFiles {
    private ChartFiles() {}

    /** The chart as PNG bytes. */
    public static byte[] png(Chart<?, ?> chart) {
        ChartStyle.fitLegend(chart);
        try {
            return BitmapEncoder.getBitmapBytes(chart, BitmapEncoder.BitmapFormat.PNG);
        } catch (IOException e) {
            throw new UncheckedIOException("PNG encoding failed", e);
        }
    }

    /** The chart as SVG bytes (UTF-8 XML). */
    public static byte[] svg(Chart<?, ?> chart) {
        ChartStyle.fitLegend(chart);
        ByteArrayOutputStream out = new ByteArrayOutputStream();
        try {
            VectorGraphicsEncoder.saveVectorGraphic(chart, out, VectorGraphicsEncoder.VectorGraphicsFormat.SVG);
        } catch (IOException e) {
            throw new UncheckedIOException("SVG encoding failed", e);
        }
        return out.toByteArray();
    }

    /**
     * Writes the chart to {@code file}, PNG or SVG by its extension ({@code .png}, {@code .svg}), creating
     * parent directories; returns the file.
     *
     * @throws IllegalArgumentException for any other extension
     * @throws UncheckedIOException when writing fails
     */
    public static Path write(Chart<?, ?> chart, Path file) {
        String name = file.getFileName().toString().toLowerCase(Locale.ROOT);
        byte[] bytes;
        if (name.endsWith(".png")) {
            bytes = png(chart);
        } else if (name.endsWith(".svg")) {
            bytes = svg(chart);
        } else {
            throw new IllegalArgumentException("Chart file must end in .png or .svg, got " + file);
        }
        try {
            Path parent = file.toAbsolutePath().getParent();
            if (parent != null) {
                Files.createDirectories(parent);
            }
            return Files.write(file, bytes);
        } catch (IOException e) {
            throw new UncheckedIOException("Cannot write " + file, e);
        }
    }
}
