package dev.kneepoint.client;

import java.util.function.BooleanSupplier;

/**
 * The life of {@link NioLoop}'s thread: started on demand by any thread, ended by the loop itself once it has been
 * quiet (nothing in flight, queued or draining) for the linger time. The decision to end is taken again under the
 * lock that {@link #ensureRunning} takes, so work handed over while the thread ends finds a new one.
 */
final class NioLoopThread {
    private final String name;
    private final long lingerNanos;
    private final Object lock = new Object();
    /** Guarded by {@link #lock}. */
    private boolean running;
    /** When the loop fell quiet, or -1 while it is busy; loop thread only. */
    private long quietSince = -1;

    NioLoopThread(String name, long lingerNanos) {
        this.name = name;
        this.lingerNanos = lingerNanos;
    }

    /** Starts a daemon platform thread running {@code loop} unless one runs (any thread). */
    void ensureRunning(Runnable loop) {
        synchronized (lock) {
            if (!running) {
                running = true;
                Thread.ofPlatform().name(name).daemon(true).start(loop);
            }
        }
    }

    /**
     * Called by the loop thread at the top of each turn: true when it is to end now, the loop having been
     * {@code quiet} for the linger time and still being so.
     */
    boolean shouldEnd(long nowNanos, BooleanSupplier quiet) {
        if (!quiet.getAsBoolean()) {
            quietSince = -1;
        } else if (quietSince < 0) {
            quietSince = nowNanos;
        } else if (nowNanos - quietSince >= lingerNanos) {
            synchronized (lock) {
                if (quiet.getAsBoolean()) {
                    running = false;
                    quietSince = -1;
                    return true;
                }
            }
        }
        return false;
    }

    /**
     * The selector wait in ms ({@code 0}: no deadline, wait for a wakeup), capped at the linger time while the loop
     * is quiet, so that the thread wakes up to end on time.
     */
    long capWait(long waitMillis) {
        if (quietSince < 0) {
            return waitMillis;
        }
        long linger = lingerNanos / 1_000_000;
        return waitMillis == 0 ? linger : Math.min(waitMillis, linger);
    }
}
