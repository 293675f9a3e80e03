package dev.kneepoint.plot;

import java.util.Objects;

/**
 * An extra time series drawn on its own right-hand axis of a {@link TimeSeriesPlot}: the hook for
 * telemetry (GPU utilisation, KV-cache use, host CPU) sampled on the run clock.
 *
 * @param name   series name, e.g. {@code gpu_util}
 * @param unit   axis unit, e.g. {@code %}
 * @param timeS  sample times, seconds on the run clock
 * @param values sample values
 */
public record Overlay(String name, String unit, double[] timeS, double[] values) {
    public Overlay {
        Objects.requireNonNull(name, "name");
        unit = unit == null ? "" : unit;
        timeS = timeS.clone();
        values = values.clone();
        if (timeS.length != values.length) {
            throw new IllegalArgumentException("timeS and values differ in length: " + timeS.length + " vs "
                    + values.length);
        }
    }

    @Override
    public double[] timeS() {
        return timeS.clone();
    }

    @Override
    public double[] values() {
        return values.clone();
    }
}
