package dev.kneepoint.request;


/**
 * What each request of a run sends. Deterministic by index: the same index always gives the same spec,
 * so a rerun sends the same requests. The index is the request's id within the run (unique, from 0,
 * in firing order for open loop).
 *
 * <p>Called from request threads, concurrently: implementations must be thread-safe. In an open-loop
 * step a request's spec is taken a few milliseconds before its planned instant (and an overdue one's, at a
 * stop, on the scheduler thread), so keep {@code next} quick.
 */
@FunctionalInterface
public interface Workload {
    RequestSpec next(long index);
}
