package dev.kneepoint.request;

import dev.kneepoint.metrics.RequestRecord;
import java.util.function.IntConsumer;
import java.util.function.Supplier;

/**
 * A cancel signal shared between the load step (which cancels) and a request in flight
 * (which registers how to abort its transport). Thread-safe; cancelling is idempotent and a
 * hook registered after cancellation runs at once.
 */
public final class Cancellation {
    private boolean cancelled;
    private Runnable hook;
    private Supplier<RequestRecord> progress;
    private volatile IntConsumer tokens;

    /** Registers the action that aborts the in-flight transport (replacing any earlier one). */
    public void onCancel(Runnable action) {
        boolean runNow;
        synchronized (this) {
            hook = action;
            runNow = cancelled;
        }
        if (runNow && action != null) {
            action.run();
        }
    }

    /** Cancels; the registered hook runs on the calling thread. */
    public void cancel() {
        Runnable toRun;
        synchronized (this) {
            if (cancelled) {
                return;
            }
            cancelled = true;
            toRun = hook;
        }
        if (toRun != null) {
            toRun.run();
        }
    }

    public synchronized boolean isCancelled() {
        return cancelled;
    }

    /**
     * Registers (optional, replacing any earlier one) how another thread can read what the request has measured
     * so far: a load step that stops waiting for a cancelled request whose thread has not ended (a starved
     * machine) records it {@code CANCELLED} itself, with these measurements (docs/RELIABILITY.md). The supplier
     * is called on that other thread, at most once per stop, while the request may still run: it must be
     * thread-safe and quick, and may return null.
     */
    public void onProgress(Supplier<RequestRecord> snapshot) {
        synchronized (this) {
            progress = snapshot;
        }
    }

    /**
     * Registers (optional, replacing any earlier one) a listener that the sender tells the request's output tokens so
     * far, as the client counts them, after each token-carrying event. It is called on the request's read path: it
     * must be quick, must not block, and must not cancel on that thread (hand the cancel to another).
     */
    public void onTokens(IntConsumer listener) {
        tokens = listener;
    }

    /** The listener of {@link #onTokens}, or null: for a sender to tell. */
    public IntConsumer tokenListener() {
        return tokens;
    }

    /** What the request measured so far (see {@link #onProgress}); null when no sender registered it or it failed. */
    public RequestRecord progress() {
        Supplier<RequestRecord> p;
        synchronized (this) {
            p = progress;
        }
        if (p == null) {
            return null;
        }
        try {
            return p.get();
        } catch (RuntimeException e) {
            return null; // a snapshot is an extra: the record is written without it
        }
    }
}
