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
import java.util.function.BiPredicate;

/**
 * A scripted server with stragglers: a request for which {@code straggles} holds ignores its cancellation and
 * every interrupt until {@link #release()} (as a transport stuck in uninterruptible I/O on a starved machine
 * would), then ends {@code OK} with one token. The others honour the cancellation at once and end
 * {@code CANCELLED} with {@code t_first_byte = t_dispatch} as a marker: a record the worker wrote itself.
 */
final class StragglingSender implements RequestSender {
    private final BiPredicate<RequestSpec, RequestContext> straggles;
    private final CountDownLatch release = new CountDownLatch(1);
    final AtomicInteger entered = new AtomicInteger();
    final AtomicInteger returned = new AtomicInteger();
    /** The dispatch time the sender took for each request it saw: the requests "the server" received. */
    final Map<Long, Long> dispatchById = new ConcurrentHashMap<>();
    final List<Thread> threads = new CopyOnWriteArrayList<>();

    /**
     * Stragglers for which this holds publish their progress ({@link Cancellation#onProgress}): one token at
     * dispatch, which is also the first answer token, on a request that was resent.
     */
    private final BiPredicate<RequestSpec, RequestContext> publishes;

    StragglingSender(BiPredicate<RequestSpec, RequestContext> straggles) {
        this(straggles, (spec, ctx) -> false);
    }

    StragglingSender(BiPredicate<RequestSpec, RequestContext> straggles, BiPredicate<RequestSpec, RequestContext> publishes) {
        this.straggles = straggles;
        this.publishes = publishes;
    }

    void release() {
        release.countDown();
    }

    @Override
    public RequestRecord execute(RequestSpec spec, RequestContext context, Cancellation cancellation) {
        RequestRecord.Builder b = context.recordBuilder(spec);
        b.dispatchNanos = context.clock().now();
        dispatchById.put(context.id(), b.dispatchNanos);
        threads.add(Thread.currentThread());
        entered.incrementAndGet();
        try {
            if (straggles.test(spec, context)) {
                if (publishes.test(spec, context)) {
                    RequestRecord.Builder p = context.recordBuilder(spec);
                    p.dispatchNanos = b.dispatchNanos;
                    p.firstByteNanos = b.dispatchNanos;
                    p.firstTokenNanos = b.dispatchNanos;
                    p.lastTokenNanos = b.dispatchNanos;
                    p.chunkNanos = new long[] {b.dispatchNanos};
                    p.chunkTokens = new int[] {1};
                    p.outputTokens = 1;
                    p.firstAnswerNanos = b.dispatchNanos;
                    p.retried = true;
                    p.outcome = Outcome.CANCELLED;
                    RequestRecord snapshot = p.build();
                    cancellation.onProgress(() -> snapshot);
                }
                awaitIgnoringInterrupts(release);
                long t = context.clock().now();
                b.firstByteNanos = t;
                b.firstTokenNanos = t;
                b.lastTokenNanos = t;
                b.endNanos = t;
                b.chunkNanos = new long[] {t};
                b.chunkTokens = new int[] {1};
                b.outputTokens = 1;
                return b.build();
            }
            CountDownLatch cancelled = new CountDownLatch(1);
            cancellation.onCancel(cancelled::countDown);
            try {
                cancelled.await(60, TimeUnit.SECONDS);
            } catch (InterruptedException e) {
                // an interrupt ends it too
            }
            b.firstByteNanos = b.dispatchNanos;
            b.endNanos = context.clock().now();
            b.outcome = Outcome.CANCELLED;
            return b.build();
        } finally {
            returned.incrementAndGet();
        }
    }

    private static void awaitIgnoringInterrupts(CountDownLatch latch) {
        boolean interrupted = false;
        long deadline = System.nanoTime() + TimeUnit.SECONDS.toNanos(60); // a test that forgets to release ends anyway
        while (System.nanoTime() < deadline) {
            try {
                if (latch.await(deadline - System.nanoTime(), TimeUnit.NANOSECONDS)) {
                    break;
                }
            } catch (InterruptedException e) {
                interrupted = true;
            }
        }
        if (interrupted) {
            Thread.currentThread().interrupt();
        }
    }

    /** Waits until every request thread the sender saw has ended (up to {@code millis}); true if they all did. */
    boolean allThreadsEnded(long millis) throws InterruptedException {
        return FakeSender.allEnded(threads, millis);
    }
}
