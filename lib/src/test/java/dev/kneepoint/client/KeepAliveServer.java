package dev.kneepoint.client;

import java.io.IOException;
import java.io.InputStream;
import java.io.OutputStream;
import java.net.Socket;
import java.nio.charset.StandardCharsets;
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

    private final AcceptLoop loop;
    private final Script script;
    final AtomicInteger connections = new AtomicInteger();
    /** Requests read, answered or not. */
    final AtomicInteger requests = new AtomicInteger();
    /** Connections the server has closed (FIN or reset), or found closed by the client. */
    final AtomicInteger closedConnections = new AtomicInteger();

    KeepAliveServer(Script script) throws IOException {
        this.script = script;
        this.loop = new AcceptLoop("keepalive-server", connections, this::serve);
    }

    /** A server whose script needs the server itself (e.g. {@link #readNextRequest}). */
    KeepAliveServer(java.util.function.Function<KeepAliveServer, Script> script) throws IOException {
        this.script = script.apply(this);
        this.loop = new AcceptLoop("keepalive-server", connections, this::serve);
    }

    String url() {
        return loop.url();
    }

    private void serve(Socket s) {
        try (s) {
            InputStream in = s.getInputStream();
            for (int n = 0; ; n++) {
                if (!AcceptLoop.readRequest(in)) {
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
            closedConnections.incrementAndGet();
        }
    }

    /**
     * Blocks until the client wrote its next request on {@code s} and reads it whole, unanswered (a close then
     * sends FIN, not the reset that unread data would cause); false when the client closed instead. Counted in
     * {@link #requests}.
     */
    boolean readNextRequest(Socket s) throws IOException {
        boolean read = AcceptLoop.readRequest(s.getInputStream());
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
        loop.listener.close();
        for (Socket s : loop.sockets) {
            s.close();
        }
    }
}
