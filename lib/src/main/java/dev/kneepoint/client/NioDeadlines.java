package dev.kneepoint.client;

import java.util.ArrayList;
import java.util.List;
import java.util.Set;
import java.util.function.Consumer;

/**
 * The {@link NioLoop}'s deadline check: when it is due (the earliest deadline of any request in flight or
 * connection draining, so the loop checks exactly then instead of polling) and the check itself, which ends
 * requests whose deadline passed and connections that drained too long. Loop thread only.
 */
final class NioDeadlines {
    private long nextScan = Long.MAX_VALUE;
    private boolean scanDue;

    /** Arranges a deadline check at {@code at} (System.nanoTime) at the latest. */
    void due(long at) {
        if (!scanDue || at - nextScan < 0) {
            nextScan = at;
            scanDue = true;
        }
    }

    /** How long the selector may wait at {@code now}, in ms: until the check is due, or 0 (none due: no bound). */
    long waitMillis(long now) {
        return scanDue ? Math.max(1, (nextScan - now + 999_999) / 1_000_000) : 0;
    }

    /** True when the check is due at or before {@code now} (the selector is then not to wait). */
    boolean overdue(long now) {
        return scanDue && nextScan - now <= 0;
    }

    /** True when the check is to run at {@code now}. */
    boolean reached(long now) {
        return scanDue && now - nextScan >= 0;
    }

    /** Ends requests whose deadline passed and connections that drained too long; plans the next check. */
    void scan(long now, Set<NioExchange> active, Set<NioConnection> draining, Consumer<NioConnection> close) {
        scanDue = false;
        nextScan = Long.MAX_VALUE;
        List<NioExchange> expired = new ArrayList<>();
        for (NioExchange x : active) {
            if (x.expired(now) != null) {
                expired.add(x);
            } else {
                due(x.deadline());
            }
        }
        for (NioExchange x : expired) {
            NioConnection c = x.connection;
            x.timedOut(x.expired(now));
            close.accept(c);
        }
        List<NioConnection> stale = new ArrayList<>();
        for (NioConnection c : draining) {
            if (now - c.drainUntil >= 0) {
                stale.add(c);
            } else {
                due(c.drainUntil);
            }
        }
        stale.forEach(close);
    }
}
