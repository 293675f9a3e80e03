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
}
