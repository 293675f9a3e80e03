package dev.kneepoint.io;

import com.fasterxml.jackson.core.JsonGenerator;
import com.fasterxml.jackson.databind.JsonNode;
import dev.kneepoint.metrics.ClientCheck;
import dev.kneepoint.metrics.ClientHealth;
import dev.kneepoint.metrics.ClientSignal;
import dev.kneepoint.metrics.ClientThresholds;
import dev.kneepoint.metrics.Slo;
import dev.kneepoint.metrics.StepInfo;
import dev.kneepoint.metrics.StepWindow;
import java.io.IOException;
import java.util.List;
import java.util.Locale;
import java.util.function.ToDoubleFunction;
import java.util.function.ToLongFunction;

/**
 * JSON forms of {@link StepInfo}, {@link StepWindow}, {@link Slo} and the client self-check ({@link ClientHealth},
 * {@link ClientThresholds}, {@link ClientCheck}), shared by steps.jsonl, summary.json and the manifest.
 */
final class StepJson {
    private StepJson() {}

    /** A number field of a JSON object: its name, how it is read off the value, what a missing one reads as. */
    private record LongField<T>(String name, ToLongFunction<T> value, long missing) {}

    /** A double field of a JSON object: its name and how it is read off the value. */
    private record DoubleField<T>(String name, ToDoubleFunction<T> value) {}

    /** A {@link StepInfo}'s bounds, its last three components: warm-up, duration (-1: none), request cap (-1: none). */
    private static final List<LongField<StepInfo>> BOUNDS = List.of(
            new LongField<>("warmup_ns", StepInfo::warmupNanos, 0),
            new LongField<>("duration_ns", StepInfo::durationNanos, -1),
            new LongField<>("max_requests", StepInfo::maxRequests, -1));

    /** {@link StepWindow}'s times in the order of its components (then {@code completed}). */
    private static final List<LongField<StepWindow>> WINDOW = List.of(
            new LongField<>("step_start_ns", StepWindow::stepStartNanos, 0),
            new LongField<>("start_ns", StepWindow::startNanos, 0),
            new LongField<>("end_ns", StepWindow::endNanos, 0));

    /** {@link ClientHealth}'s fields in the order of its components, for {@link #writeHealth} and {@link #readHealth}. */
    private static final List<LongField<ClientHealth>> HEALTH = List.of(
            new LongField<>("span_ns", ClientHealth::spanNanos, 0),
            new LongField<>("processors", ClientHealth::processors, 0),
            new LongField<>("cpu_ns", ClientHealth::cpuNanos, -1),
            new LongField<>("gc_pause_ns", ClientHealth::gcPauseNanos, 0),
            new LongField<>("gc_count", ClientHealth::gcCount, 0),
            new LongField<>("probe_samples", ClientHealth::probeSamples, 0),
            new LongField<>("probe_p50_ns", ClientHealth::probeP50Nanos, -1),
            new LongField<>("probe_p99_ns", ClientHealth::probeP99Nanos, -1),
            new LongField<>("probe_max_ns", ClientHealth::probeMaxNanos, -1),
            new LongField<>("probe_period_ns", ClientHealth::probePeriodNanos, 0));

    /** {@link ClientThresholds}' fields in the order of its components, for {@link #writeThresholds} and back. */
    private static final List<DoubleField<ClientThresholds>> THRESHOLDS = List.of(
            new DoubleField<>("schedule_lag_floor_ms", ClientThresholds::scheduleLagFloorMs),
            new DoubleField<>("schedule_lag_fraction", ClientThresholds::scheduleLagFraction),
            new DoubleField<>("cpu_fraction", ClientThresholds::cpuFraction),
            new DoubleField<>("gc_pause_fraction", ClientThresholds::gcPauseFraction),
            new DoubleField<>("probe_delay_p99_ms", ClientThresholds::probeDelayP99Ms));

    static void writeInfo(JsonGenerator g, StepInfo s) throws IOException {
        g.writeStartObject();
        g.writeNumberField("index", s.index());
        g.writeStringField("label", s.label());
        g.writeStringField("mode", s.mode());
        g.writeNumberField("concurrency", s.concurrency());
        Json.number(g, "rate_rps", s.rateRps());
        g.writeStringField("arrival", s.arrival());
        g.writeNumberField("max_in_flight", s.maxInFlight());
        g.writeStringField("cap_policy", s.capPolicy());
        writeLongs(g, BOUNDS, s);
        if (s.isTrial()) { // a load measured once keeps the shape it always had
            g.writeNumberField("trial", s.trial());
        }
        g.writeEndObject();
    }

    static StepInfo readInfo(JsonNode n) {
        long[] b = readLongs(n, BOUNDS);
        return new StepInfo(n.path("index").asInt(), n.path("label").asText(), n.path("mode").asText(),
                n.path("concurrency").asInt(-1), Json.doubleOrNaN(n, "rate_rps"), n.path("arrival").asText(""),
                n.path("max_in_flight").asInt(-1), n.path("cap_policy").asText(""), b[0], b[1], b[2],
                n.path("trial").asInt(0));
    }

    static void writeWindow(JsonGenerator g, StepWindow w) throws IOException {
        g.writeStartObject();
        writeLongs(g, WINDOW, w);
        g.writeBooleanField("completed", w.completed());
        g.writeEndObject();
    }

