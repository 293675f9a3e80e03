package dev.kneepoint.io;

import com.fasterxml.jackson.core.JsonFactory;
import com.fasterxml.jackson.core.JsonParser;
import com.fasterxml.jackson.core.JsonToken;
import dev.kneepoint.metrics.Outcome;
import dev.kneepoint.metrics.RequestRecord;
import dev.kneepoint.metrics.TokenSource;
import java.io.IOException;
import java.util.Arrays;
import java.util.Map;
import java.util.TreeMap;

/**
 * Reads one {@code requests.jsonl} line with Jackson's streaming parser, straight into a
 * {@link RequestRecord} (no tree): the same fields, defaults and errors as {@link RequestJson#read},
 * unknown and derived fields skipped. Reuses scratch arrays, so an instance is not thread-safe.
 */
final class RequestParser {
    private final JsonFactory factory = Json.MAPPER.getFactory();
    private final CanonicalRequestParser canonical = new CanonicalRequestParser();
    private long[] nanos = new long[64];
    private int[] tokens = new int[64];

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
        RequestRecord.Builder b = new RequestRecord.Builder();
        boolean hasId = false;
        String tokenSource = null;
        String outcome = null;
        String detail = "";
        b.step = null;
        for (String name; (name = p.nextFieldName()) != null; ) {
            JsonToken t = p.nextToken();
            switch (name) {
                case "id" -> {
                    hasId = t != JsonToken.VALUE_NULL;
                    b.id = p.getValueAsLong();
                }
                case "step" -> b.step = t == JsonToken.VALUE_NULL ? null : p.getValueAsString();
                case "tag" -> b.tag = p.getValueAsString("default");
                case "warmup" -> b.warmup = p.getValueAsBoolean(false);
                case "t_intended_ns" -> b.intendedNanos = p.getValueAsLong(-1);
                case "t_dispatch_ns" -> b.dispatchNanos = p.getValueAsLong(-1);
                case "t_first_byte_ns" -> b.firstByteNanos = p.getValueAsLong(-1);
                case "t_first_token_ns" -> b.firstTokenNanos = p.getValueAsLong(-1);
                case "t_last_token_ns" -> b.lastTokenNanos = p.getValueAsLong(-1);
                case "t_end_ns" -> b.endNanos = p.getValueAsLong(-1);
                case "chunk_ns" -> b.chunkNanos = longs(p, t);
                case "chunk_tokens" -> b.chunkTokens = ints(p, t);
                case "prompt_tokens" -> b.promptTokens = p.getValueAsInt(-1);
                case "output_tokens" -> b.outputTokens = p.getValueAsInt(0);
                case "reasoning_tokens" -> b.reasoningTokens = p.getValueAsInt(0);
                case "requested_prompt_tokens" -> b.requestedPromptTokens = p.getValueAsInt(-1);
                case "requested_output_tokens" -> b.requestedOutputTokens = p.getValueAsInt(-1);
                case "client_counted_tokens" -> b.clientCountedTokens = p.getValueAsInt(-1);
                case "token_source" -> tokenSource = t == JsonToken.VALUE_NULL ? null : p.getValueAsString();
                case "outcome" -> outcome = t == JsonToken.VALUE_NULL ? null : p.getValueAsString();
                case "outcome_detail" -> detail = p.getValueAsString("");
                case "finish_reason" -> b.finishReason = t == JsonToken.VALUE_NULL ? null : p.getValueAsString();
                case "streamed" -> b.streamed = p.getValueAsBoolean(true);
                case "t_first_answer_ns" -> b.firstAnswerNanos = p.getValueAsLong(-1);
                case "retried" -> b.retried = p.getValueAsBoolean(false);
                case "server_timings" -> b.serverTimings = timings(p, t);
                default -> p.skipChildren(); // derived fields and unknown additions
            }
        }
        if (!hasId) {
            throw missing("id");
        }
        if (b.step == null) {
            throw missing("step");
        }
        if (tokenSource == null) {
            throw missing("token_source");
        }
        if (outcome == null) {
            throw missing("outcome");
        }
        b.tokenSource = TokenSource.parse(tokenSource);
        b.outcome = RequestJson.withDetail(Outcome.parse(outcome), detail);
        return b.build();
    }

    private static IllegalArgumentException missing(String field) {
        return new IllegalArgumentException("missing required field '" + field + "'");
    }

    private long[] longs(JsonParser p, JsonToken t) throws IOException {
        if (t != JsonToken.START_ARRAY) {
            p.skipChildren();
            return new long[0];
        }
        int n = 0;
        for (JsonToken e; (e = p.nextToken()) != JsonToken.END_ARRAY; ) {
            if (n == nanos.length) {
                nanos = Arrays.copyOf(nanos, 2 * n);
            }
            nanos[n++] = e == JsonToken.VALUE_NUMBER_INT ? p.getLongValue() : p.getValueAsLong();
            p.skipChildren();
        }
        return Arrays.copyOf(nanos, n);
    }

    private int[] ints(JsonParser p, JsonToken t) throws IOException {
        if (t != JsonToken.START_ARRAY) {
            p.skipChildren();
            return new int[0];
        }
        int n = 0;
        for (JsonToken e; (e = p.nextToken()) != JsonToken.END_ARRAY; ) {
            if (n == tokens.length) {
                tokens = Arrays.copyOf(tokens, 2 * n);
            }
            tokens[n++] = e == JsonToken.VALUE_NUMBER_INT ? p.getIntValue() : p.getValueAsInt();
            p.skipChildren();
        }
        return Arrays.copyOf(tokens, n);
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
