package dev.kneepoint.telemetry;

import com.fasterxml.jackson.core.JsonFactory;
import com.fasterxml.jackson.core.JsonGenerator;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardOpenOption;

/**
 * A JSON-lines file appended to through one buffered generator, which keeps its first write error: after it, nothing
 * more is attempted, and {@link #failure()} tells it. Writes {@code telemetry.jsonl} here and {@code requests.jsonl}
 * (in {@code io}). Not thread-safe: one writer at a time (the failure may be read from any thread).
 */
public final class JsonLinesFile implements AutoCloseable {
    /** Writes one value as one JSON value (no line separator). */
    @FunctionalInterface
    public interface Writer<T> {
        void write(JsonGenerator g, T value) throws IOException;
    }

    private final JsonGenerator generator;
    private volatile IOException failure;

    /** Opens {@code file} for appending (created if missing), its generator made by {@code factory}. */
    public JsonLinesFile(Path file, JsonFactory factory) throws IOException {
        this.generator = factory.createGenerator(
                Files.newBufferedWriter(file, StandardOpenOption.CREATE, StandardOpenOption.APPEND));
    }

    /**
     * Writes {@code value} by {@code writer}, then a newline, into the buffer, unless a write failed before.
     *
     * @return whether the line was written; false after a failure, which this write may have been
     */
    public <T> boolean line(T value, Writer<? super T> writer) {
        if (failure != null) {
            return false;
        }
        try {
            writer.write(generator, value);
            generator.writeRaw('\n');
            return true;
        } catch (IOException e) {
            failure = e;
            return false;
        }
    }

    /** Hands the buffer to the operating system, unless a write failed before. */
    public void flush() {
        if (failure != null) {
            return;
        }
        try {
            generator.flush();
        } catch (IOException e) {
            failure = e;
        }
    }

    /** The first write error, or null. */
    public IOException failure() {
        return failure;
    }

    /** Flushes and closes the file; an error in doing so is kept as the failure when there was none. */
    @Override
    public void close() {
        try {
            generator.close();
        } catch (IOException e) {
            if (failure == null) {
                failure = e;
            }
        }
    }
}
