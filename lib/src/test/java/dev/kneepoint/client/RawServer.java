package dev.kneepoint.client;

import java.io.ByteArrayOutputStream;
import java.io.IOException;
import java.io.InputStream;
import java.io.OutputStream;
import java.net.InetAddress;
import java.net.ServerSocket;
import java.net.Socket;
import java.nio.charset.StandardCharsets;
import java.util.Locale;
import java.util.Set;
import java.util.concurrent.ConcurrentHashMap;
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

    private final ServerSocket listener;
    private final Script script;
    private final CountDownLatch closed = new CountDownLatch(1);
    private final Set<Socket> sockets = ConcurrentHashMap.newKeySet();
    /** Connections accepted and requests read (a silent client retry shows as 2). */
    public final AtomicInteger connections = new AtomicInteger();
    public final AtomicInteger requests = new AtomicInteger();

    public RawServer(Script script) throws IOException {
        this.script = script;
        this.listener = new ServerSocket(0, 50, InetAddress.getLoopbackAddress());
        Thread.ofVirtual().name("raw-server-accept").start(this::acceptLoop);
    }

    public String url() {
        return "http://127.0.0.1:" + listener.getLocalPort();
    }

    private void acceptLoop() {
        while (!listener.isClosed()) {
            try {
                Socket s = listener.accept();
                s.setTcpNoDelay(true);
                sockets.add(s);
                connections.incrementAndGet();
                Thread.ofVirtual().name("raw-server-conn").start(() -> serve(s));
            } catch (IOException e) {
                return;
            }
        }
    }

    private void serve(Socket s) {
        try (s) {
            readRequest(s.getInputStream());
            requests.incrementAndGet();
            script.run(this, s, s.getOutputStream());
        } catch (Exception e) {
            // the client went away or the script reset the connection: the end of this connection
        } finally {
            sockets.remove(s);
        }
    }

    private static void readRequest(InputStream in) throws IOException {
        ByteArrayOutputStream head = new ByteArrayOutputStream();
        int last4 = 0;
        while (last4 != 0x0D0A0D0A) {
            int c = in.read();
            if (c < 0) {
                throw new IOException("client closed before the request ended");
            }
            head.write(c);
            last4 = (last4 << 8) | c;
        }
        long length = 0;
        for (String line : head.toString(StandardCharsets.ISO_8859_1).split("\r\n")) {
            if (line.toLowerCase(Locale.ROOT).startsWith("content-length:")) {
                length = Long.parseLong(line.substring(15).strip());
            }
        }
        in.skipNBytes(length);
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
        return sockets.size();
    }

    @Override
    public void close() {
        closed.countDown();
        try {
            listener.close();
        } catch (IOException e) {
            // closing anyway
        }
        for (Socket s : sockets) {
            try {
                s.close();
            } catch (IOException e) {
                // closing anyway
            }
        }
    }
}
