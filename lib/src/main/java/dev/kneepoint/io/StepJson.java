package dev.kneepoint.io;

import com.fasterxml.jackson.core.JsonGenerator;
import com.fasterxml.jackson.databind.JsonNode;
import dev.kneepoint.metrics.Slo;
import dev.kneepoint.metrics.StepInfo;
import dev.kneepoint.metrics.StepWindow;
import java.io.IOException;
import java.util.Locale;

/** JSON forms of {@link StepInfo}, {@link StepWindow} and {@link Slo}, shared by steps.jsonl, summary.json and the manifest. */
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
}
