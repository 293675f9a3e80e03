package dev.kneepoint.sim;

import java.io.BufferedInputStream;
import java.io.ByteArrayOutputStream;
import java.io.IOException;
import java.io.InputStream;
import java.io.OutputStream;
import java.net.Socket;
import java.net.SocketException;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;

/** A raw-socket HTTP/1.1 client for tests: sees exactly what is on the wire, with arrival times. */
final class RawSse {
    /** One SSE data line and when it arrived. */
    record Event(String data, long arrivalNanos) {
    }

    /**
     * @param status HTTP status
     * @param headerNanos arrival of the status line, relative to the send
     * @param body whole body for non-chunked responses
     * @param events SSE data lines of a chunked response
     * @param cleanEnd whether the terminal chunk arrived
     * @param reset whether the connection was reset
     * @param error other I/O failure, or null
     */
    record Result(int status, Map<String, String> headers, long sendNanos, long headerNanos, String body,
                  List<Event> events, boolean cleanEnd, boolean reset, IOException error) {
        boolean done() {
            return !events.isEmpty() && events.get(events.size() - 1).data().equals("[DONE]");
        }
    }

    private RawSse() {
    }

    static Result post(int port, String path, String json, String... extraHeaders) throws IOException {
        try (Socket s = new Socket("127.0.0.1", port)) {
            s.setTcpNoDelay(true);
            s.setSoTimeout(20_000);
            byte[] body = json.getBytes(StandardCharsets.UTF_8);
            StringBuilder req = new StringBuilder("POST " + path + " HTTP/1.1\r\nHost: localhost\r\n"
                    + "Content-Type: application/json\r\nContent-Length: " + body.length + "\r\n");
            for (String h : extraHeaders) {
                req.append(h).append("\r\n");
            }
            req.append("\r\n");
            OutputStream out = s.getOutputStream();
            long send = System.nanoTime();
            out.write(req.toString().getBytes(StandardCharsets.US_ASCII));
            out.write(body);
            out.flush();
            return read(new BufferedInputStream(s.getInputStream()), send);
        }
    }

    private static Result read(InputStream in, long send) throws IOException {
        String statusLine = line(in);
        long headerAt = System.nanoTime() - send;
        int status = Integer.parseInt(statusLine.split(" ")[1]);
        Map<String, String> headers = new LinkedHashMap<>();
        String h;
        while (!(h = line(in)).isEmpty()) {
            int c = h.indexOf(':');
            headers.put(h.substring(0, c).toLowerCase(Locale.ROOT), h.substring(c + 1).trim());
        }
        List<Event> events = new ArrayList<>();
        if (!"chunked".equals(headers.get("transfer-encoding"))) {
            int len = Integer.parseInt(headers.getOrDefault("content-length", "0"));
            return new Result(status, headers, send, headerAt, new String(in.readNBytes(len), StandardCharsets.UTF_8),
                    events, true, false, null);
        }
        StringBuilder pending = new StringBuilder();
        try {
            while (true) {
                int size = Integer.parseInt(line(in).trim(), 16);
                if (size == 0) {
                    line(in);
                    return new Result(status, headers, send, headerAt, "", events, true, false, null);
                }
                byte[] data = in.readNBytes(size);
                if (data.length < size) {
                    throw new IOException("eof in chunk");
                }
                long now = System.nanoTime();
                line(in);
                pending.append(new String(data, StandardCharsets.UTF_8));
                int nl;
                while ((nl = pending.indexOf("\n")) >= 0) {
                    String l = pending.substring(0, nl);
                    pending.delete(0, nl + 1);
                    if (l.startsWith("data: ")) {
                        events.add(new Event(l.substring(6), now));
                    }
                }
            }
        } catch (SocketException e) {
            boolean reset = String.valueOf(e.getMessage()).toLowerCase(Locale.ROOT).contains("reset");
            return new Result(status, headers, send, headerAt, "", events, false, reset, e);
        } catch (IOException e) {
            return new Result(status, headers, send, headerAt, "", events, false, false, e);
        }
    }

    private static String line(InputStream in) throws IOException {
        ByteArrayOutputStream b = new ByteArrayOutputStream();
        int c;
        while ((c = in.read()) != '\n') {
            if (c == -1) {
                throw new IOException("end of stream");
            }
            if (c != '\r') {
                b.write(c);
            }
        }
        return b.toString(StandardCharsets.US_ASCII);
    }
}
