package dev.kneepoint.client;

import dev.kneepoint.metrics.Outcome;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.net.InetSocketAddress;
import java.net.StandardSocketOptions;
import java.nio.ByteBuffer;
import java.nio.channels.SelectionKey;
import java.nio.channels.Selector;
import java.nio.channels.SocketChannel;
import java.util.ArrayList;
import java.util.HashSet;
import java.util.Set;
import java.util.concurrent.ConcurrentLinkedQueue;

/**
 * The selector thread of the {@link Transport#NIO} transport: owns every socket, writes requests,
 * parses responses, feeds each request's SSE parser with one timestamp per read, enforces the
 * connect, first-token, idle and total deadlines and keeps idle keep-alive connections per host.
 *
 * <p>One process-wide loop (like OkHttp's shared connection pool) whose daemon platform thread runs only
 * while requests are in flight: it starts with the first request and ends {@link #LINGER_NANOS} after the
 * last one; pooled connections stay registered with the selector meanwhile. Deadlines are checked
 * exactly when the earliest one is due, not by polling. A pooled
 * connection is checked before reuse (a non-blocking read must find nothing) and dropped as soon as
 * the server closes it while idle; a server seen closing kept-alive connections soon after a response without
 * {@code Connection: close} (llama-server after every streamed response) gets no more pooled connections. A
 * request that still meets a connection the server closed as it was reused, before any byte of the response,
 * is sent once more on a fresh connection and its record says so ({@code retried}); nothing else is retried.
 * A stream that ended at {@code [DONE]} before its body's last chunk hands its connection back only
 * once the body has ended within {@link #DRAIN_NANOS} and {@link #DRAIN_BYTES}; otherwise it is closed.
 */
final class NioLoop implements Runnable {
    /** Idle connections kept over all hosts. */
    static final int MAX_IDLE_CONNECTIONS = 4096;
    static final long DRAIN_NANOS = 1_000_000_000L;
    static final long DRAIN_BYTES = 64 * 1024;
    /** How long the loop thread outlives its last request (so no thread of ours survives a run for long). */
    static final long LINGER_NANOS = 200_000_000L;

    private static volatile NioLoop shared;

    private final Selector selector;
    private final ConcurrentLinkedQueue<NioExchange> starts = new ConcurrentLinkedQueue<>();
    private final ConcurrentLinkedQueue<NioExchange> cancels = new ConcurrentLinkedQueue<>();
    /** Pool keys ({@code host:port}) whose idle connections are to be closed. */
    private final ConcurrentLinkedQueue<String> evictKeys = new ConcurrentLinkedQueue<>();
    private final Set<NioExchange> active = new HashSet<>();
    private final Set<NioConnection> draining = new HashSet<>();
    private final NioPool idle = new NioPool(MAX_IDLE_CONNECTIONS);
    private final byte[] readArray = new byte[64 * 1024];
    private final ByteBuffer readBuf = ByteBuffer.wrap(readArray);
    private final NioDeadlines deadlines = new NioDeadlines();
    private long loopNanos;
    private volatile boolean evictIdle;
    private final NioLoopThread thread = new NioLoopThread("kneepoint-nio", LINGER_NANOS);

    private NioLoop() throws IOException {
        selector = Selector.open();
    }

    /** The process-wide loop, started on first use. */
    static NioLoop shared() {
        NioLoop l = shared;
        if (l == null) {
            synchronized (NioLoop.class) {
                l = shared;
                if (l == null) {
                    try {
                        l = new NioLoop();
                    } catch (IOException e) {
                        throw new UncheckedIOException("cannot open a selector for the NIO transport", e);
                    }
                    shared = l;
                }
            }
        }
        return l;
    }

    /** Hands a request to the loop (any thread). */
    void submit(NioExchange x) {
        starts.add(x);
        ensureRunning();
        selector.wakeup();
    }

    /** Starts the loop thread unless it runs; it ends by itself after {@link #LINGER_NANOS} without requests. */
    private void ensureRunning() {
        thread.ensureRunning(this);
    }

    /** True when the thread may end: nothing in flight, queued or draining (pooled sockets wait without it). */
    private boolean quiet() {
        return active.isEmpty() && draining.isEmpty() && starts.isEmpty() && cancels.isEmpty() && !evictIdle
                && evictKeys.isEmpty();
    }

