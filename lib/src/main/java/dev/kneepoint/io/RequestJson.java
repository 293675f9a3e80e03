package dev.kneepoint.io;

import com.fasterxml.jackson.core.JsonGenerator;
import com.fasterxml.jackson.databind.JsonNode;
import dev.kneepoint.metrics.Outcome;
import dev.kneepoint.metrics.RequestRecord;
import dev.kneepoint.metrics.TokenSource;
import java.io.IOException;
import java.util.Map;
import java.util.TreeMap;

/**
 * The {@code requests.jsonl} line format (format version 1): one JSON object per request with these
 * snake_case fields, in this order:
 *
 * <pre>
 * id, step, tag, warmup,
 * t_intended_ns, t_dispatch_ns, t_first_byte_ns, t_first_token_ns, t_last_token_ns, t_end_ns   (-1 = absent)
 * chunk_ns [..], chunk_tokens [..],
 * prompt_tokens, output_tokens, reasoning_tokens, requested_prompt_tokens, requested_output_tokens,
 * client_counted_tokens, token_source, outcome (label), outcome_detail, finish_reason (or null), streamed,
 * server_timings {..}, retried (only when true: sent again after a stale kept-alive connection),
 * derived, for convenience only and ignored when read back (null when undefined):
 * ttft_ms, ttft_sched_ms, e2e_ms, e2e_sched_ms, tpot_ms, schedule_lag_ms, user_tokens_per_s
 * </pre>
 *
 * Timestamps are nanoseconds on the run clock (relative to the run start).
 */
public final class RequestJson {
    private RequestJson() {}

    /** Writes one record as a JSON object (no line separator). */
    public static void write(JsonGenerator g, RequestRecord r) throws IOException {
        g.writeStartObject();
        g.writeNumberField("id", r.id());
        g.writeStringField("step", r.step());
        g.writeStringField("tag", r.tag());
        g.writeBooleanField("warmup", r.warmup());
        g.writeNumberField("t_intended_ns", r.intendedNanos());
        g.writeNumberField("t_dispatch_ns", r.dispatchNanos());
        g.writeNumberField("t_first_byte_ns", r.firstByteNanos());
        g.writeNumberField("t_first_token_ns", r.firstTokenNanos());
        g.writeNumberField("t_last_token_ns", r.lastTokenNanos());
        g.writeNumberField("t_end_ns", r.endNanos());
        g.writeFieldName("chunk_ns");
        g.writeArray(r.chunkNanos(), 0, r.chunkNanos().length);
        g.writeFieldName("chunk_tokens");
        g.writeArray(r.chunkTokens(), 0, r.chunkTokens().length);
        g.writeNumberField("prompt_tokens", r.promptTokens());
        g.writeNumberField("output_tokens", r.outputTokens());
        g.writeNumberField("reasoning_tokens", r.reasoningTokens());
        g.writeNumberField("requested_prompt_tokens", r.requestedPromptTokens());
        g.writeNumberField("requested_output_tokens", r.requestedOutputTokens());
        g.writeNumberField("client_counted_tokens", r.clientCountedTokens());
        g.writeStringField("token_source", r.tokenSource().label());
        g.writeStringField("outcome", r.outcome().label());
        g.writeStringField("outcome_detail", r.outcome().detail());
        g.writeStringField("finish_reason", r.finishReason());
        g.writeBooleanField("streamed", r.streamed());
        g.writeObjectFieldStart("server_timings");
        for (Map.Entry<String, Double> e : new TreeMap<>(r.serverTimings()).entrySet()) {
            Json.number(g, e.getKey(), e.getValue());
        }
        g.writeEndObject();
        if (r.firstAnswerNanos() >= 0) { // only requests with reasoning: other lines stay as they were
            g.writeNumberField("t_first_answer_ns", r.firstAnswerNanos());
        }
        if (r.retried()) {
            g.writeBooleanField("retried", true); // only when true: the usual line keeps its compact form
        }
        Json.millis(g, "ttft_ms", r.ttftNanos());
        Json.millis(g, "ttft_sched_ms", r.ttftSchedNanos());
        Json.millis(g, "e2e_ms", r.e2eNanos());
        Json.millis(g, "e2e_sched_ms", r.e2eSchedNanos());
        Json.millis(g, "tpot_ms", r.tpotNanos());
        Json.millis(g, "schedule_lag_ms", r.dispatched() ? Math.max(0, r.scheduleLagNanos()) : -1);
        Json.number(g, "user_tokens_per_s", r.userTokensPerSecond());
        g.writeEndObject();
    }

