package dev.kneepoint.client;

import java.util.ArrayDeque;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;

/**
 * The {@link NioLoop}'s idle keep-alive connections per {@code host:port}, newest reused first, bounded
 * over all hosts. Loop thread only; it only files connections, the loop checks and closes them.
 */
final class NioPool {
    private final Map<String, ArrayDeque<NioConnection>> idle = new HashMap<>();
    private final int max;
    private int count;

    NioPool(int max) {
        this.max = max;
    }

    static String key(TargetConfig t) {
        return t.endpoint().host() + ":" + t.endpoint().port();
    }

    /** The newest idle connection for {@code key}, taken out of the pool, or null. */
    NioConnection take(String key) {
        ArrayDeque<NioConnection> q = idle.get(key);
        if (q == null || q.isEmpty()) {
            return null;
        }
        NioConnection c = q.pollLast();
        c.pooled = false;
        count--;
        return c;
    }

    /** Files an idle connection; false when the pool is full (the caller closes it). */
    boolean offer(NioConnection c, long now) {
        if (count >= max) {
            return false;
        }
        c.idleSince = now;
        c.begin(null);
        c.pooled = true;
        idle.computeIfAbsent(c.poolKey, k -> new ArrayDeque<>()).addLast(c);
        count++;
        return true;
    }

    /** Takes {@code c} out of the pool if it is there. */
    void remove(NioConnection c) {
        if (c.pooled) {
            c.pooled = false;
            ArrayDeque<NioConnection> q = idle.get(c.poolKey);
            if (q != null && q.remove(c)) {
                count--;
            }
        }
    }

    /** Every idle connection (a copy, for closing them all). */
    List<NioConnection> all() {
        List<NioConnection> all = new ArrayList<>(count);
        idle.values().forEach(all::addAll);
        return all;
    }
}