    /** Asks the loop to cancel a request (any thread). */
    void cancel(NioExchange x) {
        cancels.add(x);
        selector.wakeup();
    }

    /** Closes the shared loop's idle keep-alive connections, if the loop was ever started (any thread). */
    static void evictIdleConnections() {
        NioLoop l = shared;
        if (l != null) {
            l.evictIdle = true;
            l.ensureRunning();
            l.selector.wakeup();
        }
    }

    /**
     * Closes the shared loop's idle keep-alive connections to {@code target}'s host and port, if the loop
     * was ever started (any thread): what a closed client leaves behind.
     */
    static void evictIdleConnections(TargetConfig target) {
        NioLoop l = shared;
        if (l != null) {
            l.evictKeys.add(NioPool.key(target));
            l.ensureRunning();
            l.selector.wakeup();
        }
    }

    /** Called by {@link NioExchange#complete} on the loop thread. */
    void detach(NioExchange x) {
        active.remove(x);
    }

    @Override
    public void run() {
        while (true) {
            try {
                long now = System.nanoTime();
                if (thread.shouldEnd(now, this::quiet)) {
                    return;
                }
                long wait = thread.capWait(deadlines.waitMillis(now));
                if (deadlines.overdue(now)) {
                    selector.selectNow(this::ready);
                } else {
                    selector.select(this::ready, wait);
                }
                loopNanos = System.nanoTime();
                for (NioExchange x; (x = starts.poll()) != null; ) {
                    start(x);
                }
                processCancels();
                if (evictIdle) {
                    evictIdle = false;
                    idle.all().forEach(this::close);
                    idle.forget(null);
                }
                for (String key; (key = evictKeys.poll()) != null; ) {
                    idle.forget(key);
                    for (NioConnection c; (c = idle.take(key)) != null; ) {
                        close(c);
                    }
                }
                if (deadlines.reached(loopNanos)) {
                    deadlines.scan(loopNanos, active, draining, this::close);
                }
            } catch (IOException | RuntimeException | Error e) {
                failAll(e);
            }
        }
    }

    /**
     * Ends the requests whose cancellation was asked for; also called between ready sockets, so that a
     * step's end does not wait for a long batch of reads.
     */
    private void processCancels() {
        for (NioExchange x; (x = cancels.poll()) != null; ) {
            if (active.contains(x)) {
                NioConnection c = x.connection;
                x.cancelled();
                close(c);
            }
        }
    }

    private void start(NioExchange x) {
        if (x.cancelRequested) {
            x.cancelled();
            return;
        }
        active.add(x);
        deadlines.due(x.deadline());
        NioConnection c = idle.takeReusable(NioPool.key(x.target), loopNanos, readBuf, this::close);
        try {
            if (c != null) {
                x.connected = true;
                c.begin(x);
                write(c);
            } else {
                connect(x);
            }
        } catch (IOException e) {
            NioConnection broken = x.connection;
            if (!retryStale(broken, x)) {
                x.failed(e);
                close(broken);
            }
        }
    }

    /**
     * When {@code x} failed on a connection from the pool before any byte of its response came, the server
     * closed that connection as it was reused (a stale connection): sends {@code x} once more on a fresh
     * connection, marks its record {@code retried} and stops pooling that server's connections. False when
     * this rule does not apply (the failure is then {@code x}'s outcome).
     */
    private boolean retryStale(NioConnection c, NioExchange x) {
        if (c == null || !c.reused || c.responseStarted() || x.retried || x.cancelRequested || x.isComplete()) {
            return false;
        }
        idle.learnClosesUnannounced(c.poolKey);
        close(c);
        x.retried = true;
        x.b.retried = true;
        x.connected = false;
        x.connection = null;
        x.connectStart = -1;
        try {
            connect(x);
        } catch (IOException e) {
            NioConnection broken = x.connection;
            x.failed(e);
            close(broken);
        }
        return true;
    }

