package dev.kneepoint.load;

import dev.kneepoint.metrics.RunClock;
import java.util.concurrent.locks.LockSupport;

/** Waits until an absolute instant on the run clock: park for the bulk, spin for the last stretch. */
final class Pacer {
    /** Below this much time left, spin instead of parking (Linux timer slack is ~50 µs). */
    static final long SPIN_NANOS = 100_000;

    private Pacer() {}

    /**
     * Returns true at {@code deadlineNanos} (run clock), or false as soon as the thread is interrupted
     * (the interrupt status is left set).
     */
    static boolean awaitUntil(RunClock clock, long deadlineNanos) {
        return awaitUntil(clock, deadlineNanos, SPIN_NANOS);
    }

    /** As {@link #awaitUntil(RunClock, long)}, spinning through the last {@code spinNanos}. */
    static boolean awaitUntil(RunClock clock, long deadlineNanos, long spinNanos) {
        while (!Thread.currentThread().isInterrupted()) {
            long remaining = deadlineNanos - clock.now();
            if (remaining <= 0) {
                return true;
            }
            if (remaining > spinNanos) {
                LockSupport.parkNanos(remaining - spinNanos);
            } else {
                Thread.onSpinWait();
            }
        }
        return false;
    }
}
