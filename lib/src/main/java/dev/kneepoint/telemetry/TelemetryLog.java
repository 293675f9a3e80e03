package dev.kneepoint.telemetry;

import com.fasterxml.jackson.core.JsonFactory;
import com.fasterxml.jackson.core.JsonGenerator;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.file.Path;
import java.util.List;
import java.util.Map;

/**
 * Writes {@code telemetry.jsonl}: a first line {@code {"telemetry_format_version":1}}, then one line per
 * sample, {@code {"t_ns":..,"src":"server","name":"running","kind":"gauge","value":3.0,"labels":{..},"raw":".."}}
 * ({@code labels} and {@code raw} left out when empty; a non-finite value is written as the string
 * {@code "NaN"}, {@code "+Inf"} or {@code "-Inf"}), and one per status,
 * {@code {"t_ns":..,"src":"gpu","status":"absent","reason":".."}}. Writes go to a buffer; {@link #flush()}
 * (called by the recorder at least every 200 ms) hands them to the operating system. Thread-safe; the first
 * write error stops writing and is kept in {@link #failure()}.
 */
final class TelemetryLog implements AutoCloseable {
    /** Version of the file format. */
    static final int FORMAT_VERSION = 1;
    private static final JsonFactory JSON = new JsonFactory();

    private final JsonLinesFile file;
    private long samples;

    TelemetryLog(Path file) {
        try {
            this.file = new JsonLinesFile(file, JSON);
        } catch (IOException e) {
            throw new UncheckedIOException("Cannot create " + file + ": " + e.getMessage(), e);
        }
        if (!this.file.line(FORMAT_VERSION, TelemetryLog::writeHeader)) {
            IOException e = this.file.failure();
            throw new UncheckedIOException("Cannot create " + file + ": " + e.getMessage(), e);
        }
    }

    synchronized void write(List<TelemetrySample> batch) {
        for (TelemetrySample s : batch) {
            if (!file.line(s, TelemetryLog::writeSample)) {
                return;
            }
            samples++;
        }
    }

    synchronized void write(TelemetryStatus s) {
        file.line(s, TelemetryLog::writeStatus);
    }

    private static void writeHeader(JsonGenerator g, int version) throws IOException {
        g.writeStartObject();
        g.writeNumberField("telemetry_format_version", version);
        g.writeEndObject();
    }

    private static void writeSample(JsonGenerator g, TelemetrySample s) throws IOException {
        begin(g, s.tNanos(), s.source());
        g.writeStringField("name", s.name());
        g.writeStringField("kind", s.kind() == TelemetrySample.Kind.COUNTER ? "counter" : "gauge");
        double v = s.value();
        if (Double.isFinite(v)) {
            g.writeNumberField("value", v);
        } else {
            g.writeStringField("value", Double.isNaN(v) ? "NaN" : v > 0 ? "+Inf" : "-Inf");
        }
        if (!s.labels().isEmpty()) {
            g.writeObjectFieldStart("labels");
            for (Map.Entry<String, String> e : s.labels().entrySet()) {
                g.writeStringField(e.getKey(), e.getValue());
            }
            g.writeEndObject();
        }
        if (!s.raw().isEmpty()) {
            g.writeStringField("raw", s.raw());
        }
        g.writeEndObject();
    }

    private static void writeStatus(JsonGenerator g, TelemetryStatus s) throws IOException {
        begin(g, s.tNanos(), s.source());
        g.writeStringField("status", s.status());
        g.writeStringField("reason", s.reason());
        g.writeEndObject();
    }

    /** Opens one line's object with the fields every line has: {@code t_ns} and {@code src}. */
    private static void begin(JsonGenerator g, long tNanos, String source) throws IOException {
        g.writeStartObject();
        g.writeNumberField("t_ns", tNanos);
        g.writeStringField("src", source);
    }

    synchronized void flush() {
        file.flush();
    }

    synchronized long samples() {
        return samples;
    }

    synchronized IOException failure() {
        return file.failure();
    }

    @Override
    public synchronized void close() {
        file.close();
    }
}
