package dev.kneepoint.load;

import dev.kneepoint.metrics.Outcome;
import dev.kneepoint.metrics.RequestRecord;
import dev.kneepoint.request.Cancellation;
import dev.kneepoint.request.RequestSender;
import java.time.Duration;
import java.util.Objects;
import java.util.concurrent.atomic.AtomicBoolean;

/**
 * Users who give up: a {@code rate} share of the requests, chosen by their id and the {@code seed} (the same
 * requests in every rerun), are closed by the client mid-request, {@code after} their dispatch or once they received
 * {@code afterTokens} output tokens, if they have not ended by then (AIPerf's request cancellation). Such a request
 * ends {@code ABANDONED} with what it received, neither OK nor a failure; the server sees the connection close and
 * frees the request's slot, which shows in the others' latency.
 *
 * <p>{@link #applyTo} wraps a sender: a chosen request is sent with a cancellation of its own, which a step's stop
 * also fires, and which a virtual thread fires at {@code after} (it ends with the request) or once the client's count
 * reaches {@code afterTokens} ({@link Cancellation#onTokens}); the transport's usual cancel path closes the exchange,
 * so a request given up after N tokens may have received a few more by then. Thread-safe.
 *
 * @param rate        the share of requests given up, in (0, 1]
 * @param after       how long after its dispatch a chosen request is given up; null when by tokens
 * @param afterTokens how many output tokens a chosen request receives before it is given up; 0 when by time
 * @param seed        which requests are chosen
 */
public record Abandonment(double rate, Duration after, int afterTokens, long seed) {

    public Abandonment {
        if (!(rate > 0 && rate <= 1)) {
            throw new IllegalArgumentException("abandonment rate must be a share in (0, 1], e.g. 0.1, got " + rate);
        }
        if ((after == null) == (afterTokens == 0)) {
            throw new IllegalArgumentException("abandonment needs either a time after dispatch or a token count, "
                    + "not both nor neither");
        }
        if (after != null && (after.isNegative() || after.isZero())) {
            throw new IllegalArgumentException("abandonment needs a positive time after dispatch, got " + after);
        }
        if (afterTokens < 0) {
            throw new IllegalArgumentException("abandonment needs a positive token count, got " + afterTokens);
        }
    }

    /** Gives up the chosen requests {@code after} their dispatch. */
    public static Abandonment afterTime(double rate, Duration after, long seed) {
        return new Abandonment(rate, Objects.requireNonNull(after, "after"), 0, seed);
    }

    /** Gives up the chosen requests once they received {@code tokens} output tokens. */
    public static Abandonment afterTokens(double rate, int tokens, long seed) {
        if (tokens < 1) {
            throw new IllegalArgumentException("abandonment needs a positive token count, got " + tokens);
        }
        return new Abandonment(rate, null, tokens, seed);
    }

    /** Whether the request of run id {@code id} is one that is given up. */
    public boolean chosen(long id) {
        return (mix(seed ^ mix(id)) >>> 11) * 0x1.0p-53 < rate;
    }

    /** When a chosen request is given up, in words: {@code 500 ms after dispatch}, {@code after 16 tokens}. */
    public String when() {
        if (after == null) {
            return "after " + afterTokens + " tokens";
        }
        long ms = after.toMillis();
        return (after.equals(Duration.ofMillis(ms)) ? Long.toString(ms) : Double.toString(after.toNanos() / 1e6))
                + " ms after dispatch";
    }

    /** {@code sender} giving up the chosen requests; the others go unchanged. */
    public RequestSender applyTo(RequestSender sender) {
        return RequestSender.wrapping(sender, (prepared, context) ->
                chosen(context.id()) ? step -> sendGivingUp(prepared, step) : prepared);
    }

    /** Sends with a cancellation of the request's own, fired by its trigger or by the step's. */
    private RequestRecord sendGivingUp(RequestSender.Prepared prepared, Cancellation step) {
        Cancellation own = new Cancellation();
        step.onCancel(own::cancel);
        step.onProgress(own::progress);
        Thread timer = null;
        if (after != null) {
            timer = Thread.ofVirtual().start(() -> {
                try {
                    Thread.sleep(after);
                    own.cancel();
                } catch (InterruptedException e) {
                    // the request ended first
                }
            });
        } else {
            AtomicBoolean fired = new AtomicBoolean();
            own.onTokens(n -> {
                if (n >= afterTokens && fired.compareAndSet(false, true)) {
                    Thread.ofVirtual().start(own::cancel); // not on the read path that told us
                }
            });
        }
        RequestRecord r;
        try {
            r = prepared.send(own);
        } finally {
            if (timer != null) {
                timer.interrupt();
            }
        }
        if (r.outcome() instanceof Outcome.Cancelled && own.isCancelled() && !step.isCancelled()) {
            RequestRecord.Builder b = r.toBuilder();
            b.outcome = new Outcome.Abandoned("given up " + when());
            return b.build();
        }
        return r;
    }

    private static long mix(long z) {
        z = (z ^ (z >>> 30)) * 0xbf58476d1ce4e5b9L;
        z = (z ^ (z >>> 27)) * 0x94d049bb133111ebL;
        return z ^ (z >>> 31);
    }
}
