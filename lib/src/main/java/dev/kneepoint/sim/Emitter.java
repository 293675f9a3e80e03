package dev.kneepoint.sim;

import java.util.concurrent.ConcurrentLinkedQueue;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.concurrent.locks.LockSupport;

/**
 * A second emitting thread for the engine: when many outputs are due at once (a batch-synchronous
 * step, or an engine that fell behind), the engine hands the outputs of odd-numbered sequences to
 * this thread and writes the others itself, so that two cores write a burst. Each output is written
 * at (never before) its due time, in hand-off order. A stream's outputs stay in order because the
 * engine hands off only within one step and waits for this thread to be {@linkplain #awaitIdle idle}
 * before it delivers the next step. Owned by its {@link Engine}; the thread starts on the first
 * hand-off and ends with {@link #close}.
 */
final class Emitter implements Runnable {
    /** One output to write. */
    private record Out(TokenSink sink, int tokens, int generated, boolean finished, long at) {
    }

    private final ConcurrentLinkedQueue<Out> queue = new ConcurrentLinkedQueue<>();
    /** Outputs handed off and not yet written. */
    private final AtomicInteger pending = new AtomicInteger();
    private volatile Thread thread;
    private volatile Thread waiter;
    private volatile boolean closed;

    /** Whether {@code s}'s outputs go to this thread when the engine splits a burst. */
    static boolean mine(Sequence s) {
        return (s.id & 1) != 0;
    }

    /** Queues one output (engine thread); {@link #wake} then starts the writing. */
    void handOff(TokenSink sink, int tokens, int generated, boolean finished, long at) {
        pending.incrementAndGet();
        queue.add(new Out(sink, tokens, generated, finished, at));
    }

    /** Wakes this thread (starting it the first time) after a batch of hand-offs: one wake-up per batch. */
    void wake() {
        if (thread == null) {
            thread = Thread.ofPlatform().name("kneepoint-sim-emitter").daemon(true).unstarted(this);
            thread.setPriority(Thread.MAX_PRIORITY);
            thread.start();
        }
        LockSupport.unpark(thread);
    }

    /** Parks the calling (engine) thread until every handed-off output is written; false when closed. */
    boolean awaitIdle() {
        if (pending.get() == 0) {
            return true;
        }
        waiter = Thread.currentThread();
        try {
            while (pending.get() > 0 && !closed) {
                LockSupport.park(this);
            }
        } finally {
            waiter = null;
        }
        return !closed;
    }

    @Override
    public void run() {
        while (!closed) {
            Out o = queue.peek();
            if (o == null) {
                LockSupport.park(this);
                continue;
            }
            long left = o.at() - System.nanoTime();
            if (left > 0) {
                LockSupport.parkNanos(this, left);
                continue;
            }
            queue.poll();
            try {
                o.sink().onTokens(o.tokens(), o.generated(), o.finished(), o.at());
            } catch (RuntimeException e) {
                // a bug in one stream's sink must not stop the other streams (nor leave the engine waiting)
            } finally {
                if (pending.decrementAndGet() == 0) {
                    Thread w = waiter;
                    if (w != null) {
                        LockSupport.unpark(w);
                    }
                }
            }
        }
    }

    void close() {
        closed = true;
        Thread t = thread;
        if (t != null) {
            LockSupport.unpark(t);
            try {
                t.join(2000);
            } catch (InterruptedException e) {
                Thread.currentThread().interrupt();
            }
        }
        Thread w = waiter;
        if (w != null) {
            LockSupport.unpark(w);
        }
    }
}
