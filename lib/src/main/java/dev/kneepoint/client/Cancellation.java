package dev.kneepoint.client;

/**
 * A cancel signal shared between the load step (which cancels) and a request in flight
 * (which registers how to abort its transport). Thread-safe; cancelling is idempotent and a
 * hook registered after cancellation runs at once.
 */
public final class Cancellation {
    private boolean cancelled;
    private Runnable hook;

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
}
