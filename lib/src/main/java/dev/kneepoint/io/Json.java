package dev.kneepoint.io;

import com.fasterxml.jackson.core.JsonGenerator;
import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.io.Writer;
import java.math.BigDecimal;
import java.math.RoundingMode;
import java.nio.file.AtomicMoveNotSupportedException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardCopyOption;
import java.util.List;

/** Shared JSON plumbing of the run directory: one mapper, deterministic numbers, atomic file replacement. */
final class Json {
    static final ObjectMapper MAPPER = new ObjectMapper();

    private Json() {}

    /**
     * Writes {@code v} deterministically: NaN and infinities as {@code null}, otherwise rounded to 6 decimal
     * places (nanosecond resolution for milliseconds), without exponent or trailing zeros.
     */
    static void number(JsonGenerator g, double v) throws IOException {
        if (!Double.isFinite(v)) {
            g.writeNull();
        } else {
            g.writeNumber(BigDecimal.valueOf(v).setScale(6, RoundingMode.HALF_EVEN).stripTrailingZeros().toPlainString());
        }
    }

    static void number(JsonGenerator g, String name, double v) throws IOException {
        g.writeFieldName(name);
        number(g, v);
    }

    /** The array field {@code name} of {@code values}, in their order. */
    static void strings(JsonGenerator g, String name, List<String> values) throws IOException {
        g.writeArrayFieldStart(name);
        for (String v : values) {
            g.writeString(v);
        }
        g.writeEndArray();
    }

    /** Milliseconds from nanoseconds, or null when the duration is absent (negative). */
    static void millis(JsonGenerator g, String name, long nanos) throws IOException {
        g.writeFieldName(name);
        if (nanos < 0) {
            g.writeNull();
        } else {
            number(g, nanos / 1e6);
        }
    }

    static double doubleOrNaN(JsonNode n, String field) {
        JsonNode v = n.get(field);
        return v == null || v.isNull() ? Double.NaN : v.asDouble();
    }

    static String textOrNull(JsonNode n, String field) {
        JsonNode v = n.get(field);
        return v == null || v.isNull() ? null : v.asText();
    }

    /** A body that writes through a generator. */
    @FunctionalInterface
    interface Body {
        void write(JsonGenerator g) throws IOException;
    }

    /** Writes {@code file} as pretty JSON through a temporary sibling and an atomic move, so readers never see half a file. */
    static void writeAtomically(Path file, Body body) {
        Path tmp = file.resolveSibling(file.getFileName() + ".tmp");
        try {
            try (Writer w = Files.newBufferedWriter(tmp);
                 JsonGenerator g = MAPPER.getFactory().createGenerator(w)) {
                g.useDefaultPrettyPrinter();
                body.write(g);
                g.writeRaw('\n');
            }
            try {
                Files.move(tmp, file, StandardCopyOption.ATOMIC_MOVE, StandardCopyOption.REPLACE_EXISTING);
            } catch (AtomicMoveNotSupportedException e) {
                Files.move(tmp, file, StandardCopyOption.REPLACE_EXISTING);
            }
        } catch (IOException e) {
            throw new UncheckedIOException("Cannot write " + file + ": " + e.getMessage(), e);
        }
    }
}
