package dev.kneepoint.request;

import dev.kneepoint.metrics.RequestRecord;
import dev.kneepoint.metrics.RunClock;
import java.util.Objects;

/**
 * Where a request sits in a run: its identity, the step it belongs to, when the load plan wanted
 * it to start and the run's clock on which every timestamp is taken.
 */
public record RequestContext(long id, String step, boolean warmup, long intendedNanos, RunClock clock) {
    public RequestContext {
        Objects.requireNonNull(step, "step");
        Objects.requireNonNull(clock, "clock");
    }

    /**
     * A record builder holding this request's identity and what the workload asked for (prompt length,
     * taken as the prompt count until the server reports its own, and output length); the sender or the
     * load step fills in what happened.
     */
    public RequestRecord.Builder recordBuilder(RequestSpec spec) {
        RequestRecord.Builder b = new RequestRecord.Builder();
        b.id = id;
        b.step = step;
        b.tag = spec.tag();
        b.model = spec.model();
        b.warmup = warmup;
        b.intendedNanos = intendedNanos;
        b.promptTokens = spec.requestedPromptTokens();
        b.requestedPromptTokens = spec.requestedPromptTokens();
        b.requestedOutputTokens = spec.requestedOutputTokens();
        return b;
    }
}
