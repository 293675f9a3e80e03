package dev.kneepoint.sim;

import java.io.ByteArrayOutputStream;
import java.io.IOException;
import java.io.InputStream;
import java.nio.charset.StandardCharsets;
import java.util.HashMap;
import java.util.Locale;
import java.util.Map;

/**
 * One parsed HTTP/1.1 request (the simulator's minimal server).
 *
 * @param method request method, upper case
 * @param path path without the query string
 * @param headers header values by lower-case name (last one wins)
 * @param body request body (Content-Length or chunked), empty when none
 */
record HttpRequestData(String method, String path, Map<String, String> headers, byte[] body) {
    private static final int MAX_LINE = 16 * 1024;
    private static final int MAX_BODY = 64 * 1024 * 1024;

    /** Header value or {@code null}. */
    String header(String name) {
        return headers.get(name.toLowerCase(Locale.ROOT));
    }

    /** Whether the client asked to close the connection after this request. */
    boolean wantsClose() {
        String c = header("connection");
        return c != null && c.toLowerCase(Locale.ROOT).contains("close");
    }

    /** Reads one request; {@code null} at a clean end of stream before the request line. */
    static HttpRequestData read(InputStream in) throws IOException {
        String line = readLine(in);
        while (line != null && line.isEmpty()) {
            line = readLine(in);
        }
        if (line == null) {
            return null;
        }
        String[] parts = line.split(" ");
        if (parts.length < 3) {
            throw new IOException("bad request line: " + line);
        }
        Map<String, String> headers = new HashMap<>();
        String h;
        while ((h = readLine(in)) != null && !h.isEmpty()) {
            int colon = h.indexOf(':');
            if (colon > 0) {
                headers.put(h.substring(0, colon).trim().toLowerCase(Locale.ROOT), h.substring(colon + 1).trim());
            }
        }
        if (h == null) {
            throw new IOException("end of stream inside headers");
        }
        String target = parts[1];
        int q = target.indexOf('?');
        String path = q < 0 ? target : target.substring(0, q);
        byte[] body = readBody(in, headers);
        return new HttpRequestData(parts[0].toUpperCase(Locale.ROOT), path, headers, body);
    }

    private static byte[] readBody(InputStream in, Map<String, String> headers) throws IOException {
        String te = headers.get("transfer-encoding");
        if (te != null && te.toLowerCase(Locale.ROOT).contains("chunked")) {
            ByteArrayOutputStream buf = new ByteArrayOutputStream();
            while (true) {
                String sizeLine = readLine(in);
                if (sizeLine == null) {
                    throw new IOException("end of stream in chunked body");
                }
                int semi = sizeLine.indexOf(';');
                int size = Integer.parseInt((semi < 0 ? sizeLine : sizeLine.substring(0, semi)).trim(), 16);
                if (size == 0) {
                    while (true) {
                        String trailer = readLine(in);
                        if (trailer == null || trailer.isEmpty()) {
                            return buf.toByteArray();
                        }
                    }
                }
                if (buf.size() + size > MAX_BODY) {
                    throw new IOException("request body too large");
                }
                buf.write(in.readNBytes(size));
                readLine(in);
            }
        }
        String cl = headers.get("content-length");
        if (cl == null) {
            return new byte[0];
        }
        int len = Integer.parseInt(cl.trim());
        if (len < 0 || len > MAX_BODY) {
            throw new IOException("bad content-length " + len);
        }
        byte[] body = in.readNBytes(len);
        if (body.length != len) {
            throw new IOException("end of stream in body");
        }
        return body;
    }

    private static String readLine(InputStream in) throws IOException {
        StringBuilder sb = new StringBuilder(64);
        int c;
        while ((c = in.read()) != -1) {
            if (c == '\n') {
                int n = sb.length();
                if (n > 0 && sb.charAt(n - 1) == '\r') {
                    sb.setLength(n - 1);
                }
                return sb.toString();
            }
            if (sb.length() >= MAX_LINE) {
                throw new IOException("header line too long");
            }
            sb.append((char) c);
        }
        return sb.isEmpty() ? null : sb.toString();
    }

    /** UTF-8 body text. */
    String bodyText() {
        return new String(body, StandardCharsets.UTF_8);
    }
}
