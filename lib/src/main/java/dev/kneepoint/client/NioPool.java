package dev.kneepoint.client;

import java.util.ArrayDeque;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.HashSet;
import java.util.List;
import java.util.Map;
import java.util.Set;

/**
 * The {@link NioLoop}'s idle keep-alive connections per {@code host:port}, newest reused first, bounded
 * over all hosts, and the hosts learnt to close kept-alive connections without saying so (their connections are
 * no longer pooled). Loop thread only; it only files connections, the loop checks and closes them.
 */
final class NioPool {
    private final Map<String, ArrayDeque<NioConnection>> idle = new HashMap<>();
    private final Set<String> closesUnannounced = new HashSet<>();
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

    /**
     * Notes that the server at {@code key} closed a kept-alive connection soon after a response that did not say
     * {@code Connection: close} (llama-server's cpp-httplib does so after every streamed response): from now
     * on its connections are closed after each response instead of pooled, so none can be reused as it closes.
     */
    void learnClosesUnannounced(String key) {
        closesUnannounced.add(key);
    }

    /** True when connections to {@code key} are not to be pooled ({@link #learnClosesUnannounced}). */
    boolean closesUnannounced(String key) {
        return closesUnannounced.contains(key);
    }

    /** Forgets what was learnt about {@code key} (null: about every host), e.g. when its client closes. */
    void forget(String key) {
        if (key == null) {
            closesUnannounced.clear();
        } else {
            closesUnannounced.remove(key);
        }
    }

    /** Every idle connection (a copy, for closing them all). */
    List<NioConnection> all() {
        List<NioConnection> all = new ArrayList<>(count);
        idle.values().forEach(all::addAll);
        return all;
    }
}
