package dev.kneepoint.sim;

import java.io.BufferedInputStream;
import java.io.IOException;
import java.io.InputStream;
import java.net.InetAddress;
import java.net.InetSocketAddress;
import java.net.StandardSocketOptions;
import java.nio.channels.Channels;
import java.nio.channels.ServerSocketChannel;
import java.nio.channels.SocketChannel;
import java.util.Set;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;

/**
 * A minimal HTTP/1.1 server: keep-alive, Content-Length or chunked request bodies, fixed or
 * chunked responses, and TCP resets on demand. One virtual thread per connection (blocking
 * socket channels park the virtual thread), one platform thread accepting. While a response streams,
 * its chunks are written by the engine thread in non-blocking mode ({@link EmitStream}); the
 * connection's thread puts the channel back in blocking mode before it reads the next request.
 * Everything it starts is stopped by {@link #close()}.
 */
final class MiniHttpServer implements AutoCloseable {

    /** Handles one request; runs on the connection's virtual thread. */
    interface Handler {
        void handle(HttpRequestData request, SimExchange exchange) throws IOException;
    }

    private final ServerSocketChannel server;
    private final Handler handler;
    private final ExecutorService connections;
    private final Set<SocketChannel> open = ConcurrentHashMap.newKeySet();
    private final Thread acceptor;
    private volatile boolean closed;

    MiniHttpServer(String host, int port, Handler handler) throws IOException {
        this.handler = handler;
        this.server = ServerSocketChannel.open();
        server.setOption(StandardSocketOptions.SO_REUSEADDR, true);
        server.bind(new InetSocketAddress(InetAddress.getByName(host), port), 8192);
        this.connections = Executors.newThreadPerTaskExecutor(Thread.ofVirtual().name("kneepoint-sim-conn-", 0).factory());
        this.acceptor = Thread.ofPlatform().daemon(true).name("kneepoint-sim-accept").unstarted(this::acceptLoop);
        acceptor.start();
    }

    int port() {
        return ((InetSocketAddress) server.socket().getLocalSocketAddress()).getPort();
    }

    private void acceptLoop() {
        while (!closed) {
            try {
                SocketChannel s = server.accept();
                s.setOption(StandardSocketOptions.TCP_NODELAY, true);
                open.add(s);
                connections.execute(() -> serve(s));
            } catch (IOException e) {
                if (closed) {
                    return;
                }
            } catch (java.util.concurrent.RejectedExecutionException e) {
                return;
            }
        }
    }

    private void serve(SocketChannel s) {
        try (s) {
            InputStream in = new BufferedInputStream(Channels.newInputStream(s), 2048);
            while (!closed) {
                HttpRequestData req = HttpRequestData.read(in);
                if (req == null) {
                    return;
                }
                SimExchange ex = new SimExchange(s, req.wantsClose());
                handler.handle(req, ex);
                if (!ex.reusable()) {
                    return;
                }
                ex.readyToRead();
            }
        } catch (IOException | RuntimeException e) {
            // the connection is gone or the request was unreadable: close it (try-with-resources)
        } finally {
            open.remove(s);
        }
    }

    @Override
    public void close() {
        closed = true;
        try {
            server.close();
        } catch (IOException ignored) {
            // closing anyway
        }
        for (SocketChannel s : open) {
            try {
                s.close();
            } catch (IOException ignored) {
                // closing anyway
            }
        }
        connections.shutdownNow();
        try {
            acceptor.join(2000);
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
        }
    }
}
