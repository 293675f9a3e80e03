package dev.kneepoint.sim;

import java.io.BufferedOutputStream;
import java.io.IOException;
import java.io.OutputStream;
import java.net.Socket;
import java.nio.charset.StandardCharsets;
import java.util.Locale;

/**
 * The response side of one request on the minimal server: either one fixed-length response or a
 * chunked stream. Writes are buffered; {@link #flush()} sends them in one write. Used by one thread.
 */
final class SimExchange {
    private static final byte[] CRLF = {'\r', '\n'};
    private static final byte[] LAST_CHUNK = "0\r\n\r\n".getBytes(StandardCharsets.US_ASCII);
    private final Socket socket;
    private final OutputStream out;
    private final boolean close;
    private boolean done;
    private boolean broken;

    SimExchange(Socket socket, OutputStream rawOut, boolean close) {
        this.socket = socket;
        this.out = new BufferedOutputStream(rawOut, 16 * 1024);
        this.close = close;
    }

    /** Sends a complete response. */
    void send(int status, String contentType, byte[] body) throws IOException {
        StringBuilder sb = statusLine(status);
        sb.append("Content-Type: ").append(contentType).append("\r\nContent-Length: ").append(body.length)
                .append("\r\n\r\n");
        out.write(sb.toString().getBytes(StandardCharsets.US_ASCII));
        out.write(body);
        out.flush();
        done = true;
    }

    /** Sends a chunked response's headers (flushed) so streaming can begin. */
    void startStream(int status, String contentType) throws IOException {
        StringBuilder sb = statusLine(status);
        sb.append("Content-Type: ").append(contentType).append("\r\nCache-Control: no-cache\r\n")
                .append("Transfer-Encoding: chunked\r\n\r\n");
        out.write(sb.toString().getBytes(StandardCharsets.US_ASCII));
        out.flush();
    }

    /** Buffers one chunk (not flushed). */
    void writeChunk(byte[] data) throws IOException {
        if (data.length == 0) {
            return;
        }
        out.write(Integer.toHexString(data.length).getBytes(StandardCharsets.US_ASCII));
        out.write(CRLF);
        out.write(data);
        out.write(CRLF);
    }

    /** Sends what is buffered. */
    void flush() throws IOException {
        out.flush();
    }

    /** Ends a chunked stream cleanly (terminal chunk, flushed). */
    void endStream() throws IOException {
        out.write(LAST_CHUNK);
        out.flush();
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
