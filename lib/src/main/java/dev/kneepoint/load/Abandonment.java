package dev.kneepoint.load;

import dev.kneepoint.metrics.Outcome;
import dev.kneepoint.metrics.RequestRecord;
import dev.kneepoint.request.Cancellation;
import dev.kneepoint.request.RequestContext;
import dev.kneepoint.request.RequestSender;
import dev.kneepoint.request.RequestSpec;
import java.time.Duration;
import java.util.Objects;
import java.util.concurrent.ScheduledFuture;
import java.util.concurrent.ScheduledThreadPoolExecutor;
import java.util.concurrent.TimeUnit;

/**
 * Users who give up: a {@code rate} share of the requests, chosen by their id and the {@code seed} (the same
 * requests in every rerun), are closed by the client {@code after} their dispatch if they have not ended by then
 * (AIPerf's request cancellation). Such a request ends {@code ABANDONED} with what it received, neither OK nor a
 * failure; the server sees the connection close and frees the request's slot, which shows in the others' latency.
 *
 * <p>{@link #applyTo} wraps a sender: the chosen requests are sent with a cancellation of their own, which a timer
 * fires at {@code after} (one shared daemon thread for all requests) and which a stop of the step also fires; the
 * transport's usual cancel path closes the exchange. Thread-safe.
 *
 * @param rate  the share of requests given up, in (0, 1]
 * @param after how long after its dispatch a chosen request is given up, positive
 * @param seed  which requests are chosen
 */
public record Abandonment(double rate, Duration after, long seed) {
    private static final ScheduledThreadPoolExecutor TIMER = timer();

    public Abandonment {
        Objects.requireNonNull(after, "after");
        if (!(rate > 0 && rate <= 1)) {
            throw new IllegalArgumentException("abandonment rate must be a share in (0, 1], e.g. 0.1, got " + rate);
        }
        if (after.isNegative() || after.isZero()) {
            throw new IllegalArgumentException("abandonment needs a positive time after dispatch, got " + after);
        }
    }

    /** Whether the request of run id {@code id} is one that is given up. */
    public boolean chosen(long id) {
        return (mix(seed ^ mix(id)) >>> 11) * 0x1.0p-53 < rate;
    }

    /** {@code sender} giving up the chosen requests; the others go unchanged. */
    public RequestSender applyTo(RequestSender sender) {
        Objects.requireNonNull(sender, "sender");
        return new RequestSender() {
            @Override
            public RequestRecord execute(RequestSpec spec, RequestContext context, Cancellation cancellation) {
                return prepare(spec, context).send(cancellation);
            }

            @Override
            public Prepared prepare(RequestSpec spec, RequestContext context) {
                Prepared prepared = sender.prepare(spec, context);
                return chosen(context.id()) ? step -> sendGivingUp(prepared, step) : prepared;
            }
        };
    }

    /** Sends with a cancellation of the request's own, fired by the timer or by the step's. */
    private RequestRecord sendGivingUp(RequestSender.Prepared prepared, Cancellation step) {
        Cancellation own = new Cancellation();
        step.onCancel(own::cancel);
        step.onProgress(own::progress);
        ScheduledFuture<?> timer = TIMER.schedule(own::cancel, after.toNanos(), TimeUnit.NANOSECONDS);
        RequestRecord r;
        try {
            r = prepared.send(own);
        } finally {
            timer.cancel(false);
        }
        if (r.outcome() instanceof Outcome.Cancelled && !step.isCancelled()) {
            RequestRecord.Builder b = r.toBuilder();
            b.outcome = new Outcome.Abandoned("given up " + after.toMillis() + " ms after dispatch");
            return b.build();
        }
        return r;
    }

    private static long mix(long z) {
        z = (z ^ (z >>> 30)) * 0xbf58476d1ce4e5b9L;
        z = (z ^ (z >>> 27)) * 0x94d049bb133111ebL;
        return z ^ (z >>> 31);
    }

    private static ScheduledThreadPoolExecutor timer() {
        ScheduledThreadPoolExecutor t = new ScheduledThreadPoolExecutor(1, r -> {
            Thread th = new Thread(r, "kneepoint-abandon");
            th.setDaemon(true);
            return th;
        });
        t.setRemoveOnCancelPolicy(true);
        return t;
    }
}
