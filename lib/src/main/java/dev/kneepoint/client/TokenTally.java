package dev.kneepoint.client;

import dev.kneepoint.metrics.Outcome;
import dev.kneepoint.metrics.RequestRecord;
import dev.kneepoint.metrics.TokenSource;
import java.util.Arrays;

/**
 * Accumulates the token-carrying events of one request and settles their counts into a
 * {@link RequestRecord.Builder} by METRICS.md "Token counts":
 * <ol>
 *   <li>each text-carrying chunk gets a client count: the growth of the cumulative
 *       {@code usage.completion_tokens} since the last counted chunk when the chunk carries usage
 *       (vLLM {@code continuous_usage_stats}; tokens on text-less chunks carry over to the next one),
 *       else one per event;</li>
 *   <li>when a final server total exists (usage on a usage-only chunk, on a chunk with a finish
 *       reason, or on a non-streamed response) the counts are scaled to it by largest remainder and
 *       the source is {@code SERVER_USAGE}; else {@code SERVER_CONTINUOUS} when every chunk had
 *       usage, else {@code EVENTS}.</li>
 * </ol>
 * Tool-call text (a call's name and argument fragments) is generated output like answer text: such a chunk is a
 * token-carrying event, and the first of them gives {@code t_first_tool_call}.
 * Reasoning tokens (chunks with reasoning text and no answer text or tool call) are counted apart: the server's
 * {@code reasoning_tokens} when it reports them, else the client counts of the reasoning chunks when
 * those were exact or the server total exceeds the client count by one end-of-sequence token, else
 * the reasoning chunks' share of the scaled counts.
 * Not thread-safe: owned by the request's thread, except {@link #inFlight}, which another thread may call: the
 * arrays are replaced (never shrunk) only by copies and each event is published by a volatile write of its count.
 */
final class TokenTally {
    private volatile long[] times = new long[64];
    private volatile int[] counts = new int[64];
    private volatile boolean[] reasoningOnly = new boolean[64];
    private int n;
    private volatile int published;
    private boolean allContinuous = true;
    private int lastCumulative;
    private int finalTotal = -1;
    private int promptTokens = -1;
    private int serverReasoning = -1;
    private int cachedTokens = -1;
    /** The index of the first event carrying tool-call text, -1 while none; written before the event is published. */
    private int firstToolCall = -1;
    /** Told the client's running count after each event (a request that may be given up after N tokens), or null. */
    private java.util.function.IntConsumer listener;
    private int running;
    /** When a pooling answer was read ({@link #onPooled}), else -1. */
    private long pooledNanos = -1;

    /** Records one decoded chunk that arrived at {@code nowNanos}; returns true when it carried text. */
    boolean onChunk(long nowNanos, StreamPayload.Chunk c) {
        if (c.promptTokens() >= 0) {
            promptTokens = c.promptTokens();
        }
        if (c.cachedTokens() >= 0) {
            cachedTokens = c.cachedTokens();
        }
        if (c.hasUsage() && (c.choices() <= 0 || c.finishReason() != null)) {
            finalTotal = c.completionTokens();
            if (c.reasoningTokens() >= 0) {
                serverReasoning = c.reasoningTokens();
            }
        }
        if (!c.carriesText()) {
            return false;
        }
        int count;
        // A text-carrying chunk whose cumulative count is still 0 has no real count: Ollama's /v1/completions
        // puts an all-zero usage object on every chunk before the real one at the end.
        if (c.hasUsage() && c.completionTokens() > 0) {
            count = Math.max(0, c.completionTokens() - lastCumulative);
            lastCumulative = Math.max(lastCumulative, c.completionTokens());
        } else {
            count = 1;
            allContinuous = false;
        }
        if (firstToolCall < 0 && !c.toolCalls().isEmpty()) {
            firstToolCall = n;
        }
        add(nowNanos, count, c.reasoningOnly());
        return true;
    }

    /**
     * Records a pooling answer read whole at {@code nowNanos}: no output tokens (a server total of 0), its first and
     * last token times both that instant (a non-streamed answer's TTFT is its E2E), and its usage's prompt tokens.
     */
    void onPooled(long nowNanos, StreamPayload.Pooled p) {
        if (p.promptTokens() >= 0) {
            promptTokens = p.promptTokens();
        }
        finalTotal = 0;
        pooledNanos = nowNanos;
    }

    /** Records a whole non-streamed response as one chunk at {@code nowNanos}. */
    void onWholeResponse(long nowNanos, StreamPayload.Chunk c) {
        onChunk(nowNanos, c);
        if (c.hasUsage()) {
            finalTotal = c.completionTokens();
        }
    }

    int tokenEvents() {
        return n;
    }

    long firstNanos() {
        return n == 0 ? RequestRecord.ABSENT : times[0];
    }

