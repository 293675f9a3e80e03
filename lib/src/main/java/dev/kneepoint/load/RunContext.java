package dev.kneepoint.load;

import dev.kneepoint.client.Cancellation;
import dev.kneepoint.client.RequestContext;
import dev.kneepoint.client.RequestSender;
import dev.kneepoint.metrics.Outcome;
import dev.kneepoint.metrics.RequestRecord;
import dev.kneepoint.metrics.RunClock;
import dev.kneepoint.metrics.RunListener;
import dev.kneepoint.workload.RequestSpec;
import java.util.concurrent.atomic.AtomicLong;
import java.util.concurrent.atomic.AtomicReference;

/** What every step of one run shares: sender, workload, listener, clock and the request-id counter. */
final class RunContext {
    final RequestSender sender;
    final Workload workload;
    final RunListener listener;
    final RunClock clock;
    private final AtomicLong ids = new AtomicLong();
    private final AtomicReference<RuntimeException> listenerFailure = new AtomicReference<>();

    RunContext(RequestSender sender, Workload workload, RunListener listener, RunClock clock) {
        this.sender = sender;
        this.workload = workload;
        this.listener = listener;
        this.clock = clock;
    }

    long nextId() {
        return ids.getAndIncrement();
    }

    /**
     * Calls the sender. A sender must not throw; if it does anyway, the request still ends as one record
     * (a {@code CONNECTION_ERROR} naming the exception) rather than vanishing.
     */
    RequestRecord execute(RequestSpec spec, RequestContext context, Cancellation cancellation) {
        try {
            RequestRecord r = sender.execute(spec, context, cancellation);
            if (r != null) {
                return r;
            }
            return unsent(spec, context, new Outcome.ConnectionError("sender returned no record"));
        } catch (RuntimeException e) {
            return unsent(spec, context, new Outcome.ConnectionError("sender threw " + e));
        }
    }

    /** Hands a record to the listener; a listener failure is kept and rethrown by the run. */
    void deliver(RequestRecord record) {
        try {
            listener.requestFinished(record);
        } catch (RuntimeException e) {
            listenerFailure.compareAndSet(null, e);
        }
    }

    /** Throws the first failure of {@code requestFinished}, if any. */
    void rethrowListenerFailure() {
        RuntimeException e = listenerFailure.get();
        if (e != null) {
            throw new IllegalStateException("RunListener.requestFinished failed: " + e, e);
        }
    }

    /** The record of a request that was never dispatched (dropped, or cancelled before dispatch). */
    RequestRecord unsent(RequestSpec spec, RequestContext context, Outcome outcome) {
        RequestRecord.Builder b = new RequestRecord.Builder();
        b.id = context.id();
        b.step = context.step();
        b.tag = spec.tag();
        b.warmup = context.warmup();
        b.intendedNanos = context.intendedNanos();
        b.endNanos = clock.now();
        b.promptTokens = spec.requestedPromptTokens();
        b.requestedPromptTokens = spec.requestedPromptTokens();
        b.requestedOutputTokens = spec.maxTokens();
        b.outcome = outcome;
        return b.build();
    }
}
