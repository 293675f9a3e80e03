package dev.kneepoint.client;

import java.io.IOException;
import java.nio.ByteBuffer;
import java.util.ArrayDeque;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.HashSet;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.function.Consumer;

/**
 * The {@link NioLoop}'s idle keep-alive connections per {@code host:port}, newest reused first, bounded
 * over all hosts, and the hosts learnt to close kept-alive connections without saying so (their connections are
 * no longer pooled). Loop thread only; it files connections and checks them before reuse
 * ({@link #takeReusable}); the loop closes them.
 */
final class NioPool {
    /**
     * A pooled connection idle longer than this is closed rather than reused: 2 s, below the 5 s keep-alive
     * timeout of common servers (uvicorn for vLLM/SGLang, cpp-httplib for llama-server, Node), so a server
     * closing an idle connection at the moment it is reused cannot make a request meet a stale connection
     * (which would be resent, the lost attempt counted inside its TTFT).
     */
    static final long IDLE_KEEP_NANOS = 2_000_000_000L;
    /**
     * A server that closes a pooled connection within this time of its last response, without having said
     * {@code Connection: close}, closes connections after responses (not on an idle timeout, which common servers
     * set to 5 s or more): its connections are no longer pooled ({@link #learnClosesUnannounced}).
     */
    static final long UNANNOUNCED_CLOSE_NANOS = 1_000_000_000L;

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

    /**
     * The newest idle connection for {@code key} fit for reuse at {@code loopNanos}, taken out of the pool and
     * marked {@code reused}, or null; those idle too long ({@link #IDLE_KEEP_NANOS}) or not {@link #healthy}
     * on the way are taken out and handed to {@code close}. {@code readBuf} is the loop's read buffer.
     */
    NioConnection takeReusable(String key, long loopNanos, ByteBuffer readBuf, Consumer<NioConnection> close) {
        for (NioConnection c; (c = take(key)) != null; ) {
            if (loopNanos - c.idleSince < IDLE_KEEP_NANOS && healthy(c, readBuf)) {
                c.reused = true;
                return c;
            }
            close.accept(c);
        }
        return null;
    }

    /**
     * A pooled connection is healthy when a non-blocking read finds neither data nor end of stream; one the
     * server closed soon after its response teaches the pool that this server does so.
     */
    private boolean healthy(NioConnection c, ByteBuffer readBuf) {
        int n;
        try {
            readBuf.clear();
            n = c.channel.isOpen() ? c.channel.read(readBuf) : -1;
        } catch (IOException e) {
            n = -1;
        }
        if (n < 0) {
            closedWhileIdle(c);
        }
        return n == 0;
    }

    /** The server closed (or reset) the pooled connection {@code c}. */
    void closedWhileIdle(NioConnection c) {
        // the clock now, not loopNanos: the loop may have slept (or had no thread) since it last read the clock
        if (System.nanoTime() - c.idleSince < UNANNOUNCED_CLOSE_NANOS) {
            learnClosesUnannounced(c.poolKey);
        }
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