    /**
     * Reads one record back from its JSON object.
     *
     * @throws IllegalArgumentException naming the first missing or invalid field
     */
    public static RequestRecord read(JsonNode n) {
        RequestRecord.Builder b = new RequestRecord.Builder();
        b.id = required(n, "id").asLong();
        b.step = required(n, "step").asText();
        b.tag = n.path("tag").asText("default");
        b.warmup = n.path("warmup").asBoolean(false);
        b.intendedNanos = n.path("t_intended_ns").asLong(-1);
        b.dispatchNanos = n.path("t_dispatch_ns").asLong(-1);
        b.firstByteNanos = n.path("t_first_byte_ns").asLong(-1);
        b.firstTokenNanos = n.path("t_first_token_ns").asLong(-1);
        b.lastTokenNanos = n.path("t_last_token_ns").asLong(-1);
        b.endNanos = n.path("t_end_ns").asLong(-1);
        JsonNode chunks = n.path("chunk_ns");
        JsonNode tokens = n.path("chunk_tokens");
        b.chunkNanos = new long[chunks.size()];
        b.chunkTokens = new int[tokens.size()];
        for (int i = 0; i < b.chunkNanos.length; i++) {
            b.chunkNanos[i] = chunks.get(i).asLong();
        }
        for (int i = 0; i < b.chunkTokens.length; i++) {
            b.chunkTokens[i] = tokens.get(i).asInt();
        }
        b.promptTokens = n.path("prompt_tokens").asInt(-1);
        b.outputTokens = n.path("output_tokens").asInt(0);
        b.reasoningTokens = n.path("reasoning_tokens").asInt(0);
        b.requestedPromptTokens = n.path("requested_prompt_tokens").asInt(-1);
        b.requestedOutputTokens = n.path("requested_output_tokens").asInt(-1);
        b.clientCountedTokens = n.path("client_counted_tokens").asInt(-1);
        b.tokenSource = TokenSource.parse(required(n, "token_source").asText());
        b.outcome = withDetail(Outcome.parse(required(n, "outcome").asText()), n.path("outcome_detail").asText(""));
        b.finishReason = Json.textOrNull(n, "finish_reason");
        b.streamed = n.path("streamed").asBoolean(true);
        b.firstAnswerNanos = n.path("t_first_answer_ns").asLong(-1);
        b.retried = n.path("retried").asBoolean(false);
        Map<String, Double> timings = new TreeMap<>();
        for (Map.Entry<String, JsonNode> e : n.path("server_timings").properties()) {
            timings.put(e.getKey(), e.getValue().isNull() ? Double.NaN : e.getValue().asDouble());
        }
        b.serverTimings = timings;
        return b.build();
    }

    private static JsonNode required(JsonNode n, String field) {
        JsonNode v = n.get(field);
        if (v == null || v.isNull()) {
            throw new IllegalArgumentException("missing required field '" + field + "'");
        }
        return v;
    }

    /** Restores the detail text that {@link Outcome#label()} leaves out. */
    static Outcome withDetail(Outcome o, String detail) {
        return switch (o) {
            case Outcome.HttpError h -> new Outcome.HttpError(h.status(), detail);
            case Outcome.ConnectionError c -> new Outcome.ConnectionError(detail);
            case Outcome.StreamError s -> new Outcome.StreamError(detail);
            default -> o;
        };
    }
}
