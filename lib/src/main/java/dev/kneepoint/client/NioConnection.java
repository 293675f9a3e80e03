package dev.kneepoint.client;

import java.io.IOException;
import java.net.ProtocolException;
import java.nio.ByteBuffer;
import java.nio.channels.SelectionKey;
import java.nio.channels.SocketChannel;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.Locale;

/**
 * One HTTP/1.1 connection of the {@link NioLoop}: the channel, the request being written and an
 * incremental response parser (status line, headers, then a chunked, length-delimited or
 * close-delimited body) that hands body bytes to its current {@link NioExchange} without copying.
 * Loop thread only.
 */
final class NioConnection {
    private static final int MAX_HEADER_BYTES = 64 * 1024;

    private enum Framing { LENGTH, CHUNKED, CLOSE }

    // chunked body states
    private static final int SIZE = 0;
    private static final int EXT = 1;
    private static final int DATA = 2;
    private static final int DATA_CR = 3;
    private static final int TRAILER = 5;

    final SocketChannel channel;
    final String poolKey;
    SelectionKey key;
    /** The request using this connection; null while idle in the pool or draining a finished body. */
    NioExchange exchange;
    ByteBuffer out;
    long idleSince;
    long drainUntil;
    long drainedBytes;
    /** True while waiting in the idle pool. */
    boolean pooled;
    /** True when the current exchange was given this connection from the pool (it carried a response before). */
    boolean reused;

    private boolean inHeaders;
    private byte[] head = new byte[512];
    private int headLen;
    private int lineStart;
    private Framing framing;
    private long remaining;
    private int chunkState;
    private boolean sizeDigits;
    private final StringBuilder extension = new StringBuilder();
    private int trailerLineLen;
    private boolean bodyDone;
    private boolean keepAlive;
    private boolean spoiled;
    private boolean responseStarted;

    NioConnection(SocketChannel channel, String poolKey) {
        this.channel = channel;
        this.poolKey = poolKey;
    }

    /** Starts a new exchange on this connection: queues its request and resets the response parser. */
    void begin(NioExchange x) {
        exchange = x;
        if (x != null) {
            x.connection = this;
            out = ByteBuffer.wrap(x.request);
        } else {
            out = null;
        }
        inHeaders = true;
        headLen = 0;
        lineStart = 0;
        bodyDone = false;
        keepAlive = false;
        spoiled = false;
        responseStarted = false;
        drainedBytes = 0;
    }

    /** True once any byte of the current exchange's response arrived. */
    boolean responseStarted() {
        return responseStarted;
    }

    /** True once the response body has fully arrived. */
    boolean bodyDone() {
        return bodyDone;
    }

    /** True when the connection may carry another request: body complete, keep-alive, nothing extra read. */
    boolean reusable() {
        return bodyDone && keepAlive && !spoiled && exchange == null && (out == null || !out.hasRemaining());
    }

    /** Processes the bytes of one read taken at {@code now}. */
    void onBytes(byte[] b, int off, int len, long now) throws IOException {
        responseStarted |= len > 0;
        int end = off + len;
        int i = off;
        if (inHeaders) {
            i = headers(b, i, end, now);
        }
        while (i < end && !inHeaders && !bodyDone) {
            i = body(b, i, end, now);
        }
        if (i < end) {
            spoiled = true; // bytes past the end of the response: never reuse this connection
        }
    }

    /** End of stream from the server. */
    void onEof(long now) throws IOException {
        keepAlive = false;
        if (inHeaders) {
            throw new IOException("unexpected end of stream on " + redacted());
        }
        if (!bodyDone) {
            if (framing != Framing.CLOSE) {
                throw new ProtocolException("unexpected end of stream");
            }
            finishBody(now);
        }
    }

    private String redacted() {
        NioExchange x = exchange;
        return x == null ? "connection" : x.target.endpoint().newBuilder("/...").username("").password("").build().toString();
    }

