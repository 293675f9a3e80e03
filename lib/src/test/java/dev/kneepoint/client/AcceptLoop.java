package dev.kneepoint.client;

import java.io.ByteArrayOutputStream;
import java.io.IOException;
import java.io.InputStream;
import java.net.InetAddress;
import java.net.ServerSocket;
import java.net.Socket;
import java.nio.charset.StandardCharsets;
import java.util.Locale;
import java.util.Set;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.function.Consumer;

/**
 * The accept loop the raw test servers ({@link RawServer}, {@link KeepAliveServer}) share: a listener on a free
 * loopback port whose virtual thread accepts connections, sets TCP_NODELAY on each, counts it and serves it on
 * a virtual thread of its own, tracking it in {@link #sockets} until served;
 * plus reading one request (head and Content-Length body). The servers close {@link #listener} and the sockets.
 */
final class AcceptLoop {
    final ServerSocket listener;
    /** Sockets accepted and still being served. */
    final Set<Socket> sockets = ConcurrentHashMap.newKeySet();

    /**
     * Starts accepting: threads named {@code name-accept} and {@code name-conn}; each connection counts in
     * {@code connections} before {@code serve} runs.
     */
    AcceptLoop(String name, AtomicInteger connections, Consumer<Socket> serve) throws IOException {
        this.listener = new ServerSocket(0, 50, InetAddress.getLoopbackAddress());
        Thread.ofVirtual().name(name + "-accept").start(() -> acceptLoop(name, connections, serve));
    }

    String url() {
        return "http://127.0.0.1:" + listener.getLocalPort();
    }

    private void acceptLoop(String name, AtomicInteger connections, Consumer<Socket> serve) {
        while (!listener.isClosed()) {
            try {
                Socket s = listener.accept();
                s.setTcpNoDelay(true);
                sockets.add(s);
                connections.incrementAndGet();
                Thread.ofVirtual().name(name + "-conn").start(() -> {
                    try {
                        serve.accept(s);
                    } finally {
                        sockets.remove(s);
                    }
                });
            } catch (IOException e) {
                return;
            }
        }
    }

    /** Reads one request (head and Content-Length body); false at a clean end of stream before it. */
    static boolean readRequest(InputStream in) throws IOException {
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
}
