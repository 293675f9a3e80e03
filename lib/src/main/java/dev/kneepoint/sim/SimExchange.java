package dev.kneepoint.sim;

import java.io.IOException;
import java.io.OutputStream;
import java.net.Socket;
import java.nio.charset.StandardCharsets;
import java.util.Locale;

/**
 * The response side of one request on the minimal server: either one fixed-length response or a
 * chunked stream. Every call writes straight to the socket in one {@code write} (no buffer is kept
 * per connection, which keeps thousands of idle streams cheap). Used by one thread.
 */
final class SimExchange {
    private static final byte[] LAST_CHUNK = "0\r\n\r\n".getBytes(StandardCharsets.US_ASCII);
    private final Socket socket;
    private final OutputStream out;
    /** Room before a chunk's data for its size (at most 8 hex digits) and CRLF. */
    private static final int CHUNK_HEAD = 10;
    private byte[] chunkBuf = new byte[1024];
    private final boolean close;
    private boolean done;
    private boolean broken;
    private NativeStream translator;

    SimExchange(Socket socket, OutputStream rawOut, boolean close) {
        this.socket = socket;
        this.out = rawOut;
        this.close = close;
    }

    /** Rewrites every streamed chunk (and the stream's content type) into a native API's stream. */
    void translateWith(NativeStream t) {
        this.translator = t;
    }

    /** Sends a complete response. */
    void send(int status, String contentType, byte[] body) throws IOException {
        StringBuilder sb = statusLine(status);
        sb.append("Content-Type: ").append(contentType).append("\r\nContent-Length: ").append(body.length)
                .append("\r\n\r\n");
        byte[] head = sb.toString().getBytes(StandardCharsets.US_ASCII);
        byte[] all = new byte[head.length + body.length];
        System.arraycopy(head, 0, all, 0, head.length);
        System.arraycopy(body, 0, all, head.length, body.length);
        out.write(all);
        done = true;
    }

    /** Sends a chunked response's headers (flushed) so streaming can begin. */
    void startStream(int status, String contentType) throws IOException {
        StringBuilder sb = statusLine(status);
        sb.append("Content-Type: ").append(translator != null ? translator.contentType() : contentType)
                .append("\r\nCache-Control: no-cache\r\n")
                .append("Transfer-Encoding: chunked\r\n\r\n");
        out.write(sb.toString().getBytes(StandardCharsets.US_ASCII));
    }

    /** Writes one chunk of ASCII/UTF-8 text (one {@code write}). */
    /**
     * Writes {@code text} as one chunk in one write, encoding ASCII text straight into a buffer reused
     * across this exchange's chunks (no String, byte array or framing copy per chunk); other text takes
     * the general path, and so does every chunk of a translated (native API) stream.
     */
    void writeChunk(CharSequence text) throws IOException {
        int n = text.length();
        if (n == 0) {
            return;
        }
        if (translator != null) {
            writeChunk(text.toString()); // a native API's stream is translated from the OpenAI chunk first
            return;
        }
        if (chunkBuf.length < n + CHUNK_HEAD + 2) {
            chunkBuf = new byte[Math.max(n + CHUNK_HEAD + 2, chunkBuf.length * 2)];
        }
        byte[] b = chunkBuf;
        int k = CHUNK_HEAD;
        for (int i = 0; i < n; i++) {
            char c = text.charAt(i);
            if (c >= 0x80) {
                writeChunk(text.toString());
                return;
            }
            b[k++] = (byte) c;
        }
        b[k++] = '\r';
        b[k++] = '\n';
        int start = CHUNK_HEAD - 2;
        b[start] = '\r';
        b[start + 1] = '\n';
        for (int v = n; ; v >>>= 4) {
            b[--start] = (byte) Character.forDigit(v & 0xf, 16);
            if (v < 16) {
                break;
            }
        }
        out.write(b, start, k - start);
    }

    void writeChunk(String text) throws IOException {
        byte[] data = (translator == null ? text : translator.translate(text)).getBytes(StandardCharsets.UTF_8);
        if (data.length == 0) {
            return;
        }
        String hex = Integer.toHexString(data.length);
        byte[] all = new byte[hex.length() + 4 + data.length];
        int k = 0;
        for (int i = 0; i < hex.length(); i++) {
            all[k++] = (byte) hex.charAt(i);
        }
        all[k++] = '\r';
        all[k++] = '\n';
        System.arraycopy(data, 0, all, k, data.length);
        k += data.length;
        all[k++] = '\r';
        all[k] = '\n';
        out.write(all);
    }

    /** Ends a chunked stream cleanly (terminal chunk). */
    void endStream() throws IOException {
        out.write(LAST_CHUNK);
        done = true;
    }

    /** Aborts the connection with a TCP reset (SO_LINGER 0), dropping anything buffered. */
    void reset() throws IOException {
        broken = true;
        socket.setSoLinger(true, 0);
        socket.close();
    }

    /** Whether the connection can carry another request. */
    boolean reusable() {
        return done && !broken && !close;
    }

    /** Marks the connection as not reusable (it is closed after this exchange). */
    void markBroken() {
        broken = true;
    }

    private StringBuilder statusLine(int status) {
        StringBuilder sb = new StringBuilder(160);
        sb.append("HTTP/1.1 ").append(status).append(' ').append(reason(status)).append("\r\n");
        sb.append("Server: kneepoint-sim\r\n");
        if (close) {
            sb.append("Connection: close\r\n");
        }
        return sb;
    }

    private static String reason(int status) {
        return switch (status) {
            case 200 -> "OK";
            case 400 -> "Bad Request";
            case 404 -> "Not Found";
            case 405 -> "Method Not Allowed";
            case 429 -> "Too Many Requests";
            case 500 -> "Internal Server Error";
            case 503 -> "Service Unavailable";
            default -> String.format(Locale.ROOT, "Status %d", status);
        };
    }
}
