package dev.kneepoint.telemetry;

import java.util.Collections;
import java.util.Map;
import java.util.Objects;
import java.util.Set;
import java.util.TreeMap;
import java.util.stream.Collectors;

/**
 * One telemetry value, timestamped on the run's clock (the same {@link dev.kneepoint.metrics.RunClock}
 * as the request records), as written to {@code telemetry.jsonl}.
 *
 * @param tNanos nanoseconds since the run started (run clock)
 * @param source {@code server}, {@code host} or {@code gpu}
 * @param name   the common name ({@code running}, {@code kv_cache_usage}, {@code cpu_util_pct}, ...), or the
 *               server's own name for metrics without a common one
 * @param labels the series' labels, sorted by name ({@code gpu=0}, {@code le=0.5}, ...)
 * @param kind   gauge (a level) or counter (cumulative: compare two samples for a rate)
 * @param value  the value; never a stand-in zero for a missing reading (a missing reading has no sample)
 * @param raw    the server's own series name when {@code name} is a common one, else empty
 */
public record TelemetrySample(long tNanos, String source, String name, Map<String, String> labels, Kind kind,
                              double value, String raw) {
    /** Labels that name the deployment rather than a series; left out of {@link #key()}. */
    public static final Set<String> IDENTITY_LABELS = Set.of("model_name", "model", "job", "instance", "model_id");

    /** Whether a value is a level or a running total. */
    public enum Kind { GAUGE, COUNTER }

    public TelemetrySample {
        Objects.requireNonNull(source, "source");
        Objects.requireNonNull(name, "name");
        Objects.requireNonNull(kind, "kind");
        labels = labels == null || labels.isEmpty() ? Map.of() : Collections.unmodifiableMap(new TreeMap<>(labels));
        raw = raw == null ? "" : raw;
    }

    /** A sample without a raw name. */
    public static TelemetrySample of(long tNanos, String source, String name, Map<String, String> labels, Kind kind,
                                     double value) {
        return new TelemetrySample(tNanos, source, name, labels, kind, value, "");
    }

    /** Seconds on the run clock. */
    public double timeS() {
        return tNanos / 1e9;
    }

    /**
     * The series key: {@code source:name}, followed by {@code {k=v,...}} for labels other than the
     * {@link #IDENTITY_LABELS}, e.g. {@code server:running}, {@code gpu:gpu_util_pct{gpu=0}}.
     */
    public String key() {
        String l = labels.entrySet().stream().filter(e -> !IDENTITY_LABELS.contains(e.getKey()))
                .map(e -> e.getKey() + "=" + e.getValue()).collect(Collectors.joining(","));
        return source + ":" + name + (l.isEmpty() ? "" : "{" + l + "}");
    }
}
