package dev.kneepoint.request;

import dev.kneepoint.metrics.RequestRecord;

/**
 * Sends one request and measures it. Implementations are thread-safe and shared by all requests
 * of a run.
 *
 * <p>{@link #execute} blocks the calling thread (load steps call it on a virtual thread per request)
 * until the request has ended, and returns its record. It never throws for a request failure: every
 * failure is an {@link dev.kneepoint.metrics.Outcome}. It records {@code t_dispatch} itself, on the
 * context's clock, just before it starts sending. When {@code cancellation} fires it aborts the
 * transport and returns a record whose outcome is {@code CANCELLED} (keeping what was measured).
 */
@FunctionalInterface
public interface RequestSender {
    RequestRecord execute(RequestSpec spec, RequestContext context, Cancellation cancellation);

    /**
     * Does ahead of the request's instant the work that need not wait for it (building the request's bytes), so that
     * an open-loop step can send at its planned instant with nothing left to do but send. {@link Prepared#send} then
     * behaves as {@link #execute} and stamps {@code t_dispatch} when it is called. The default prepares nothing.
     *
     * @throws IllegalArgumentException when the spec cannot be written as a request (as {@link #execute} would)
     */
    default Prepared prepare(RequestSpec spec, RequestContext context) {
        return cancellation -> execute(spec, context, cancellation);
    }

    /**
     * A sender that prepares through {@code inner} and hands each prepared request to {@code wrap} (a decorator:
     * giving some up, checking their answers); its {@link #execute} prepares and sends at once.
     */
    static RequestSender wrapping(RequestSender inner, java.util.function.BiFunction<Prepared, RequestContext,
            Prepared> wrap) {
        java.util.Objects.requireNonNull(inner, "inner");
        return new RequestSender() {
            @Override
            public RequestRecord execute(RequestSpec spec, RequestContext context, Cancellation cancellation) {
                return prepare(spec, context).send(cancellation);
            }

            @Override
            public Prepared prepare(RequestSpec spec, RequestContext context) {
                return wrap.apply(inner.prepare(spec, context), context);
            }
        };
    }

    /** A request of {@link #prepare}, ready to go. */
    @FunctionalInterface
    interface Prepared {
        /** Sends the prepared request and blocks until it ended, as {@link RequestSender#execute} does. */
        RequestRecord send(Cancellation cancellation);
    }
}
