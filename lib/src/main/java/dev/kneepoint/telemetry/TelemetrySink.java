package dev.kneepoint.telemetry;

import dev.kneepoint.metrics.RunClock;
import java.util.ArrayList;
import java.util.Collections;
import java.util.Comparator;
import java.util.HashSet;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.TreeMap;
import java.util.function.Consumer;

/**
 * Where samplers put what they read: to {@code telemetry.jsonl} when a log is given, else into memory.
 * Records the first error of each (source, kind) as a status and only counts the later ones. After
 * {@link #close()} everything handed in is dropped (a late HTTP callback). Thread-safe.
 */
final class TelemetrySink {
    private final RunClock clock;
    private final TelemetryLog log;
    private final List<TelemetrySample> memory = new ArrayList<>();
    private final List<TelemetryStatus> memoryStatuses = new ArrayList<>();
    /** Where samples and statuses go: the log, or else memory. */
    private final Consumer<List<TelemetrySample>> samplesOut;
    private final Consumer<TelemetryStatus> statusOut;
    private final Set<String> seenErrors = new HashSet<>();
    private final Map<String, Long> errors = new LinkedHashMap<>();
    private final Map<String, Long> samples = new LinkedHashMap<>();
    /** GPU index to name ("" until a source names it), in index order: numeric indexes by value. */
    private final Map<String, String> gpus = new TreeMap<>(
            Comparator.comparingInt(String::length).thenComparing(Comparator.naturalOrder()));
    private boolean closed;

    TelemetrySink(RunClock clock, TelemetryLog log) {
        this.clock = clock;
        this.log = log;
        this.samplesOut = log != null ? log::write : memory::addAll;
        this.statusOut = log != null ? log::write : memoryStatuses::add;
    }

    RunClock clock() {
        return clock;
    }

    synchronized void samples(String source, List<TelemetrySample> batch) {
        if (closed || batch.isEmpty()) {
            return;
        }
        samples.merge(source, (long) batch.size(), Long::sum);
        samplesOut.accept(batch);
    }

    synchronized void status(String source, String status, String reason) {
        if (closed) {
            return;
        }
        statusOut.accept(new TelemetryStatus(clock.now(), source, status, reason));
    }

    /** Counts an error; the first of its kind for this source is written as status {@code error}. */
    synchronized void error(String source, String kind, String message) {
        if (closed) {
            return;
        }
        errors.merge(source, 1L, Long::sum);
        if (seenErrors.add(source + "/" + kind)) {
            status(source, "error", kind + ": " + message);
        }
    }

    /** A GPU a source read (index, and its name or ""): the first name given for an index is kept. */
    synchronized void gpu(String index, String name) {
        if (!closed) {
            gpus.merge(index, name, (a, b) -> a.isEmpty() ? b : a);
        }
    }

    /** The GPUs read so far, index to name ("" when unnamed), in index order. */
    synchronized Map<String, String> gpus() {
        return Collections.unmodifiableMap(new LinkedHashMap<>(gpus));
    }

    synchronized long errorCount(String source) {
        return errors.getOrDefault(source, 0L);
    }

    synchronized long sampleCount(String source) {
        return samples.getOrDefault(source, 0L);
    }

    synchronized void flush() {
        if (log != null && !closed) {
            log.flush();
        }
    }

    /** What was gathered in memory (empty when writing to a file). */
    synchronized TelemetryData memory() {
        return new TelemetryData(memory, memoryStatuses, List.of());
    }

    synchronized void close() {
        closed = true;
        if (log != null) {
            log.close();
        }
    }
}