    static StepWindow readWindow(JsonNode n) {
        long[] v = readLongs(n, WINDOW);
        return new StepWindow(v[0], v[1], v[2], n.path("completed").asBoolean());
    }

    static void writeSlo(JsonGenerator g, Slo s) throws IOException {
        g.writeStartObject();
        Json.number(g, "ttft_ms", s.ttftMs());
        Json.number(g, "tpot_ms", s.tpotMs());
        Json.number(g, "itl_ms", s.itlMs());
        Json.number(g, "itl_percentile", s.itlPercentile());
        Json.number(g, "e2e_ms", s.e2eMs());
        g.writeStringField("basis", s.basis().name().toLowerCase(Locale.ROOT));
        g.writeEndObject();
    }

    static Slo readSlo(JsonNode n) {
        if (n == null || n.isNull() || n.isMissingNode()) {
            return Slo.none();
        }
        return new Slo(Json.doubleOrNaN(n, "ttft_ms"), Json.doubleOrNaN(n, "tpot_ms"), Json.doubleOrNaN(n, "itl_ms"),
                n.path("itl_percentile").asDouble(99), Json.doubleOrNaN(n, "e2e_ms"),
                Slo.Basis.valueOf(n.path("basis").asText("auto").toUpperCase(Locale.ROOT)));
    }

    /** The raw client health, as steps.jsonl keeps it (integer nanoseconds, -1 for absent). */
    static void writeHealth(JsonGenerator g, ClientHealth h) throws IOException {
        g.writeStartObject();
        writeLongs(g, HEALTH, h);
        g.writeEndObject();
    }

    /** Reads {@link #writeHealth}; a missing object (an older run) is {@link ClientHealth#NOT_MEASURED}. */
    static ClientHealth readHealth(JsonNode n) {
        if (n == null || !n.isObject()) {
            return ClientHealth.NOT_MEASURED;
        }
        long[] v = readLongs(n, HEALTH);
        return new ClientHealth(v[0], (int) v[1], v[2], v[3], v[4], v[5], v[6], v[7], v[8], v[9]);
    }

    /** Thresholds; a signal turned off (infinite limit) is written as {@code null}. */
    static void writeThresholds(JsonGenerator g, ClientThresholds t) throws IOException {
        g.writeStartObject();
        for (DoubleField<ClientThresholds> f : THRESHOLDS) {
            Json.number(g, f.name(), f.value().applyAsDouble(t));
        }
        g.writeEndObject();
    }

    /** Reads {@link #writeThresholds}; {@code null} is an infinite limit, a missing object the defaults. */
    static ClientThresholds readThresholds(JsonNode n) {
        if (n == null || !n.isObject()) {
            return ClientThresholds.defaults();
        }
        double[] v = THRESHOLDS.stream().mapToDouble(f -> limit(n, f.name())).toArray();
        return new ClientThresholds(v[0], v[1], v[2], v[3], v[4]);
    }

    private static <T> void writeLongs(JsonGenerator g, List<LongField<T>> fields, T value) throws IOException {
        for (LongField<T> f : fields) {
            g.writeNumberField(f.name(), f.value().applyAsLong(value));
        }
    }

    /** The values of {@code fields} in {@code n}, in their order, each missing one as the field's default. */
    private static long[] readLongs(JsonNode n, List<? extends LongField<?>> fields) {
        return fields.stream().mapToLong(f -> n.path(f.name()).asLong(f.missing())).toArray();
    }

    private static double limit(JsonNode n, String field) {
        JsonNode v = n.get(field);
        return v == null || v.isNull() ? Double.POSITIVE_INFINITY : v.asDouble();
    }

    /**
     * The verdict as summary.json shows it: {@code client_bound, evidence[], measured}, then per signal its value
     * and limit ({@code schedule_lag_p99_ms, schedule_lag_limit_ms, client_cpu_pct, client_cpu_limit_pct,
     * gc_pause_pct, gc_pause_limit_pct, probe_delay_p99_ms, probe_delay_limit_ms}), then the raw facts
     * ({@code processors, gc_pause_ms, gc_count, probe_samples, probe_delay_p50_ms, probe_delay_max_ms}).
     */
    static void writeCheck(JsonGenerator g, ClientCheck c) throws IOException {
        ClientHealth h = c.health();
        g.writeStartObject();
        g.writeBooleanField("client_bound", c.clientBound());
        Json.strings(g, "evidence", c.evidence());
        g.writeBooleanField("measured", h.measured());
        for (ClientSignal s : c.signals()) {
            Json.number(g, s.name(), s.value());
            Json.number(g, s.name().replace("_p99_ms", "_limit_ms").replace("_pct", "_limit_pct"), s.limit());
        }
        g.writeNumberField("processors", h.processors());
        Json.millis(g, "gc_pause_ms", h.measured() ? h.gcPauseNanos() : -1);
        g.writeNumberField("gc_count", h.gcCount());
        g.writeNumberField("probe_samples", h.probeSamples());
        Json.millis(g, "probe_delay_p50_ms", h.probeP50Nanos());
        Json.millis(g, "probe_delay_max_ms", h.probeMaxNanos());
        g.writeEndObject();
    }
}
