package dev.kneepoint.load;

import dev.kneepoint.metrics.Outcome;
import dev.kneepoint.metrics.RequestRecord;
import dev.kneepoint.metrics.RunClock;
import dev.kneepoint.metrics.RunListener;
import dev.kneepoint.request.RequestContext;
import dev.kneepoint.request.RequestSender;
import dev.kneepoint.request.RequestSpec;
import dev.kneepoint.request.Workload;
import java.util.concurrent.atomic.AtomicLong;
import java.util.concurrent.atomic.AtomicReference;

/** What every step of one run shares: sender, workload, listener, clock and the request-id counter. */
final class RunContext {
    final RequestSender sender;
    final Workload workload;
    final RunListener listener;
    final RunClock clock;
    private final AtomicLong ids;
    private final AtomicLong sessionIds = new AtomicLong();
    private final AtomicReference<IllegalStateException> failure;

    RunContext(RequestSender sender, Workload workload, RunListener listener, RunClock clock) {
        this(sender, workload, listener, clock, new AtomicLong(), new AtomicReference<>());
    }

    private RunContext(RequestSender sender, Workload workload, RunListener listener, RunClock clock,
                       AtomicLong ids, AtomicReference<IllegalStateException> failure) {
        this.sender = sender;
        this.workload = workload;
        this.listener = listener;
        this.clock = clock;
        this.ids = ids;
        this.failure = failure;
    }

    /** The same run (ids, failures, sender, listener, clock) with another workload: a background stream's. */
    RunContext withWorkload(Workload other) {
        return new RunContext(sender, other, listener, clock, ids, failure);
    }

    long nextId() {
        return ids.getAndIncrement();
    }

    /** A chat-session id, unique within the run (see {@link SessionWorkload}). */
    long nextSessionId() {
        return sessionIds.getAndIncrement();
    }

    /**
     * The sender's {@link RequestSender#prepare}, guarded: a sender must not throw; if it does anyway (preparing or
     * sending), the request still ends as one record (a {@code CONNECTION_ERROR} naming the exception) rather than
     * vanishing.
     */
    RequestSender.Prepared prepare(RequestSpec spec, RequestContext context) {
        RequestSender.Prepared prepared;
        try {
            prepared = java.util.Objects.requireNonNull(sender.prepare(spec, context), "sender prepared nothing");
        } catch (RuntimeException e) {
            return cancellation -> unsent(spec, context, new Outcome.ConnectionError("sender threw " + e));
        }
        return cancellation -> {
            try {
                RequestRecord r = prepared.send(cancellation);
                if (r != null) {
                    return r;
                }
                return unsent(spec, context, new Outcome.ConnectionError("sender returned no record"));
            } catch (RuntimeException e) {
                return unsent(spec, context, new Outcome.ConnectionError("sender threw " + e));
            }
        };
    }

    /** The workload's spec for request {@code id}, or null (failure kept) if the workload threw. */
    RequestSpec spec(long id) {
        return spec(workload, id);
    }

    /** {@code requests}' spec at {@code index} (a step's own workload), or null (failure kept) if it threw. */
    RequestSpec spec(Workload requests, long index) {
        try {
            return java.util.Objects.requireNonNull(requests.next(index), "Workload.next returned null");
        } catch (RuntimeException e) {
            fail("Workload.next", e);
            return null;
        }
    }

    /** Hands a record to the listener; a listener failure is kept and rethrown by the run. */
    void deliver(RequestRecord record) {
        try {
            listener.requestFinished(record);
        } catch (RuntimeException e) {
            fail("RunListener.requestFinished", e);
        }
    }

    /** Keeps the first failure of caller-supplied code on a request thread (listener, workload). */
    void fail(String where, RuntimeException e) {
        failure.compareAndSet(null, new IllegalStateException(where + " failed: " + e, e));
    }

    /** Throws the first failure kept by {@link #fail}, if any. */
    void rethrowFailure() {
        IllegalStateException e = failure.get();
        if (e != null) {
            throw e;
        }
    }

    /** The record of a request that was never dispatched (dropped, or cancelled before dispatch). */
    RequestRecord unsent(RequestSpec spec, RequestContext context, Outcome outcome) {
        RequestRecord.Builder b = context.recordBuilder(spec);
        b.endNanos = clock.now();
        b.outcome = outcome;
        return b.build();
    }
}
