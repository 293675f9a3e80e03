package dev.kneepoint.plot;

import dev.kneepoint.telemetry.TelemetryData;
import dev.kneepoint.telemetry.TelemetrySample;
import java.util.ArrayList;
import java.util.List;

/**
 * {@link Overlay}s from telemetry, for {@link TimeSeriesPlot#overlay} or {@link Plots#timeSeries(tech.tablesaw.api.Table,
 * TelemetryData, String...)}: a gauge is drawn as sampled, a counter as its rate per second between samples.
 */
public final class TelemetryOverlays {
    private TelemetryOverlays() {}

    /**
     * The overlay of one series key ({@code server:running}, {@code gpu:gpu_util_pct{gpu=0}}, see
     * {@link TelemetrySample#key()}).
     *
     * @throws IllegalArgumentException when the data has no such series (the message lists those it has)
     */
    public static Overlay of(TelemetryData data, String key) {
        List<TelemetrySample> s = data.series(key);
        if (s.isEmpty()) {
            throw new IllegalArgumentException("no telemetry series '" + key + "'; the run has: " + data.keys());
        }
        boolean counter = s.get(0).kind() == TelemetrySample.Kind.COUNTER;
        List<double[]> points = new ArrayList<>();
        for (int i = counter ? 1 : 0; i < s.size(); i++) {
            TelemetrySample x = s.get(i);
            if (!counter) {
                points.add(new double[] {x.timeS(), x.value()});
            } else {
                TelemetrySample p = s.get(i - 1);
                double dt = (x.tNanos() - p.tNanos()) / 1e9;
                double d = x.value() - p.value();
                if (dt > 0 && d >= 0) {
                    points.add(new double[] {x.timeS(), d / dt});
                }
            }
        }
        double[] t = points.stream().mapToDouble(p -> p[0]).toArray();
        double[] v = points.stream().mapToDouble(p -> p[1]).toArray();
        return new Overlay(counter ? key + " /s" : key, unit(s.get(0).name(), counter), t, v);
    }

    /** The unit a series name implies. */
    static String unit(String name, boolean counter) {
        String u;
        if (name.endsWith("_pct")) u = "%";
        else if (name.contains("_bytes")) u = "bytes";
        else if (name.endsWith("_w")) u = "W";
        else if (name.endsWith("_c")) u = "°C";
        else if (name.endsWith("_mhz")) u = "MHz";
        else if (name.equals("kv_cache_usage")) u = "fraction";
        else if (name.equals("running") || name.equals("waiting")) u = "requests";
        else if (name.endsWith("_cores")) u = "cores";
        else u = "";
        return counter ? (u.isEmpty() ? "per s" : u + "/s") : u;
    }
}
