package dev.kneepoint.telemetry;

import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.TreeSet;

/**
 * The telemetry of a run, as read by {@link TelemetryLoader} (or gathered in memory).
 *
 * @param samples  every sample, in file order (per source, in time order)
 * @param statuses every status line: started, absent, unavailable, first error of each kind, stopped
 * @param problems unreadable lines of the file, as {@code "line N: reason"} (a truncated last line after a crash is one)
 */
public record TelemetryData(List<TelemetrySample> samples, List<TelemetryStatus> statuses, List<String> problems) {
    public TelemetryData {
        samples = List.copyOf(samples);
        statuses = List.copyOf(statuses);
        problems = List.copyOf(problems);
    }

    /** No telemetry (a run without {@code telemetry.jsonl}). */
    public static TelemetryData empty() {
        return new TelemetryData(List.of(), List.of(), List.of());
    }

    public boolean isEmpty() {
        return samples.isEmpty() && statuses.isEmpty();
    }

    /** The series keys ({@link TelemetrySample#key()}), sorted. */
    public List<String> keys() {
        TreeSet<String> k = new TreeSet<>();
        samples.forEach(s -> k.add(s.key()));
        return List.copyOf(k);
    }

    /** Samples of one series key, in time order. */
    public List<TelemetrySample> series(String key) {
        List<TelemetrySample> out = new ArrayList<>();
        for (TelemetrySample s : samples) {
            if (s.key().equals(key)) {
                out.add(s);
            }
        }
        out.sort(java.util.Comparator.comparingLong(TelemetrySample::tNanos));
        return out;
    }

    /** Samples grouped by series key (sorted keys; each list in time order). */
    public Map<String, List<TelemetrySample>> bySeries() {
        Map<String, List<TelemetrySample>> m = new java.util.TreeMap<>();
        for (TelemetrySample s : samples) {
            m.computeIfAbsent(s.key(), k -> new ArrayList<>()).add(s);
        }
        m.values().forEach(l -> l.sort(java.util.Comparator.comparingLong(TelemetrySample::tNanos)));
        return m;
    }

    /** The latest status of each source ({@code server}, {@code host}, {@code gpu}), in order of appearance. */
    public Map<String, TelemetryStatus> lastStatus() {
        Map<String, TelemetryStatus> m = new LinkedHashMap<>();
        statuses.forEach(s -> m.put(s.source(), s));
        return m;
    }

    /** The first status of a source with this status word ({@code absent}, {@code unavailable}, {@code error}). */
    public Optional<TelemetryStatus> status(String source, String status) {
        return statuses.stream().filter(s -> s.source().equals(source) && s.status().equals(status)).findFirst();
    }
}
