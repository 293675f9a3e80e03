package dev.kneepoint.client;

import java.io.ByteArrayOutputStream;
import java.io.IOException;
import java.io.InputStream;
import java.io.OutputStream;
import java.net.InetAddress;
import java.net.ServerSocket;
import java.net.Socket;
import java.nio.charset.StandardCharsets;
import java.util.List;
import java.util.Locale;
import java.util.concurrent.atomic.AtomicInteger;

/**
 * A one-thread HTTP server for exact byte scripts: for each accepted connection it reads one request
 * (head and Content-Length body), writes the scripted response parts (a {@code Long} part pauses that
 * many ms) and closes the connection. Counts connections, so tests see whether a transport retried.
 */
final class PartsServer implements AutoCloseable {
    private final ServerSocket socket;
    private final Thread thread;
    final AtomicInteger connections = new AtomicInteger();

    PartsServer(List<Object> parts) throws IOException {
        socket = new ServerSocket(0, 50, InetAddress.getLoopbackAddress());
        thread = Thread.ofVirtual().start(() -> serve(parts));
    }

    String url() {
        return "http://127.0.0.1:" + socket.getLocalPort();
    }

    private void serve(List<Object> parts) {
        while (!socket.isClosed()) {
            try (Socket s = socket.accept()) {
                connections.incrementAndGet();
                readRequest(s.getInputStream());
                OutputStream out = s.getOutputStream();
                for (Object p : parts) {
                    if (p instanceof Long ms) {
                        Thread.sleep(ms);
                    } else {
                        out.write(p instanceof byte[] b ? b : p.toString().getBytes(StandardCharsets.UTF_8));
                        out.flush();
                    }
                }
            } catch (IOException e) {
                // the client went away or the server closed: next connection
            } catch (InterruptedException e) {
                return;
            }
        }
    }

    private static void readRequest(InputStream in) throws IOException {
        ByteArrayOutputStream head = new ByteArrayOutputStream();
        int c;
        while ((c = in.read()) >= 0) {
            head.write(c);
            String h = head.toString(StandardCharsets.ISO_8859_1);
            if (h.endsWith("\r\n\r\n")) {
                int i = h.toLowerCase(Locale.ROOT).indexOf("content-length:");
                int len = i < 0 ? 0 : Integer.parseInt(h.substring(i + 15, h.indexOf('\r', i)).trim());
                in.readNBytes(len);
                return;
            }
        }
    }

    @Override
    public void close() throws IOException {
        socket.close();
        thread.interrupt();
    }
}