    private void connect(NioExchange x) throws IOException {
        if (x.connectStart < 0) {
            x.connectStart = System.nanoTime(); // the first address tried: a failed one's time counts
            x.b.newConnection = true;
            x.b.dnsNanos = x.lookupNanos;
        }
        SocketChannel ch = SocketChannel.open();
        NioConnection c = new NioConnection(ch, NioPool.key(x.target));
        c.begin(x);
        ch.configureBlocking(false);
        ch.setOption(StandardSocketOptions.TCP_NODELAY, true);
        c.key = ch.register(selector, 0, c);
        if (ch.connect(new InetSocketAddress(x.addresses[x.addressIndex], x.target.endpoint().port()))) {
            connected(c);
        } else {
            c.key.interestOps(SelectionKey.OP_CONNECT);
        }
    }

    private void connected(NioConnection c) throws IOException {
        c.exchange.connected = true;
        c.exchange.b.connectNanos = System.nanoTime() - c.exchange.connectStart;
        deadlines.due(c.exchange.deadline());
        write(c);
    }

    private void write(NioConnection c) throws IOException {
        c.channel.write(c.out);
        c.key.interestOps(c.out.hasRemaining() ? SelectionKey.OP_WRITE | SelectionKey.OP_READ : SelectionKey.OP_READ);
    }

    private void ready(SelectionKey key) {
        if (!cancels.isEmpty()) {
            processCancels();
        }
        NioConnection c = (NioConnection) key.attachment();
        NioExchange x = c.exchange;
        try {
            if (!key.isValid()) {
                return;
            }
            if (key.isConnectable()) {
                try {
                    c.channel.finishConnect();
                } catch (IOException e) {
                    if (x != null && x.addressIndex + 1 < x.addresses.length && !x.isComplete()) {
                        x.addressIndex++;
                        close(c);
                        connect(x);
                        return;
                    }
                    throw e;
                }
                connected(c);
                return;
            }
            if (key.isWritable()) {
                write(c);
            }
            if (key.isReadable()) {
                read(c);
            }
        } catch (IOException e) {
            if (x != null && !x.isComplete() && !retryStale(c, x)) {
                x.failed(e);
            } else if (x == null && c.pooled) {
                idle.closedWhileIdle(c); // reset while idle
            }
            close(c);
        } catch (RuntimeException e) {
            // a bug must cost one request, not the loop and every stream on it
            if (x != null && !x.isComplete()) {
                x.complete(new Outcome.ConnectionError("client failure: " + Failures.describe(e)), x.clock.now());
            }
            close(c);
        }
    }

    private void read(NioConnection c) throws IOException {
        readBuf.clear();
        int n = c.channel.read(readBuf);
        if (n == 0) {
            return;
        }
        NioExchange x = c.exchange;
        if (x == null && !draining.contains(c)) {
            if (n < 0) {
                idle.closedWhileIdle(c);
            }
            close(c); // an idle pooled connection was closed by the server or sent unasked bytes
            return;
        }
        long now = x != null ? x.clock.now() : 0;
        if (n < 0) {
            c.onEof(now);
        } else {
            c.onBytes(readArray, 0, n, now);
        }
        if (x != null) {
            x.afterRead(now, loopNanos);
        }
        if (x != null && x.isComplete()) {
            c.exchange = null;
            if (!c.bodyDone()) {
                c.drainUntil = loopNanos + DRAIN_NANOS;
                if (draining.add(c)) {
                    deadlines.due(c.drainUntil);
                }
            }
        } else if (x != null && !x.isComplete()) {
            deadlines.due(x.deadline());
        }
        if (c.exchange == null) {
            if (n < 0 || c.drainedBytes > DRAIN_BYTES) {
                close(c);
            } else if (c.reusable()) {
                release(c);
            } else if (c.bodyDone()) {
                close(c);
            }
        }
    }

    private void release(NioConnection c) {
        draining.remove(c);
        c.reused = false;
        if (idle.closesUnannounced(c.poolKey) || !idle.offer(c, loopNanos)) {
            close(c);
        }
    }

    private void close(NioConnection c) {
        if (c == null) {
            return;
        }
        if (draining.remove(c)) {
            c.exchange = null;
        }
        idle.remove(c);
        try {
            c.channel.close();
        } catch (IOException e) {
            // closing a socket we give up on: nothing left to report
        }
    }

    /** Last resort when the loop itself failed: no request may wait forever. */
    private void failAll(Throwable e) {
        for (NioExchange x : new ArrayList<>(active)) {
            NioConnection c = x.connection;
            x.complete(new Outcome.ConnectionError("client failure: " + Failures.describe(e)), x.clock.now());
            close(c);
        }
    }
}
