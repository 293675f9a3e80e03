package dev.kneepoint.io;

import com.fasterxml.jackson.core.JsonGenerator;
import com.fasterxml.jackson.databind.JsonNode;
import dev.kneepoint.metrics.RequestRecord;
import java.io.IOException;
import java.util.Map;
import java.util.TreeMap;
import java.util.stream.IntStream;
import java.util.stream.Stream;

/**
 * The {@code requests.jsonl} line format (format version 1): one compact JSON object per request, its snake_case
 * fields those of the package's field table ({@code RequestField}), in its order: the fields every line has
 * ({@code id}, {@code step}, ...), those written only when set, then those derived for convenience ({@code ttft_ms},
 * ...; {@code null} when undefined), which are ignored when read back. docs/METRICS.md describes each field.
 *
 * <p>Timestamps are nanoseconds on the run clock (relative to the run start), -1 when absent.
 */
public final class RequestJson {
    private RequestJson() {}

    /** Writes one record as a JSON object (no line separator). */
    public static void write(JsonGenerator g, RequestRecord r) throws IOException {
        g.writeStartObject();
        for (RequestField f : RequestField.ALL) {
            String name = f.json();
            switch (f.kind()) {
                case LONG -> {
                    long v = f.longOf(r);
                    if (v >= 0 || !f.whenSet()) {
                        g.writeNumberField(name, v);
                    }
                }
                case INT -> g.writeNumberField(name, f.intOf(r));
                case FLAG -> {
                    boolean v = f.flagOf(r);
                    if (v || !f.whenSet()) {
                        g.writeBooleanField(name, v);
                    }
                }
                case TEXT -> {
                    String v = f.textOf(r);
                    if (v != null || !f.whenSet()) {
                        g.writeStringField(name, v);
                    }
                }
                case LONGS -> {
                    long[] v = f.longsOf(r);
                    g.writeFieldName(name);
                    g.writeArray(v, 0, v.length);
                }
                case INTS -> {
                    int[] v = f.intsOf(r);
                    g.writeFieldName(name);
                    g.writeArray(v, 0, v.length);
                }
                case TIMINGS -> {
                    g.writeObjectFieldStart(name);
                    for (Map.Entry<String, Double> e : new TreeMap<>(f.timingsOf(r)).entrySet()) {
                        Json.number(g, e.getKey(), e.getValue());
                    }
                    g.writeEndObject();
                }
                case MILLIS -> Json.millis(g, name, f.longOf(r));
                case DECIMAL -> Json.number(g, name, f.decimalOf(r));
            }
        }
        g.writeEndObject();
    }

    /**
     * Reads one record back from its JSON object.
     *
     * @throws IllegalArgumentException naming the first missing or invalid field
     */
    public static RequestRecord read(JsonNode n) {
        RequestDraft d = new RequestDraft();
        for (RequestField f : RequestField.STORED) {
            String name = f.json();
            switch (f.kind()) {
                case LONG -> f.putLong(d, f.required() ? required(n, f).asLong() : n.path(name).asLong(f.absentLong()));
                case INT -> f.putInt(d, n.path(name).asInt(f.absentInt()));
                case FLAG -> f.putFlag(d, n.path(name).asBoolean(f.absentFlag()));
                case TEXT -> f.putText(d, f.required() ? required(n, f).asText()
                        : f.nullable() ? Json.textOrNull(n, name) : n.path(name).asText(f.absentText()));
                case LONGS -> f.putLongs(d, elements(n.path(name)).mapToLong(e -> e.asLong()).toArray());
                case INTS -> f.putInts(d, elements(n.path(name)).mapToInt(e -> e.asInt()).toArray());
                case TIMINGS -> {
                    Map<String, Double> timings = new TreeMap<>();
                    for (Map.Entry<String, JsonNode> e : n.path(name).properties()) {
                        timings.put(e.getKey(), e.getValue().isNull() ? Double.NaN : e.getValue().asDouble());
                    }
                    f.putTimings(d, timings);
                }
                case MILLIS, DECIMAL -> { } // derived: not among the stored fields
            }
        }
        return d.build();
    }

    /** The elements of the array {@code a}, by index; none when it is not a container. */
    private static Stream<JsonNode> elements(JsonNode a) {
        return IntStream.range(0, a.size()).mapToObj(a::get);
    }

    private static JsonNode required(JsonNode n, RequestField f) {
        JsonNode v = n.get(f.json());
        if (v == null || v.isNull()) {
            throw f.missing();
        }
        return v;
    }
}
