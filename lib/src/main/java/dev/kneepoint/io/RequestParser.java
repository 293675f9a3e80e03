package dev.kneepoint.io;

import com.fasterxml.jackson.core.JsonFactory;
import com.fasterxml.jackson.core.JsonParser;
import com.fasterxml.jackson.core.JsonToken;
import dev.kneepoint.metrics.RequestRecord;
import java.io.IOException;
import java.util.Arrays;
import java.util.Map;
import java.util.TreeMap;

/**
 * Reads one {@code requests.jsonl} line with Jackson's streaming parser, straight into a {@link RequestRecord}
 * (no tree), by the fields of {@link RequestField} in any order: unknown and derived fields skipped, a line without
 * a required field rejected naming the first one. Reuses scratch arrays, so an instance is not thread-safe.
 */
final class RequestParser {
    private final JsonFactory factory = Json.MAPPER.getFactory();
    private final CanonicalRequestParser canonical = new CanonicalRequestParser();
    private final NumberScratch numbers = new NumberScratch();
    /** Per field (by ordinal): the text read, set once the whole object is read; whether it was given. */
    private final String[] texts = new String[RequestField.ALL.length];
    private final boolean[] given = new boolean[RequestField.ALL.length];

    /**
     * Parses the UTF-8 JSON object in {@code buf[off, off+len)}: by the canonical fast path when the line is
     * exactly as written by {@link RequestJson#write}, else by Jackson.
     */
    RequestRecord parse(byte[] buf, int off, int len) throws IOException {
        RequestRecord fast = canonical.parse(buf, off, len);
        return fast != null ? fast : parseGeneral(buf, off, len);
    }

    /** Parses the line with Jackson's streaming parser (any field order, whitespace, escapes). */
    RequestRecord parseGeneral(byte[] buf, int off, int len) throws IOException {
        try (JsonParser p = factory.createParser(buf, off, len)) {
            if (p.nextToken() != JsonToken.START_OBJECT) {
                throw new IllegalArgumentException("not a JSON object");
            }
            return read(p);
        }
    }

    /** Reads the fields of the object whose START_OBJECT {@code p} is on, through its END_OBJECT. */
    RequestRecord read(JsonParser p) throws IOException {
        RequestDraft d = new RequestDraft();
        String[] texts = this.texts;
        boolean[] given = this.given;
        Arrays.fill(texts, null);
        Arrays.fill(given, false);
        for (String name; (name = p.nextFieldName()) != null; ) {
            JsonToken t = p.nextToken();
            RequestField f = RequestField.named(name);
            if (f == null) {
                p.skipChildren(); // unknown additions
                continue;
            }
            int i = f.ordinal();
            switch (f.kind()) {
                case LONG -> {
                    if (f.required()) {
                        given[i] = t != JsonToken.VALUE_NULL;
                        f.putLong(d, p.getValueAsLong());
                    } else {
                        f.putLong(d, p.getValueAsLong(f.absentLong()));
                    }
                }
                case INT -> f.putInt(d, p.getValueAsInt(f.absentInt()));
                case FLAG -> f.putFlag(d, p.getValueAsBoolean(f.absentFlag()));
                case TEXT -> { // put once the object is read: a text may fail to parse (token source, outcome)
                    texts[i] = f.required() || f.nullable() ? (t == JsonToken.VALUE_NULL ? null : p.getValueAsString())
                            : p.getValueAsString(f.absentText());
                    given[i] = texts[i] != null;
                }
                case LONGS -> f.putLongs(d, numbers(p, t, false).longs());
                case INTS -> f.putInts(d, numbers(p, t, true).ints());
                case TIMINGS -> f.putTimings(d, timings(p, t));
                case MILLIS, DECIMAL -> p.skipChildren(); // derived fields
            }
        }
        for (RequestField f : RequestField.REQUIRED_FIELDS) {
            if (!given[f.ordinal()]) {
                throw f.missing();
            }
        }
        for (RequestField f : RequestField.TEXTS) {
            String v = texts[f.ordinal()];
            if (v != null) {
                f.putText(d, v);
            }
        }
        return d.build();
    }

    /**
     * The array {@code t} opens, read into the scratch: each element as Jackson converts it to a long (to an int when
     * {@code ints}); none for a value that is not an array.
     */
    private NumberScratch numbers(JsonParser p, JsonToken t, boolean ints) throws IOException {
        NumberScratch out = numbers;
        out.clear();
        if (t != JsonToken.START_ARRAY) {
            p.skipChildren();
            return out;
        }
        for (JsonToken e; (e = p.nextToken()) != JsonToken.END_ARRAY; ) {
            boolean whole = e == JsonToken.VALUE_NUMBER_INT;
            out.add(ints ? (whole ? p.getIntValue() : p.getValueAsInt()) : whole ? p.getLongValue() : p.getValueAsLong());
            p.skipChildren();
        }
        return out;
    }

    private static Map<String, Double> timings(JsonParser p, JsonToken t) throws IOException {
        if (t != JsonToken.START_OBJECT) {
            p.skipChildren();
            return Map.of();
        }
        Map<String, Double> m = null;
        for (String name; (name = p.nextFieldName()) != null; ) {
            JsonToken v = p.nextToken();
            if (m == null) {
                m = new TreeMap<>();
            }
            m.put(name, v == JsonToken.VALUE_NULL ? Double.NaN : p.getValueAsDouble());
            p.skipChildren();
        }
        return m == null ? Map.of() : m;
    }
}
