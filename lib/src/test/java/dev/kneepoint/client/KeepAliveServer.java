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
import java.util.concurrent.atomic.AtomicInteger;

/**
 * A raw keep-alive HTTP/1.1 server for the stale-connection scenarios: every connection reads requests one
 * after another (head and Content-Length body) and asks the script what to do with each, given how many
 * requests that connection carried before. The script answers, and says whether the connection stays open.
 */
final class KeepAliveServer implements AutoCloseable {
    /** What the server does with one request. */
    interface Script {
        /**
         * Answers request number {@code onConnection} (0 = the connection's first) of connection {@code s}.
         *
         * @return true to keep the connection open for another request, false to close it (FIN)
         */
        boolean answer(int onConnection, Socket s, OutputStream out) throws Exception;
    }

    private final ServerSocket listener;
    private final Script script;
    private final Set<Socket> sockets = ConcurrentHashMap.newKeySet();
    final AtomicInteger connections = new AtomicInteger();
    /** Requests read, answered or not. */
    final AtomicInteger requests = new AtomicInteger();
    /** Connections the server has closed (FIN or reset), or found closed by the client. */
    final AtomicInteger closedConnections = new AtomicInteger();

    KeepAliveServer(Script script) throws IOException {
        this.script = script;
        this.listener = new ServerSocket(0, 50, InetAddress.getLoopbackAddress());
        Thread.ofVirtual().name("keepalive-server-accept").start(this::acceptLoop);
    }

    /** A server whose script needs the server itself (e.g. {@link #readNextRequest}). */
    KeepAliveServer(java.util.function.Function<KeepAliveServer, Script> script) throws IOException {
        this.script = script.apply(this);
        this.listener = new ServerSocket(0, 50, InetAddress.getLoopbackAddress());
        Thread.ofVirtual().name("keepalive-server-accept").start(this::acceptLoop);
    }

    String url() {
        return "http://127.0.0.1:" + listener.getLocalPort();
    }

    private void acceptLoop() {
        while (!listener.isClosed()) {
            try {
                Socket s = listener.accept();
                s.setTcpNoDelay(true);
                sockets.add(s);
                connections.incrementAndGet();
                Thread.ofVirtual().name("keepalive-server-conn").start(() -> serve(s));
            } catch (IOException e) {
                return;
            }
        }
    }

    private void serve(Socket s) {
        try (s) {
            InputStream in = s.getInputStream();
            for (int n = 0; ; n++) {
                if (!readRequest(in)) {
                    return; // the client closed the connection
                }
                requests.incrementAndGet();
                if (!script.answer(n, s, s.getOutputStream())) {
                    return;
                }
            }
        } catch (Exception e) {
            // the client went away or the script reset the connection: the end of this connection
        } finally {
            sockets.remove(s);
            closedConnections.incrementAndGet();
        }
    }

    /** Reads one request; false at a clean end of stream before it. */
    private static boolean readRequest(InputStream in) throws IOException {
        ByteArrayOutputStream head = new ByteArrayOutputStream();
        int last4 = 0;
        while (last4 != 0x0D0A0D0A) {
            int c = in.read();
            if (c < 0) {
                if (head.size() == 0) {
                    return false;
                }
                throw new IOException("client closed in the middle of a request");
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
        return true;
    }

    /**
     * Blocks until the client wrote its next request on {@code s} and reads it whole, unanswered (a close then
     * sends FIN, not the reset that unread data would cause); false when the client closed instead. Counted in
     * {@link #requests}.
     */
    boolean readNextRequest(Socket s) throws IOException {
        boolean read = readRequest(s.getInputStream());
        if (read) {
            requests.incrementAndGet();
        }
        return read;
    }

    /** A streamed chat response, chunked, keep-alive unless {@code extraHeaders} says otherwise. */
    static String sseResponse(String extraHeaders) {
        StringBuilder r = new StringBuilder("HTTP/1.1 200 OK\r\nContent-Type: text/event-stream\r\n")
                .append("Transfer-Encoding: chunked\r\n").append(extraHeaders).append("\r\n");
        for (String e : new String[] {ScriptedBody.content("a"), ScriptedBody.finish("b")}) {
            chunk(r, "data: " + e + "\n\n");
        }
        chunk(r, "data: [DONE]\n\n");
        return r.append("0\r\n\r\n").toString();
    }

    private static void chunk(StringBuilder r, String data) {
        int len = data.getBytes(StandardCharsets.UTF_8).length;
        r.append(Integer.toHexString(len)).append("\r\n").append(data).append("\r\n");
    }

    static void send(OutputStream out, String text) throws IOException {
        out.write(text.getBytes(StandardCharsets.UTF_8));
        out.flush();
    }

    @Override
    public void close() throws IOException {
        listener.close();
        for (Socket s : sockets) {
            s.close();
        }
    }
}
