package dev.kneepoint.metrics;

import java.util.Arrays;
import java.util.List;
import java.util.Map;
import java.util.Objects;

/**
 * Everything measured about one request: the immutable unit of data that streams to
 * {@code requests.jsonl} and into the step's recorders.
 *
 * <p>All timestamps are nanoseconds on one monotonic clock, relative to the run start
 * (METRICS.md "Timestamps"); {@link #ABSENT} ({@code -1}) marks a timestamp that never happened
 * (a dropped request has no dispatch; a failed one may have no first token).
 *
 * <p>{@code chunkNanos[i]} is the arrival of the i-th token-carrying event and
 * {@code chunkTokens[i]} how many output tokens it carried, already scaled so that the counts sum
 * to {@link Tokens#outputTokens()} when the server reported a total (METRICS.md "Token counts").
 *
 * <p>The components are grouped: {@link Timing} (timestamps and token-carrying events), {@link Tokens} (token
 * counts) and {@link Response} (what the server said besides tokens); the derived metrics ({@link #ttftNanos()} ...)
 * are on the record itself. Code that builds a record uses the {@link Builder}, whose fields are flat.
 *
 * @param id       request index within the run, unique
 * @param step     label of the load step the request belongs to
 * @param tag      stream tag (e.g. {@code fg}, {@code bg}) separating traffic classes
 * @param model    the model the request asked for when it overrode the target's (a model mix); null: the target's
 * @param warmup   true when sent during a step's warm-up (kept in the log, excluded from statistics)
 * @param outcome  how the request ended
 * @param timing   the timestamps and the token-carrying events
 * @param tokens   the token counts
 * @param response what the server said besides tokens, and how the exchange went
 */