    /** Writes chunks, counts, token source, prompt and reasoning tokens into {@code b}. */
    void settle(RequestRecord.Builder b, int requestedPromptTokens) {
        int[] client = Arrays.copyOf(counts, n);
        int clientSum = TokenAccounting.sum(client);
        int[] finalCounts = client;
        if (finalTotal >= 0 && (n == 0 || finalTotal > 0)) {
            finalCounts = TokenAccounting.scaleLargestRemainder(client, finalTotal);
            b.tokenSource = TokenSource.SERVER_USAGE;
            b.outputTokens = finalTotal;
        } else {
            b.tokenSource = n > 0 && allContinuous ? TokenSource.SERVER_CONTINUOUS : TokenSource.EVENTS;
            b.outputTokens = clientSum;
        }
        b.clientCountedTokens = n > 0 ? clientSum : (finalTotal >= 0 ? 0 : -1);
        b.chunkNanos = Arrays.copyOf(times, n);
        b.chunkTokens = finalCounts;
        // reasoning keeps the client counts when they were exact per chunk (continuous counts) or
        // when the server total exceeds them by exactly one token: the end-of-sequence token, which
        // has no visible text and is an answer token; otherwise the scaled counts (events that
        // carried several tokens)
        int surplus = b.outputTokens - clientSum;
        int[] reasoningBasis = n > 0 && (allContinuous || surplus == 1) ? client : finalCounts;
        int reasoning = 0;
        for (int i = 0; i < n; i++) {
            if (reasoningOnly[i]) {
                reasoning += reasoningBasis[i];
            }
        }
        b.reasoningTokens = serverReasoning >= 0 && b.tokenSource == TokenSource.SERVER_USAGE
                ? serverReasoning : reasoning;
        b.promptTokens = promptTokens >= 0 ? promptTokens : requestedPromptTokens;
        b.cachedPromptTokens = cachedTokens;
        if (n > 0) {
            b.firstTokenNanos = times[0];
            b.lastTokenNanos = times[n - 1];
        } else if (pooledNanos >= 0) {
            b.firstTokenNanos = pooledNanos;
            b.lastTokenNanos = pooledNanos;
        }
        // t_first_answer: recorded only for a request with reasoning (events or tokens); ABSENT when none came
        boolean reasoningEvents = false;
        int firstAnswer = -1;
        for (int i = 0; i < n; i++) {
            reasoningEvents |= reasoningOnly[i];
            if (!reasoningOnly[i] && firstAnswer < 0) {
                firstAnswer = i;
            }
        }
        if ((reasoningEvents || b.reasoningTokens > 0) && firstAnswer >= 0) {
            b.firstAnswerNanos = times[firstAnswer];
        }
        if (firstToolCall >= 0) {
            b.firstToolCallNanos = times[firstToolCall];
        }
    }

    private void add(long t, int count, boolean reasoning) {
        if (n == times.length) {
            int cap = n * 2;
            times = Arrays.copyOf(times, cap);
            counts = Arrays.copyOf(counts, cap);
            reasoningOnly = Arrays.copyOf(reasoningOnly, cap);
        }
        times[n] = t;
        counts[n] = count;
        reasoningOnly[n] = reasoning;
        n++;
        published = n;
        if (listener != null) {
            running += count;
            listener.accept(running);
        }
    }

    /** Tells {@code l} the running output-token count after each token-carrying event (null: nobody). */
    void tokenListener(java.util.function.IntConsumer l) {
        this.listener = l;
    }

    /**
     * Thread-safe: the record of the request as it stands, for a load step that stops waiting for it
     * ({@link Cancellation#onProgress}): identity and request timings copied from {@code b}, the token events
     * published so far with the client's counts (no server total has come), outcome {@code CANCELLED}, no end.
     */
    RequestRecord inFlight(RequestRecord.Builder b) {
        int k = published; // read first: the arrays read after it hold at least k published events
        long[] t = times;
        int[] c = counts;
        boolean[] r = reasoningOnly;
        RequestRecord.Builder s = new RequestRecord.Builder();
        s.id = b.id;
        s.step = b.step;
        s.tag = b.tag;
        s.model = b.model;
        s.warmup = b.warmup;
        s.intendedNanos = b.intendedNanos;
        s.dispatchNanos = b.dispatchNanos;
        s.firstByteNanos = b.firstByteNanos;
        s.promptTokens = b.promptTokens;
        s.requestedPromptTokens = b.requestedPromptTokens;
        s.requestedOutputTokens = b.requestedOutputTokens;
        s.streamed = b.streamed;
        s.chunkNanos = Arrays.copyOf(t, k);
        s.chunkTokens = Arrays.copyOf(c, k);
        s.outputTokens = TokenAccounting.sum(s.chunkTokens);
        s.clientCountedTokens = k > 0 ? s.outputTokens : -1;
        s.tokenSource = k > 0 && allContinuous ? TokenSource.SERVER_CONTINUOUS : TokenSource.EVENTS;
        for (int i = 0; i < k; i++) {
            s.reasoningTokens += r[i] ? s.chunkTokens[i] : 0;
        }
        if (k > 0) {
            s.firstTokenNanos = t[0];
            s.lastTokenNanos = t[k - 1];
        }
        int tool = firstToolCall;
        if (tool >= 0 && tool < k) {
            s.firstToolCallNanos = t[tool];
        }
        s.outcome = Outcome.CANCELLED;
        return s.build();
    }
}