    private int headers(byte[] b, int i, int end, long now) throws IOException {
        while (i < end) {
            byte c = b[i++];
            if (headLen == head.length) {
                if (headLen >= MAX_HEADER_BYTES) {
                    throw new ProtocolException("response headers larger than " + MAX_HEADER_BYTES + " bytes");
                }
                head = java.util.Arrays.copyOf(head, head.length * 2);
            }
            head[headLen++] = c;
            if (c != '\n') {
                continue;
            }
            int lineLen = headLen - 1 - lineStart;
            if (lineLen > 0 && head[headLen - 2] == '\r') {
                lineLen--;
            }
            lineStart = headLen;
            if (lineLen == 0 && headLen > 2) {
                if (parseHead(now)) {
                    return i;
                }
            } else if (lineLen == 0) {
                headLen = 0; // a stray empty line before the status line
                lineStart = 0;
            }
        }
        return i;
    }

    /**
     * The header block's lines, split at {@code \n} or {@code \r\n}: what {@code head.split("\r?\n")} returns (trailing
     * empty lines dropped), without compiling a regular expression for every response.
     */
    static String[] headLines(String head) {
        ArrayList<String> lines = new ArrayList<>(12);
        int start = 0;
        for (int i = head.indexOf('\n'); i >= 0; i = head.indexOf('\n', start)) {
            lines.add(head.substring(start, i > start && head.charAt(i - 1) == '\r' ? i - 1 : i));
            start = i + 1;
        }
        lines.add(head.substring(start));
        int size = lines.size();
        while (size > 1 && lines.get(size - 1).isEmpty()) {
            size--;
        }
        if (size == 1 && lines.get(0).isEmpty() && lines.size() > 1) {
            size = 0; // only line breaks: String.split returns no lines at all
        }
        return lines.subList(0, size).toArray(new String[0]);
    }

    /** Parses the complete header block; false for an interim 1xx response (headers follow again). */
    private boolean parseHead(long now) throws IOException {
        String[] lines = headLines(new String(head, 0, headLen, StandardCharsets.ISO_8859_1));
        headLen = 0;
        lineStart = 0;
        String status = lines[0];
        int code = statusCode(status);
        if (code >= 100 && code < 200 && code != 101) {
            return false;
        }
        boolean http10 = status.startsWith("HTTP/1.0");
        String contentType = null;
        String transferEncoding = null;
        String connectionHeader = null;
        long contentLength = -1;
        for (int k = 1; k < lines.length; k++) {
            String line = lines[k];
            int colon = line.indexOf(':');
            if (colon <= 0) {
                continue;
            }
            String name = line.substring(0, colon).trim().toLowerCase(Locale.ROOT);
            String value = line.substring(colon + 1).trim();
            switch (name) {
                case "content-type" -> contentType = value;
                case "transfer-encoding" -> transferEncoding = value;
                case "connection" -> connectionHeader = value;
                case "content-length" -> contentLength = contentLength(value);
                default -> { }
            }
        }
        keepAlive = connectionHeader == null ? !http10
                : !connectionHeader.toLowerCase(Locale.ROOT).contains("close")
                && (!http10 || connectionHeader.toLowerCase(Locale.ROOT).contains("keep-alive"));
        inHeaders = false;
        NioExchange x = exchange;
        if (x != null) {
            x.onHeaders(code, contentType, now);
        }
        if (code == 204 || code == 304) {
            framing = Framing.LENGTH;
            remaining = 0;
        } else if (transferEncoding != null && transferEncoding.toLowerCase(Locale.ROOT).contains("chunked")) {
            framing = Framing.CHUNKED;
            chunkState = SIZE;
            remaining = 0;
            sizeDigits = false;
        } else if (contentLength >= 0) {
            framing = Framing.LENGTH;
            remaining = contentLength;
        } else {
            framing = Framing.CLOSE;
            keepAlive = false;
        }
        if (framing == Framing.LENGTH && remaining == 0) {
            finishBody(now);
        }
        return true;
    }