public record RequestRecord(
        long id,
        String step,
        String tag,
        String model,
        boolean warmup,
        Outcome outcome,
        Timing timing,
        Tokens tokens,
        Response response) {

    /**
     * Timestamps, ns on the run clock ({@link #ABSENT} when it never happened), and the token-carrying events.
     *
     * @param intendedNanos    {@code t_intended}
     * @param dispatchNanos    {@code t_dispatch}
     * @param firstByteNanos   {@code t_first_byte} (response headers)
     * @param firstTokenNanos  {@code t_first_token}
     * @param firstAnswerNanos {@code t_first_answer}: the first event carrying answer text (not reasoning text),
     *                         recorded only for a request with reasoning (reasoning events or reasoning tokens);
     *                         {@link #ABSENT} otherwise, and when a reasoning request produced no answer text
     * @param firstToolCallNanos {@code t_first_tool_call}: the first event carrying tool-call text (a function's name
     *                         or arguments); {@link #ABSENT} when the answer called no tool
     * @param lastTokenNanos   {@code t_last_token}
     * @param endNanos         {@code t_end}; for a dropped request the instant it was dropped
     * @param chunkNanos       arrival of each token-carrying event (null: none)
     * @param chunkTokens      tokens carried by each token-carrying event (null: none); as many as {@code chunkNanos}
     */
    public record Timing(long intendedNanos, long dispatchNanos, long firstByteNanos, long firstTokenNanos,
            long firstAnswerNanos, long firstToolCallNanos, long lastTokenNanos, long endNanos, long[] chunkNanos,
            int[] chunkTokens) {
        public Timing {
            chunkNanos = chunkNanos == null ? new long[0] : chunkNanos;
            chunkTokens = chunkTokens == null ? new int[0] : chunkTokens;
            if (chunkNanos.length != chunkTokens.length) {
                throw new IllegalArgumentException("chunkNanos and chunkTokens differ in length: "
                        + chunkNanos.length + " vs " + chunkTokens.length);
            }
        }

        /** Equal timestamps, and arrays equal by content. */
        @Override
        public boolean equals(Object o) {
            return o instanceof Timing t && intendedNanos == t.intendedNanos && dispatchNanos == t.dispatchNanos
                    && firstByteNanos == t.firstByteNanos && firstTokenNanos == t.firstTokenNanos
                    && firstAnswerNanos == t.firstAnswerNanos && firstToolCallNanos == t.firstToolCallNanos
                    && lastTokenNanos == t.lastTokenNanos && endNanos == t.endNanos
                    && Arrays.equals(chunkNanos, t.chunkNanos) && Arrays.equals(chunkTokens, t.chunkTokens);
        }

        @Override
        public int hashCode() {
            return Objects.hash(intendedNanos, dispatchNanos, firstByteNanos, firstTokenNanos, firstAnswerNanos,
                    firstToolCallNanos, lastTokenNanos, endNanos, Arrays.hashCode(chunkNanos), Arrays.hashCode(chunkTokens));
        }

        @Override
        public String toString() {
            return "Timing[intendedNanos=" + intendedNanos + ", dispatchNanos=" + dispatchNanos + ", firstByteNanos="
                    + firstByteNanos + ", firstTokenNanos=" + firstTokenNanos + ", firstAnswerNanos=" + firstAnswerNanos
                    + ", firstToolCallNanos=" + firstToolCallNanos + ", lastTokenNanos=" + lastTokenNanos
                    + ", endNanos=" + endNanos + ", chunks=" + chunkNanos.length + "]";
        }
    }

    /**
     * Token counts.
     *
     * @param promptTokens          prompt tokens (server usage when reported, else the requested count; -1 unknown)
     * @param outputTokens          output tokens (by {@link #tokenSource()})
     * @param reasoningTokens       of {@code outputTokens}, those carried as reasoning content
     * @param requestedPromptTokens prompt length the workload asked for (-1 unknown)
     * @param requestedOutputTokens output length the workload asked for via {@code max_tokens} (-1 none)
     * @param clientCountedTokens   tokens counted on the client side before scaling to the server total
     *                              (continuous usage, or one per content event); -1 when not counted
     * @param tokenSource           where {@code outputTokens} came from
     * @param cachedPromptTokens    of {@code promptTokens}, those the server's prefix cache held, as its usage said
     *                              ({@code prompt_tokens_details.cached_tokens}); -1 when it did not say
     */
    public record Tokens(int promptTokens, int outputTokens, int reasoningTokens, int requestedPromptTokens,
            int requestedOutputTokens, int clientCountedTokens, TokenSource tokenSource, int cachedPromptTokens) {
        public Tokens {
            Objects.requireNonNull(tokenSource, "tokenSource");
        }
    }

    /**
     * What the server said besides tokens, and how the exchange went.
     *
     * @param finishReason  server's finish reason ({@code stop}, {@code length}, ...), or null
     * @param streamed      false for a non-streaming request, where TTFT equals E2E by construction
     * @param retried       true when the request was sent a second time, on a fresh connection, because the
     *                      kept-alive connection it was first written to had been closed by the server before
     *                      any byte of the response (a stale connection); its timestamps still count from the
     *                      first attempt's {@code t_dispatch}, so TTFT and E2E include the lost attempt
     *                      (docs/RELIABILITY.md, "Stale keep-alive connections")
     * @param connection    how the request reached the server: a new connection or a kept-alive one, and the new
     *                      one's setup phases (null: {@link Connection#UNKNOWN})
     * @param outputInvalid true when the answer was to be structured output and is not ({@code StructuredOutput})
     * @param items         what a pooling answer returned (embedding vectors, rerank or score results); -1 for an
     *                      answer of generated tokens
     * @param serverTimings server-reported phase timings (llama.cpp {@code timings}, ...), possibly empty (null: empty)
     * @param responseText  the answer's text (concatenated content deltas), only when the request's spec asked
     *                      for it ({@code RequestSpec.keepResponseText}); else null. Not part of
     *                      {@code requests.jsonl} nor of {@link #equals}
     * @param toolCalls     the answer's tool calls, kept with its text (else empty); like it, not written nor compared
     */
    public record Response(String finishReason, boolean streamed, boolean retried, Connection connection,
            boolean outputInvalid, int items, Map<String, Double> serverTimings, String responseText,
            List<ToolCall> toolCalls) {
        public Response {
            connection = connection == null ? Connection.UNKNOWN : connection;
            serverTimings = serverTimings == null ? Map.of() : Map.copyOf(serverTimings);
            toolCalls = toolCalls == null ? List.of() : List.copyOf(toolCalls);
        }

        /** Equal in everything but the kept answer ({@code responseText}, {@code toolCalls}). */
        @Override
        public boolean equals(Object o) {
            return o instanceof Response r
                    && streamed == r.streamed && retried == r.retried && connection.equals(r.connection)
                    && outputInvalid == r.outputInvalid && items == r.items
                    && Objects.equals(finishReason, r.finishReason) && serverTimings.equals(r.serverTimings);
        }

        @Override
        public int hashCode() {
            return Objects.hash(finishReason, streamed, retried, connection, outputInvalid, items, serverTimings);
        }
    }

    /** Marks a timestamp or count that does not exist. */
    public static final long ABSENT = -1;

    /** The same record without the kept answer (its text and tool calls), e.g. before the record is kept. */
    public RequestRecord withoutKeptAnswer() {
        Builder b = toBuilder();
        b.responseText = null;
        b.toolCalls = List.of();
        return b.build();
    }

    /** A builder holding every field of this record: the way to a copy with some fields changed. */
    public Builder toBuilder() {
        Builder b = new Builder();
        b.id = id;
        b.step = step;
        b.tag = tag;
        b.model = model;
        b.warmup = warmup;
        b.outcome = outcome;
        b.intendedNanos = timing.intendedNanos();
        b.dispatchNanos = timing.dispatchNanos();
        b.firstByteNanos = timing.firstByteNanos();
        b.firstTokenNanos = timing.firstTokenNanos();
        b.firstAnswerNanos = timing.firstAnswerNanos();
        b.firstToolCallNanos = timing.firstToolCallNanos();
        b.lastTokenNanos = timing.lastTokenNanos();
        b.endNanos = timing.endNanos();
        b.chunkNanos = timing.chunkNanos();
        b.chunkTokens = timing.chunkTokens();
        b.promptTokens = tokens.promptTokens();
        b.outputTokens = tokens.outputTokens();
        b.reasoningTokens = tokens.reasoningTokens();
        b.requestedPromptTokens = tokens.requestedPromptTokens();
        b.requestedOutputTokens = tokens.requestedOutputTokens();
        b.clientCountedTokens = tokens.clientCountedTokens();
        b.tokenSource = tokens.tokenSource();
        b.cachedPromptTokens = tokens.cachedPromptTokens();
        b.finishReason = response.finishReason();
        b.streamed = response.streamed();
        b.retried = response.retried();
        b.newConnection = response.connection().fresh();
        b.dnsNanos = response.connection().dnsNanos();
        b.connectNanos = response.connection().connectNanos();
        b.tlsNanos = response.connection().tlsNanos();
        b.outputInvalid = response.outputInvalid();
        b.items = response.items();
        b.serverTimings = response.serverTimings();
        b.responseText = response.responseText();
        b.toolCalls = response.toolCalls();
        return b;
    }

    public RequestRecord {
        Objects.requireNonNull(step, "step");
        Objects.requireNonNull(tag, "tag");
        Objects.requireNonNull(outcome, "outcome");
        Objects.requireNonNull(timing, "timing");
        Objects.requireNonNull(tokens, "tokens");
        Objects.requireNonNull(response, "response");
    }

    public boolean isOk() {
        return outcome.isOk();
    }

    public boolean dispatched() {
        return timing.dispatchNanos() >= 0;
    }

    /** {@code t_dispatch − t_intended}: the client's own queueing plus scheduler slop; -1 if never dispatched. */
    public long scheduleLagNanos() {
        return diff(timing.dispatchNanos(), timing.intendedNanos());
    }

    /** {@code t_first_token − t_dispatch}; -1 without a first token. */
    public long ttftNanos() {
        return diff(timing.firstTokenNanos(), timing.dispatchNanos());
    }

    /** {@code t_first_byte − t_dispatch}: the response's status line (see {@link Connection} for a new connection). */
    public long ttfbNanos() {
        return diff(timing.firstByteNanos(), timing.dispatchNanos());
    }

    /** {@code t_first_token − t_intended}: the user's view, free of coordinated omission. */
    public long ttftSchedNanos() {
        return diff(timing.firstTokenNanos(), timing.intendedNanos());
    }

    /**
     * Time to the first answer token, {@code t_first_answer − t_dispatch}: {@link #ttftNanos()} for a request without
     * reasoning; -1 when a reasoning request produced no answer text, or without a first token.
     */
    public long ttfatNanos() {
        if (timing.firstAnswerNanos() >= 0) {
            return diff(timing.firstAnswerNanos(), timing.dispatchNanos());
        }
        return tokens.reasoningTokens() > 0 ? ABSENT : ttftNanos();
    }

    /** {@code t_last_token − t_dispatch}; -1 without tokens. */
    public long e2eNanos() {
        return diff(timing.lastTokenNanos(), timing.dispatchNanos());
    }

    /** {@code t_last_token − t_intended}. */
    public long e2eSchedNanos() {
        return diff(timing.lastTokenNanos(), timing.intendedNanos());
    }

    /** {@code (t_last_token − t_first_token) / (N_out − 1)} when {@code N_out ≥ 2}, else -1. */
    public long tpotNanos() {
        int out = tokens.outputTokens();
        long first = timing.firstTokenNanos();
        long last = timing.lastTokenNanos();
        if (out < 2 || first < 0 || last < 0) {
            return ABSENT;
        }
        return (last - first) / (out - 1);
    }

    /** {@code (N_out − 1) / (t_last_token − t_first_token)}; NaN when undefined. */
    public double userTokensPerSecond() {
        int out = tokens.outputTokens();
        long first = timing.firstTokenNanos();
        long last = timing.lastTokenNanos();
        if (out < 2 || first < 0 || last <= first) {
            return Double.NaN;
        }
        return (out - 1) * 1e9 / (last - first);
    }

    /** True when the workload asked for an output length and the server returned a different one. */
    public boolean outputLengthMismatch() {
        int requested = tokens.requestedOutputTokens();
        return requested > 0 && isOk() && tokens.outputTokens() != requested;
    }

    /** True when a server total exists and the client-side count disagrees with it. */
    public boolean countDiscrepancy() {
        return tokens.clientCountedTokens() >= 0 && tokens.tokenSource() == TokenSource.SERVER_USAGE
                && tokens.clientCountedTokens() != tokens.outputTokens();
    }

    private static long diff(long later, long earlier) {
        return later >= 0 && earlier >= 0 ? later - earlier : ABSENT;
    }

    /**
     * Equal in every component but the response text; arrays by content, the outcome by its label
     * ({@link Timing#equals}, {@link Response#equals}).
     */
    @Override
    public boolean equals(Object o) {
        return o instanceof RequestRecord r
                && id == r.id && warmup == r.warmup && step.equals(r.step) && tag.equals(r.tag)
                && Objects.equals(model, r.model)
                && outcome.label().equals(r.outcome.label())
                && timing.equals(r.timing) && tokens.equals(r.tokens) && response.equals(r.response);
    }

    @Override
    public int hashCode() {
        return Objects.hash(id, step, tag, timing.intendedNanos(), timing.dispatchNanos(), tokens.outputTokens(),
                outcome.label());
    }

    @Override
    public String toString() {
        return "RequestRecord[id=" + id + ", step=" + step + ", tag=" + tag + ", outcome=" + outcome.label()
                + ", ttft_ns=" + ttftNanos() + ", e2e_ns=" + e2eNanos() + ", out=" + tokens.outputTokens()
                + ", chunks=" + timing.chunkNanos().length + "]";
    }

    /** Mutable accumulator used while a request is in flight; {@link #build()} freezes it. */
    public static final class Builder {
        public long id;
        public String step = "";
        public String tag = "default";
        /** The model the request asked for, when not the target's (a model mix); null: the target's. */
        public String model;
        public boolean warmup;
        public long intendedNanos = ABSENT;
        public long dispatchNanos = ABSENT;
        public long firstByteNanos = ABSENT;
        public long firstTokenNanos = ABSENT;
        public long lastTokenNanos = ABSENT;
        public long endNanos = ABSENT;
        public long[] chunkNanos = new long[0];
        public int[] chunkTokens = new int[0];
        public int promptTokens = -1;
        public int outputTokens;
        public int reasoningTokens;
        public int requestedPromptTokens = -1;
        public int requestedOutputTokens = -1;
        public int clientCountedTokens = -1;
        /** {@code prompt_tokens_details.cached_tokens}, -1 when the server did not report it. */
        public int cachedPromptTokens = -1;
        public TokenSource tokenSource = TokenSource.EVENTS;
        public Outcome outcome = Outcome.OK;
        public String finishReason;
        public boolean streamed = true;
        public Map<String, Double> serverTimings = Map.of();
        /** The answer's text, only when the spec asked the client to keep it; else null. */
        public String responseText;
        /** The answer's tool calls, kept with its text; else empty. */
        public List<ToolCall> toolCalls = List.of();
        /** {@code t_first_answer}, only for a request with reasoning; else {@link RequestRecord#ABSENT}. */
        public long firstAnswerNanos = ABSENT;
        /** {@code t_first_tool_call}, only when the answer called a tool; else {@link RequestRecord#ABSENT}. */
        public long firstToolCallNanos = ABSENT;
        /** True when the request was sent again after meeting a stale kept-alive connection. */
        public boolean retried;
        /** {@link Connection}: a new connection was opened for the request, and its phases' durations (ns). */
        public boolean newConnection;
        public long dnsNanos = ABSENT, connectNanos = ABSENT, tlsNanos = ABSENT;
        public boolean outputInvalid; // the answer was to be structured output and is not
        public int items = -1; // vectors or scores a pooling answer returned

        public RequestRecord build() {
            return new RequestRecord(id, step, tag, model, warmup, outcome,
                    new Timing(intendedNanos, dispatchNanos, firstByteNanos, firstTokenNanos, firstAnswerNanos,
                            firstToolCallNanos, lastTokenNanos, endNanos, chunkNanos, chunkTokens),
                    new Tokens(promptTokens, outputTokens, reasoningTokens, requestedPromptTokens,
                            requestedOutputTokens, clientCountedTokens, tokenSource, cachedPromptTokens),
                    new Response(finishReason, streamed, retried, connection(), outputInvalid, items, serverTimings,
                            responseText, toolCalls));
        }

        private Connection connection() {
            return !newConnection && dnsNanos < 0 && connectNanos < 0 && tlsNanos < 0 ? Connection.UNKNOWN
                    : new Connection(newConnection, dnsNanos, connectNanos, tlsNanos);
        }
    }
}
