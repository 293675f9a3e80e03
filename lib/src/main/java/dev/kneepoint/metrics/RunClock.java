package dev.kneepoint.metrics;

import java.util.Objects;
import java.util.function.LongSupplier;

/**
 * The one monotonic clock of a run: {@link #now()} is nanoseconds since the run started.
 * Tests inject a {@link LongSupplier} so that schedules are exact.
 */
public final class RunClock {
    private final LongSupplier nanoTime;
    private final long originNanos;

    private RunClock(LongSupplier nanoTime) {
        this.nanoTime = Objects.requireNonNull(nanoTime, "nanoTime");
        this.originNanos = nanoTime.getAsLong();
    }

    /** A clock on {@link System#nanoTime()} whose zero is now. */
    public static RunClock system() {
        return new RunClock(System::nanoTime);
    }

    /** A clock on an injected time source whose zero is the source's current value. */
    public static RunClock of(LongSupplier nanoTime) {
        return new RunClock(nanoTime);
    }

    /** Nanoseconds since the run started. */
    public long now() {
        return nanoTime.getAsLong() - originNanos;
    }

    /** The raw time-source value at the run's zero (to convert to and from absolute nano time). */
    public long originNanos() {
        return originNanos;
    }
}