    private static int statusCode(String line) throws ProtocolException {
        if (line.startsWith("HTTP/1.") && line.length() >= 12 && line.charAt(8) == ' ') {
            try {
                return Integer.parseInt(line.substring(9, 12));
            } catch (NumberFormatException e) {
                // reported below
            }
        }
        throw new ProtocolException("Unexpected status line: " + line);
    }

    private static long contentLength(String v) throws ProtocolException {
        try {
            return Long.parseLong(v);
        } catch (NumberFormatException e) {
            throw new ProtocolException("invalid Content-Length: " + v);
        }
    }

    private int body(byte[] b, int i, int end, long now) throws IOException {
        switch (framing) {
            case CLOSE -> {
                deliver(b, i, end - i, now);
                return end;
            }
            case LENGTH -> {
                int n = (int) Math.min(remaining, end - i);
                deliver(b, i, n, now);
                remaining -= n;
                if (remaining == 0) {
                    finishBody(now);
                }
                return i + n;
            }
            default -> {
                return chunked(b, i, end, now);
            }
        }
    }

    private int chunked(byte[] b, int i, int end, long now) throws IOException {
        while (i < end && !bodyDone) {
            switch (chunkState) {
                case DATA -> {
                    int n = (int) Math.min(remaining, end - i);
                    deliver(b, i, n, now);
                    remaining -= n;
                    i += n;
                    if (remaining == 0) {
                        chunkState = DATA_CR;
                    }
                }
                case SIZE -> {
                    byte c = b[i++];
                    int d = Character.digit(c, 16);
                    if (d >= 0) {
                        if (remaining > (Long.MAX_VALUE >> 4)) {
                            throw new ProtocolException("Number too large");
                        }
                        remaining = remaining * 16 + d;
                        sizeDigits = true;
                    } else if (!sizeDigits) {
                        // okio's message, so that both transports describe a broken chunk header alike
                        throw new ProtocolException("Expected leading [0-9a-fA-F] character but was 0x"
                                + Integer.toHexString(c & 0xff));
                    } else if (c == '\n') {
                        endSize(now);
                    } else if (c == '\r') {
                        chunkState = EXT; // the usual CRLF: nothing to check, nothing to allocate
                        extension.setLength(0);
                    } else {
                        chunkState = EXT;
                        extension.setLength(0);
                        extension.append((char) (c & 0xff));
                    }
                }
                case EXT -> {
                    byte c = b[i++];
                    if (c != '\n') {
                        if (extension.length() < 1024) {
                            extension.append((char) (c & 0xff));
                        }
                        continue;
                    }
                    if (extension.isEmpty()) {
                        endSize(now);
                        continue;
                    }
                    String ext = extension.toString().trim();
                    if (!ext.isEmpty() && !ext.startsWith(";")) {
                        throw new ProtocolException("expected chunk size and optional extensions but was \""
                                + remaining + ext + "\"");
                    }
                    endSize(now);
                }
                case DATA_CR -> { // OkHttp reads (and ignores) the rest of the line after chunk data
                    if (b[i++] == '\n') {
                        chunkState = SIZE;
                    }
                }
                default -> { // TRAILER: lines until an empty one
                    byte c = b[i++];
                    if (c == '\n') {
                        if (trailerLineLen == 0) {
                            finishBody(now);
                        }
                        trailerLineLen = 0;
                    } else if (c != '\r') {
                        trailerLineLen++;
                    }
                }
            }
        }
        return i;
    }

    private void endSize(long now) {
        sizeDigits = false;
        if (remaining == 0) {
            chunkState = TRAILER;
            trailerLineLen = 0;
        } else {
            chunkState = DATA;
        }
    }

    private void deliver(byte[] b, int off, int n, long now) {
        NioExchange x = exchange;
        if (n <= 0) {
            return;
        }
        if (x != null && !x.isComplete()) {
            x.onBody(b, off, n, now);
        } else {
            drainedBytes += n;
        }
    }

    private void finishBody(long now) {
        bodyDone = true;
        NioExchange x = exchange;
        if (x != null) {
            x.onBodyEnd(now);
        }
    }
}
