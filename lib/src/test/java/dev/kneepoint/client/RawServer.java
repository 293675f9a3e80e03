package dev.kneepoint.client;

import java.io.IOException;
import java.io.OutputStream;
import java.net.Socket;
import java.nio.charset.StandardCharsets;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicInteger;

/**
 * A raw TCP "HTTP server" for faults MockWebServer cannot script: a real reset (RST, SO_LINGER 0) at an
 * exact point, bytes split across writes, a response that never ends. Each connection reads one request
 * (head and Content-Length body) and then runs the script on its own virtual thread. {@link #close()}
 * ends every pause at once and closes every socket.
 */
public final class RawServer implements AutoCloseable {
    /** What the server does once it has read the request. */
    public interface Script {
        void run(RawServer server, Socket socket, OutputStream out) throws Exception;
    }

    public static final String SSE_HEAD = "HTTP/1.1 200 OK\r\nContent-Type: text/event-stream\r\nConnection: close\r\n\r\n";

    private final AcceptLoop loop;
    private final Script script;
    private final CountDownLatch closed = new CountDownLatch(1);
    /** Connections accepted and requests read (a silent client retry shows as 2). */
    public final AtomicInteger connections = new AtomicInteger();
    public final AtomicInteger requests = new AtomicInteger();

    public RawServer(Script script) throws IOException {
        this.script = script;
        this.loop = new AcceptLoop("raw-server", connections, this::serve);
    }

    public String url() {
        return loop.url();
    }

    private void serve(Socket s) {
        try (s) {
            if (!AcceptLoop.readRequest(s.getInputStream())) {
                throw new IOException("client closed before the request ended");
            }
            requests.incrementAndGet();
            script.run(this, s, s.getOutputStream());
        } catch (Exception e) {
            // the client went away or the script reset the connection: the end of this connection
        }
    }

    /** Writes and flushes (one TCP segment per call: TCP_NODELAY is on). */
    public static void send(OutputStream out, String text) throws IOException {
        send(out, text.getBytes(StandardCharsets.UTF_8));
    }

    public static void send(OutputStream out, byte[] bytes) throws IOException {
        out.write(bytes);
        out.flush();
    }

    /** Sends a TCP reset: SO_LINGER 0, then close. */
    public static void reset(Socket s) throws IOException {
        s.setSoLinger(true, 0);
        s.close();
    }

    /** Waits up to {@code millis}, ending early when the server is closed; true when it was closed. */
    public boolean pause(long millis) throws InterruptedException {
        return closed.await(millis, TimeUnit.MILLISECONDS);
    }

    /** Sockets the server still has open. */
    public int openSockets() {
        return loop.sockets.size();
    }

    @Override
    public void close() {
        closed.countDown();
        try {
            loop.listener.close();
        } catch (IOException e) {
            // closing anyway
        }
        for (Socket s : loop.sockets) {
            try {
                s.close();
            } catch (IOException e) {
                // closing anyway
            }
        }
    }
}
