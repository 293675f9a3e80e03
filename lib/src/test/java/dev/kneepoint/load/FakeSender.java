package dev.kneepoint.load;

import dev.kneepoint.metrics.Outcome;
import dev.kneepoint.metrics.RequestRecord;
import dev.kneepoint.request.Cancellation;
import dev.kneepoint.request.RequestContext;
import dev.kneepoint.request.RequestSender;
import dev.kneepoint.request.RequestSpec;
import java.util.List;
import java.util.Map;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.function.LongUnaryOperator;

/**
 * A scripted "server" on the run clock: the first (and only) token of a request dispatched at
 * {@code d} arrives at {@code firstTokenAt(d)}. Honours {@link Cancellation} (and interrupts): a
 * cancelled request returns at once as {@code CANCELLED}. Counts requests in flight and remembers the
 * thread each request ran on.
 */
final class FakeSender implements RequestSender {
    private final LongUnaryOperator firstTokenAt;
    final AtomicInteger inFlight = new AtomicInteger();
    final AtomicInteger maxInFlight = new AtomicInteger();
    final List<Thread> threads = new CopyOnWriteArrayList<>();
    final Map<Long, String> threadNameById = new ConcurrentHashMap<>();

    FakeSender(LongUnaryOperator firstTokenAt) {
        this.firstTokenAt = firstTokenAt;
    }

    /** A server that answers every request after a fixed latency. */
    static FakeSender fixedLatency(long latencyNanos) {
        return new FakeSender(d -> d + latencyNanos);
    }

    static long ms(long millis) {
        return TimeUnit.MILLISECONDS.toNanos(millis);
    }

    @Override
    public RequestRecord execute(RequestSpec spec, RequestContext context, Cancellation cancellation) {
        RequestRecord.Builder b = context.recordBuilder(spec);
        b.dispatchNanos = context.clock().now();
        int now = inFlight.incrementAndGet();
        maxInFlight.accumulateAndGet(now, Math::max);
        threads.add(Thread.currentThread());
        threadNameById.put(context.id(), Thread.currentThread().getName());
        try {
            CountDownLatch cancelled = new CountDownLatch(1);
            cancellation.onCancel(cancelled::countDown);
            long remaining = firstTokenAt.applyAsLong(b.dispatchNanos) - context.clock().now();
            boolean wasCancelled;
            try {
                wasCancelled = remaining > 0 ? cancelled.await(remaining, TimeUnit.NANOSECONDS)
                        : cancellation.isCancelled();
            } catch (InterruptedException e) {
                wasCancelled = true;
            }
            long t = context.clock().now();
            b.endNanos = t;
            if (wasCancelled) {
                b.outcome = Outcome.CANCELLED;
            } else {
                b.firstByteNanos = t;
                b.firstTokenNanos = t;
                b.lastTokenNanos = t;
                b.chunkNanos = new long[] {t};
                b.chunkTokens = new int[] {1};
                b.outputTokens = 1;
            }
            return b.build();
        } finally {
            inFlight.decrementAndGet();
        }
    }

    /** True once every thread that ran a request has ended (waits up to {@code millis} in total). */
    boolean allThreadsEnded(long millis) throws InterruptedException {
        return allEnded(threads, millis);
    }

    /** True once every one of {@code threads} has ended, waiting up to {@code millis} in total. */
    static boolean allEnded(List<Thread> threads, long millis) throws InterruptedException {
        long deadline = System.nanoTime() + ms(millis);
        for (Thread t : threads) {
            long left = deadline - System.nanoTime();
            if (left > 0) {
                t.join(java.time.Duration.ofNanos(left));
            }
            if (t.isAlive()) {
                return false;
            }
        }
        return true;
    }
}
