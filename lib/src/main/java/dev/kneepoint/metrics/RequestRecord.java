package dev.kneepoint.metrics;

import java.util.Arrays;
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
 * to {@link #outputTokens()} when the server reported a total (METRICS.md "Token counts").
 *
 * @param id                    request index within the run, unique
 * @param step                  label of the load step the request belongs to
 * @param tag                   stream tag (e.g. {@code fg}, {@code bg}) separating traffic classes
 * @param warmup                true when sent during a step's warm-up (kept in the log, excluded from statistics)
 * @param intendedNanos         {@code t_intended}
 * @param dispatchNanos         {@code t_dispatch}
 * @param firstByteNanos        {@code t_first_byte} (response headers)
 * @param firstTokenNanos       {@code t_first_token}
 * @param lastTokenNanos        {@code t_last_token}
 * @param endNanos              {@code t_end}; for a dropped request the instant it was dropped
 * @param chunkNanos            arrival of each token-carrying event
 * @param chunkTokens           tokens carried by each token-carrying event
 * @param promptTokens          prompt tokens (server usage when reported, else the requested count; -1 unknown)
 * @param outputTokens          output tokens (by {@link #tokenSource()})
 * @param reasoningTokens       of {@code outputTokens}, those carried as reasoning content
 * @param requestedPromptTokens prompt length the workload asked for (-1 unknown)
 * @param requestedOutputTokens output length the workload asked for via {@code max_tokens} (-1 none)
 * @param clientCountedTokens   tokens counted on the client side before scaling to the server total
 *                              (continuous usage, or one per content event); -1 when not counted
 * @param tokenSource           where {@code outputTokens} came from
 * @param outcome               how the request ended
 * @param finishReason          server's finish reason ({@code stop}, {@code length}, ...), or null
 * @param streamed              false for a non-streaming request, where TTFT equals E2E by construction
 * @param serverTimings         server-reported phase timings (llama.cpp {@code timings}, ...), possibly empty
 * @param responseText          the answer's text (concatenated content deltas), only when the request's spec asked
 *                              for it ({@code RequestSpec.keepResponseText}); else null. Not part of
 *                              {@code requests.jsonl} nor of {@link #equals}
 * @param firstAnswerNanos      {@code t_first_answer}: the first event carrying answer text (not reasoning text),
 *                              recorded only for a request with reasoning (reasoning events or reasoning tokens);
 *                              {@link #ABSENT} otherwise, and when a reasoning request produced no answer text
 * @param retried               true when the request was sent a second time, on a fresh connection, because the
 *                              kept-alive connection it was first written to had been closed by the server before
 *                              any byte of the response (a stale connection); its timestamps still count from the
 *                              first attempt's {@code t_dispatch}, so TTFT and E2E include the lost attempt
 *                              (docs/RELIABILITY.md, "Stale keep-alive connections")
 */
public record RequestRecord(
        long id,
        String step,
        String tag,
        boolean warmup,
        long intendedNanos,
        long dispatchNanos,
        long firstByteNanos,
        long firstTokenNanos,
        long lastTokenNanos,
        long endNanos,
        long[] chunkNanos,
        int[] chunkTokens,
        int promptTokens,
        int outputTokens,
        int reasoningTokens,
        int requestedPromptTokens,
        int requestedOutputTokens,
        int clientCountedTokens,
        TokenSource tokenSource,
        Outcome outcome,
        String finishReason,
        boolean streamed,
        Map<String, Double> serverTimings,
        String responseText,
        long firstAnswerNanos,
        boolean retried) {

    /** Marks a timestamp or count that does not exist. */
    public static final long ABSENT = -1;

    /** The same record with {@code text} as its response text (null drops it, e.g. before the record is kept). */
    public RequestRecord withResponseText(String text) {
        Builder b = toBuilder();
        b.responseText = text;
        return b.build();
    }

    /** A builder holding every field of this record: the way to a copy with some fields changed. */
    public Builder toBuilder() {
        Builder b = new Builder();
        b.id = id;
        b.step = step;
        b.tag = tag;
        b.warmup = warmup;
        b.intendedNanos = intendedNanos;
        b.dispatchNanos = dispatchNanos;
        b.firstByteNanos = firstByteNanos;
        b.firstTokenNanos = firstTokenNanos;
        b.lastTokenNanos = lastTokenNanos;
        b.endNanos = endNanos;
        b.chunkNanos = chunkNanos;
        b.chunkTokens = chunkTokens;
        b.promptTokens = promptTokens;
        b.outputTokens = outputTokens;
        b.reasoningTokens = reasoningTokens;
        b.requestedPromptTokens = requestedPromptTokens;
        b.requestedOutputTokens = requestedOutputTokens;
        b.clientCountedTokens = clientCountedTokens;
        b.tokenSource = tokenSource;
        b.outcome = outcome;
        b.finishReason = finishReason;
        b.streamed = streamed;
        b.serverTimings = serverTimings;
        b.responseText = responseText;
        b.firstAnswerNanos = firstAnswerNanos;
        b.retried = retried;
        return b;
    }

    public RequestRecord {
        Objects.requireNonNull(step, "step");
        Objects.requireNonNull(tag, "tag");
        Objects.requireNonNull(outcome, "outcome");
        Objects.requireNonNull(tokenSource, "tokenSource");
        chunkNanos = chunkNanos == null ? new long[0] : chunkNanos;
        chunkTokens = chunkTokens == null ? new int[0] : chunkTokens;
        if (chunkNanos.length != chunkTokens.length) {
            throw new IllegalArgumentException("chunkNanos and chunkTokens differ in length: "
                    + chunkNanos.length + " vs " + chunkTokens.length);
        }
        serverTimings = serverTimings == null ? Map.of() : Map.copyOf(serverTimings);
    }

    public boolean isOk() {
        return outcome.isOk();
    }

    public boolean dispatched() {
        return dispatchNanos >= 0;
    }

    /** {@code t_dispatch − t_intended}: the client's own queueing plus scheduler slop; -1 if never dispatched. */
    public long scheduleLagNanos() {
        return dispatchNanos >= 0 && intendedNanos >= 0 ? dispatchNanos - intendedNanos : ABSENT;
    }

    /** {@code t_first_token − t_dispatch}; -1 without a first token. */
    public long ttftNanos() {
        return diff(firstTokenNanos, dispatchNanos);
    }

    /** {@code t_first_token − t_intended}: the user's view, free of coordinated omission. */
    public long ttftSchedNanos() {
        return diff(firstTokenNanos, intendedNanos);
    }

    /**
     * Time to the first answer token, {@code t_first_answer − t_dispatch}: equal to {@link #ttftNanos()} for a
     * request without reasoning (its first token is an answer token); -1 when a reasoning request produced no
     * answer text, or without a first token.
     */
    public long ttfatNanos() {
        if (firstAnswerNanos >= 0) {
            return diff(firstAnswerNanos, dispatchNanos);
        }
        return reasoningTokens > 0 ? ABSENT : ttftNanos();
    }

    /** {@code t_last_token − t_dispatch}; -1 without tokens. */
    public long e2eNanos() {
        return diff(lastTokenNanos, dispatchNanos);
    }

    /** {@code t_last_token − t_intended}. */
    public long e2eSchedNanos() {
        return diff(lastTokenNanos, intendedNanos);
    }

    /** {@code (t_last_token − t_first_token) / (N_out − 1)} when {@code N_out ≥ 2}, else -1. */
    public long tpotNanos() {
        if (outputTokens < 2 || firstTokenNanos < 0 || lastTokenNanos < 0) {
            return ABSENT;
        }
        return (lastTokenNanos - firstTokenNanos) / (outputTokens - 1);
    }

    /** {@code (N_out − 1) / (t_last_token − t_first_token)}; NaN when undefined. */
    public double userTokensPerSecond() {
        if (outputTokens < 2 || firstTokenNanos < 0 || lastTokenNanos <= firstTokenNanos) {
            return Double.NaN;
        }
        return (outputTokens - 1) * 1e9 / (lastTokenNanos - firstTokenNanos);
    }

    /** True when the workload asked for an output length and the server returned a different one. */
    public boolean outputLengthMismatch() {
        return requestedOutputTokens > 0 && isOk() && outputTokens != requestedOutputTokens;
    }

    /** True when a server total exists and the client-side count disagrees with it. */
    public boolean countDiscrepancy() {
        return clientCountedTokens >= 0 && tokenSource == TokenSource.SERVER_USAGE
                && clientCountedTokens != outputTokens;
    }

    private static long diff(long later, long earlier) {
        return later >= 0 && earlier >= 0 ? later - earlier : ABSENT;
    }

    @Override
    public boolean equals(Object o) {
        return o instanceof RequestRecord r
                && id == r.id && warmup == r.warmup && intendedNanos == r.intendedNanos
                && dispatchNanos == r.dispatchNanos && firstByteNanos == r.firstByteNanos
                && firstTokenNanos == r.firstTokenNanos && lastTokenNanos == r.lastTokenNanos
                && endNanos == r.endNanos && promptTokens == r.promptTokens
                && outputTokens == r.outputTokens && reasoningTokens == r.reasoningTokens
                && requestedPromptTokens == r.requestedPromptTokens
                && requestedOutputTokens == r.requestedOutputTokens
                && clientCountedTokens == r.clientCountedTokens && streamed == r.streamed && retried == r.retried
                && step.equals(r.step) && tag.equals(r.tag)
                && Arrays.equals(chunkNanos, r.chunkNanos) && Arrays.equals(chunkTokens, r.chunkTokens)
                && tokenSource == r.tokenSource && outcome.label().equals(r.outcome.label())
                && Objects.equals(finishReason, r.finishReason) && serverTimings.equals(r.serverTimings)
                && firstAnswerNanos == r.firstAnswerNanos;
    }

    @Override
    public int hashCode() {
        return Objects.hash(id, step, tag, intendedNanos, dispatchNanos, outputTokens, outcome.label());
    }

    @Override
    public String toString() {
        return "RequestRecord[id=" + id + ", step=" + step + ", tag=" + tag + ", outcome=" + outcome.label()
                + ", ttft_ns=" + ttftNanos() + ", e2e_ns=" + e2eNanos() + ", out=" + outputTokens
                + ", chunks=" + chunkNanos.length + "]";
    }

    /** Mutable accumulator used while a request is in flight; {@link #build()} freezes it. */
    public static final class Builder {
        public long id;
        public String step = "";
        public String tag = "default";
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
        public TokenSource tokenSource = TokenSource.EVENTS;
        public Outcome outcome = Outcome.OK;
        public String finishReason;
        public boolean streamed = true;
        public Map<String, Double> serverTimings = Map.of();
        /** The answer's text, only when the spec asked the client to keep it; else null. */
        public String responseText;
        /** {@code t_first_answer}, only for a request with reasoning; else {@link RequestRecord#ABSENT}. */
        public long firstAnswerNanos = ABSENT;
        /** True when the request was sent again after meeting a stale kept-alive connection. */
        public boolean retried;

        public RequestRecord build() {
            return new RequestRecord(id, step, tag, warmup, intendedNanos, dispatchNanos, firstByteNanos,
                    firstTokenNanos, lastTokenNanos, endNanos, chunkNanos, chunkTokens, promptTokens,
                    outputTokens, reasoningTokens, requestedPromptTokens, requestedOutputTokens,
                    clientCountedTokens, tokenSource, outcome, finishReason, streamed, serverTimings, responseText,
                    firstAnswerNanos, retried);
        }
    }
}
