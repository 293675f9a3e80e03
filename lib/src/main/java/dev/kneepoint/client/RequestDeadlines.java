package dev.kneepoint.client;

import dev.kneepoint.metrics.Outcome.TimeoutKind;
import java.util.concurrent.TimeUnit;
import okhttp3.Call;
import okio.AsyncTimeout;

/**
 * The first-token, idle and total deadlines of one request, watched by okio's shared watchdog
 * thread (the one OkHttp already uses for its own socket timeouts, so no new thread or pool).
 *
 * <p>Armed around every blocking step: until the first token the deadline is
 * {@code min(dispatch + firstToken, dispatch + total)}; once tokens flow each read may last
 * {@code idle}, still bounded by the total deadline. When it fires it records which deadline was
 * passed (checked against the clock, total first) and cancels the call; the blocked read then
 * fails and the client reports {@code TIMEOUT(kind)}.
 */
final class RequestDeadlines extends AsyncTimeout {
    private final long firstTokenAt;
    private final long totalAt;
    private final long idleNanos;
    private final Call call;
    private volatile boolean tokensFlowing;
    private volatile TimeoutKind fired;
    private boolean entered;

    RequestDeadlines(Call call, long dispatchSystemNanos, TargetConfig t) {
        this.call = call;
        this.firstTokenAt = dispatchSystemNanos + t.firstTokenTimeout().toNanos();
        this.totalAt = dispatchSystemNanos + t.totalTimeout().toNanos();
        this.idleNanos = t.idleTimeout().toNanos();
    }

    /** Starts watching the next blocking step. */
    void arm() {
        if (entered) {
            return;
        }
        if (tokensFlowing) {
            timeout(idleNanos, TimeUnit.NANOSECONDS);
            deadlineNanoTime(totalAt);
        } else {
            clearTimeout();
            deadlineNanoTime(firstTokenAt - totalAt < 0 ? firstTokenAt : totalAt);
        }
        entered = true;
        enter();
    }

    /** Stops watching (after the blocking step returned). */
    void disarm() {
        if (entered) {
            entered = false;
            exit();
        }
    }

    /** From now on the idle deadline applies instead of the first-token one. */
    void tokensFlowing() {
        tokensFlowing = true;
    }

    /** Which deadline fired, or null. */
    TimeoutKind fired() {
        return fired;
    }

    @Override
    protected void timedOut() {
        long now = System.nanoTime();
        TimeoutKind kind;
        if (now - totalAt >= 0) {
            kind = TimeoutKind.TOTAL;
        } else if (!tokensFlowing && now - firstTokenAt >= 0) {
            kind = TimeoutKind.FIRST_TOKEN;
        } else {
            kind = TimeoutKind.IDLE;
        }
        fired = kind;
        call.cancel();
    }
}
