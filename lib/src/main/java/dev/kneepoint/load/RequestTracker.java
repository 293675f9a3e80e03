package dev.kneepoint.load;

import dev.kneepoint.client.Cancellation;
import java.util.Map;
import java.util.Set;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.locks.Condition;
import java.util.concurrent.locks.ReentrantLock;

/**
 * The threads and in-flight requests of one step: starts virtual worker threads, knows every live one
 * (to wait for them and, as a last resort, interrupt them), and cancels every request in flight.
 */
final class RequestTracker {
    private final Set<Thread> workers = ConcurrentHashMap.newKeySet();
    private final Map<Long, Cancellation> inFlight = new ConcurrentHashMap<>();
    private final ReentrantLock lock = new ReentrantLock();
    private final Condition idle = lock.newCondition();
    private volatile boolean cancelled;

    /** Starts {@code body} on a new virtual thread named {@code name}, tracked until it ends. */
    void startWorker(String name, Runnable body) {
        Thread t = Thread.ofVirtual().name(name).unstarted(() -> {
            try {
                body.run();
            } finally {
                workerEnded(Thread.currentThread());
            }
        });
        workers.add(t);
        t.start();
    }

    private void workerEnded(Thread t) {
        workers.remove(t);
        if (workers.isEmpty()) {
            lock.lock();
            try {
                idle.signalAll();
            } finally {
                lock.unlock();
            }
        }
    }

    /** Registers a request in flight; if the step is already cancelled, the cancellation fires at once. */
    Cancellation begin(long id) {
        Cancellation c = new Cancellation();
        inFlight.put(id, c);
        if (cancelled) {
            c.cancel();
        }
        return c;
    }

    void end(long id) {
        inFlight.remove(id);
    }

    int workerCount() {
        return workers.size();
    }

    /** True once {@link #cancelAll()} began: no request may be dispatched any more. */
    boolean isCancelled() {
        return cancelled;
    }

    /** Cancels every request in flight now and every one registered later. */
    void cancelAll() {
        cancelled = true;
        inFlight.values().forEach(Cancellation::cancel);
    }

    void interruptWorkers() {
        workers.forEach(Thread::interrupt);
    }

    /** Waits up to {@code timeoutNanos} for every worker to end; true if they all did. */
    boolean awaitIdle(long timeoutNanos) throws InterruptedException {
        long remaining = timeoutNanos;
        lock.lock();
        try {
            while (!workers.isEmpty()) {
                if (remaining <= 0) {
                    return false;
                }
                remaining = idle.awaitNanos(remaining);
            }
            return true;
        } finally {
            lock.unlock();
        }
    }

    /**
     * Stops what is left: cancels all requests, waits {@code graceNanos} for the workers, interrupts the
     * stragglers and waits as long again. Not interruptible itself beyond returning early (it is the
     * clean-up after an interrupt); true if every worker ended.
     */
    boolean cancelAndAwait(long graceNanos) {
        cancelAll();
        boolean interrupted = Thread.interrupted();
        try {
            if (awaitIdle(graceNanos)) {
                return true;
            }
            interruptWorkers();
            return awaitIdle(graceNanos);
        } catch (InterruptedException e) {
            interrupted = true;
            return workers.isEmpty();
        } finally {
            if (interrupted) {
                Thread.currentThread().interrupt();
            }
        }
    }

    static long millis(long ms) {
        return TimeUnit.MILLISECONDS.toNanos(ms);
    }
}
