package dev.kneepoint.sim;

import java.io.IOException;
import java.net.StandardSocketOptions;
import java.nio.ByteBuffer;
import java.nio.channels.SocketChannel;
import java.nio.charset.StandardCharsets;
import java.util.Locale;

/**
 * The response side of one request on the minimal server: either one fixed-length response or a
 * chunked stream. Fixed responses and stream heads are written in blocking mode by the connection's
 * thread; a stream's chunks are encoded into a buffer reused across the exchange's chunks
 * ({@link #encodeChunk}) and written by whichever thread owns the stream at that moment, without
 * blocking ({@link #writeNow}, the engine thread) or blocking ({@link #writeAll}, the connection's
 * thread). One thread at a time: the stream's lock ({@link EmitStream}) decides which.
 */
final class SimExchange {
    static final byte[] LAST_CHUNK = "0\r\n\r\n".getBytes(StandardCharsets.US_ASCII);
    private final SocketChannel channel;
    /** Room before a chunk's data for its size (at most 8 hex digits) and CRLF. */
    private static final int CHUNK_HEAD = 10;
    private byte[] chunkBuf = new byte[1024];
    private ByteBuffer chunkView = ByteBuffer.wrap(chunkBuf);
    private final boolean close;
    private boolean done;
    private boolean broken;
    private StreamTranslator translator;

    SimExchange(SocketChannel channel, boolean close) {
        this.channel = channel;
        this.close = close;
    }

    /** Rewrites every streamed chunk (and the stream's content type) into another API's stream. */
    void translateWith(StreamTranslator t) {
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
        writeAll(ByteBuffer.wrap(all));
        done = true;
    }

    /** Sends a chunked response's headers (blocking) so streaming can begin. */
    void startStream(int status, String contentType) throws IOException {
        StringBuilder sb = statusLine(status);
        sb.append("Content-Type: ").append(translator != null ? translator.contentType() : contentType)
                .append("\r\nCache-Control: no-cache\r\n")
                .append("Transfer-Encoding: chunked\r\n\r\n");
        writeAll(ByteBuffer.wrap(sb.toString().getBytes(StandardCharsets.US_ASCII)));
    }

    /**
     * Encodes UTF-8 {@code text[from, to)} as one HTTP chunk (followed by the terminal chunk when
     * {@code last}) into a buffer reused across this exchange's chunks (one copy, no String); a translated
     * (native API) stream's text is translated first. The result is a view valid until the next call; empty
     * text gives no chunk (only the terminal one, if asked for).
     */
    ByteBuffer encodeChunk(byte[] text, int from, int to, boolean last) {
        if (translator != null) {
            byte[] data = translator.translate(new String(text, from, to - from, StandardCharsets.UTF_8))
                    .getBytes(StandardCharsets.UTF_8);
            return frame(data, 0, data.length, last);
        }
        return frame(text, from, to, last);
    }

    /** {@code text[from, to)} framed as a chunk (and the terminal chunk when {@code last}) in the reused buffer. */
    private ByteBuffer frame(byte[] text, int from, int to, boolean last) {
        int n = to - from;
        int need = n + CHUNK_HEAD + 2 + LAST_CHUNK.length;
        if (chunkBuf.length < need) {
            chunkBuf = new byte[Math.max(need, chunkBuf.length * 2)];
            chunkView = ByteBuffer.wrap(chunkBuf);
        }
        byte[] b = chunkBuf;
        System.arraycopy(text, from, b, CHUNK_HEAD, n);
        int k = CHUNK_HEAD + n;
        int start = CHUNK_HEAD;
        if (n > 0) {
            b[k++] = '\r';
            b[k++] = '\n';
            start = CHUNK_HEAD - 2;
            b[start] = '\r';
            b[start + 1] = '\n';
            for (int v = n; ; v >>>= 4) {
                b[--start] = (byte) Character.forDigit(v & 0xf, 16);
                if (v < 16) {
                    break;
                }
            }
        }
        if (last) {
            System.arraycopy(LAST_CHUNK, 0, b, k, LAST_CHUNK.length);
            k += LAST_CHUNK.length;
        }
        return chunkView.limit(k).position(start);
    }

    /** Writes what the socket's send buffer takes now, without blocking; returns the bytes written. */
    int writeNow(ByteBuffer b) throws IOException {
        if (channel.isBlocking()) {
            channel.configureBlocking(false);
        }
        return channel.write(b);
    }

    /** Writes all of {@code b}, blocking (parks a virtual thread) while the send buffer is full. */
    void writeAll(ByteBuffer b) throws IOException {
        if (!channel.isBlocking()) {
            channel.configureBlocking(true);
        }
        while (b.hasRemaining()) {
            channel.write(b);
        }
    }

    /** Puts the connection back in blocking mode for reading the next request. */
    void readyToRead() throws IOException {
        if (!channel.isBlocking()) {
            channel.configureBlocking(true);
        }
    }

    /** Ends a chunked stream cleanly (terminal chunk). */
    void endStream() throws IOException {
        writeAll(ByteBuffer.wrap(LAST_CHUNK));
        done = true;
    }

    /** Marks the stream as ended: its terminal chunk was written with its last chunk. */
    void streamEnded() {
        done = true;
    }

    /** Aborts the connection with a TCP reset (SO_LINGER 0), dropping anything buffered. */
    void reset() throws IOException {
        broken = true;
        if (channel.isOpen()) {
            channel.setOption(StandardSocketOptions.SO_LINGER, 0);
            channel.close();
        }
    }

    /** Closes the connection now (with a reset when asked), from any thread; errors are ignored. */
    void closeNow(boolean reset) {
        try {
            if (reset) {
                channel.setOption(StandardSocketOptions.SO_LINGER, 0);
            }
            channel.close();
        } catch (IOException ignored) {
            // closing anyway
        }
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
