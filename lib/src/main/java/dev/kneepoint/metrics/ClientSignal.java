package dev.kneepoint.metrics;

import java.util.Locale;

/**
 * One client-health signal of a {@link ClientCheck}: its value, its limit and whether it crossed it.
 *
 * @param name    {@code schedule_lag_p99_ms}, {@code client_cpu_pct}, {@code gc_pause_pct} or {@code probe_delay_p99_ms}
 * @param value   the measured value (NaN when not measured)
 * @param limit   the limit it is judged against (+infinity when the signal is off)
 * @param crossed true when {@code value > limit}
 */
public record ClientSignal(String name, double value, double limit, boolean crossed) {

    /** A signal, crossed when {@code value > limit} (never when the value is NaN). */
    public static ClientSignal of(String name, double value, double limit) {
        return new ClientSignal(name, value, limit, value > limit);
    }

    /** E.g. {@code schedule_lag_p99_ms 12.300 > 5.000}. */
    public String describe() {
        return name + " " + num(value) + (crossed ? " > " : " <= ") + num(limit);
    }

    private static String num(double v) {
        if (Double.isNaN(v)) {
            return "-";
        }
        return v == Double.POSITIVE_INFINITY ? "off" : String.format(Locale.ROOT, "%.3f", v);
    }
}
