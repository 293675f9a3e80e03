package dev.kneepoint.client;

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
}
