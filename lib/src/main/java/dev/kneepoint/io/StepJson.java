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
import java.util.Locale;

/**
 * JSON forms of {@link StepInfo}, {@link StepWindow}, {@link Slo} and the client self-check ({@link ClientHealth},
 * {@link ClientThresholds}, {@link ClientCheck}), shared by steps.jsonl, summary.json and the manifest.
 */
final class StepJson {
    private StepJson() {}

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
        g.writeNumberField("warmup_ns", s.warmupNanos());
        g.writeNumberField("duration_ns", s.durationNanos());
        g.writeNumberField("max_requests", s.maxRequests());
        g.writeEndObject();
    }

    static StepInfo readInfo(JsonNode n) {
        return new StepInfo(n.path("index").asInt(), n.path("label").asText(), n.path("mode").asText(),
                n.path("concurrency").asInt(-1), Json.doubleOrNaN(n, "rate_rps"), n.path("arrival").asText(""),
                n.path("max_in_flight").asInt(-1), n.path("cap_policy").asText(""), n.path("warmup_ns").asLong(0),
                n.path("duration_ns").asLong(-1), n.path("max_requests").asLong(-1));
    }

    static void writeWindow(JsonGenerator g, StepWindow w) throws IOException {
        g.writeStartObject();
        g.writeNumberField("step_start_ns", w.stepStartNanos());
        g.writeNumberField("start_ns", w.startNanos());
        g.writeNumberField("end_ns", w.endNanos());
        g.writeBooleanField("completed", w.completed());
        g.writeEndObject();
    }

    static StepWindow readWindow(JsonNode n) {
        return new StepWindow(n.path("step_start_ns").asLong(), n.path("start_ns").asLong(),
                n.path("end_ns").asLong(), n.path("completed").asBoolean());
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
        g.writeNumberField("span_ns", h.spanNanos());
        g.writeNumberField("processors", h.processors());
        g.writeNumberField("cpu_ns", h.cpuNanos());
        g.writeNumberField("gc_pause_ns", h.gcPauseNanos());
        g.writeNumberField("gc_count", h.gcCount());
        g.writeNumberField("probe_samples", h.probeSamples());
        g.writeNumberField("probe_p50_ns", h.probeP50Nanos());
        g.writeNumberField("probe_p99_ns", h.probeP99Nanos());
        g.writeNumberField("probe_max_ns", h.probeMaxNanos());
        g.writeNumberField("probe_period_ns", h.probePeriodNanos());
        g.writeEndObject();
    }

    /** Reads {@link #writeHealth}; a missing object (an older run) is {@link ClientHealth#NOT_MEASURED}. */
    static ClientHealth readHealth(JsonNode n) {
        if (n == null || !n.isObject()) {
            return ClientHealth.NOT_MEASURED;
        }
        return new ClientHealth(n.path("span_ns").asLong(0), n.path("processors").asInt(0), n.path("cpu_ns").asLong(-1),
                n.path("gc_pause_ns").asLong(0), n.path("gc_count").asLong(0), n.path("probe_samples").asLong(0),
                n.path("probe_p50_ns").asLong(-1), n.path("probe_p99_ns").asLong(-1), n.path("probe_max_ns").asLong(-1),
                n.path("probe_period_ns").asLong(0));
    }

    /** Thresholds; a signal turned off (infinite limit) is written as {@code null}. */
    static void writeThresholds(JsonGenerator g, ClientThresholds t) throws IOException {
        g.writeStartObject();
        Json.number(g, "schedule_lag_floor_ms", t.scheduleLagFloorMs());
        Json.number(g, "schedule_lag_fraction", t.scheduleLagFraction());
        Json.number(g, "cpu_fraction", t.cpuFraction());
        Json.number(g, "gc_pause_fraction", t.gcPauseFraction());
        Json.number(g, "probe_delay_p99_ms", t.probeDelayP99Ms());
        g.writeEndObject();
    }

    /** Reads {@link #writeThresholds}; {@code null} is an infinite limit, a missing object the defaults. */
    static ClientThresholds readThresholds(JsonNode n) {
        if (n == null || !n.isObject()) {
            return ClientThresholds.defaults();
        }
        return new ClientThresholds(limit(n, "schedule_lag_floor_ms"), limit(n, "schedule_lag_fraction"),
                limit(n, "cpu_fraction"), limit(n, "gc_pause_fraction"), limit(n, "probe_delay_p99_ms"));
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
        g.writeArrayFieldStart("evidence");
        for (String e : c.evidence()) {
            g.writeString(e);
        }
        g.writeEndArray();
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
