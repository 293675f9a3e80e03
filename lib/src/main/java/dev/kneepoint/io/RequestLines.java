package dev.kneepoint.io;

import dev.kneepoint.metrics.RequestRecord;
import java.io.IOException;
import java.io.InputStream;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Arrays;
import java.util.List;
import java.util.function.Consumer;

/**
 * Splits {@code requests.jsonl} into lines on raw bytes (1 MiB reads, no per-line String) and parses each
 * with {@link RequestParser}. Line numbers are 1-based and count every line, blank ones included.
 */
final class RequestLines {
    private static final int BUFFER = 1 << 20;

    private RequestLines() {}

    /**
     * Reads {@code file} (absent: nothing), handing each well-formed record to {@code out} and each malformed
     * line to {@code problems}; returns whether the file ended in an unterminated line that does not parse
     * (a crash mid-write: tolerated, not a problem). An unterminated last line that parses is a record.
     */
    static boolean read(Path file, Consumer<RequestRecord> out, List<LoadedRun.LineProblem> problems)
            throws IOException {
        if (!Files.exists(file)) {
            return false;
        }
        RequestParser parser = new RequestParser();
        byte[] buf = new byte[BUFFER];
        int start = 0;
        int end = 0;
        long line = 0;
        try (InputStream in = Files.newInputStream(file)) {
            for (int n; (n = in.read(buf, end, buf.length - end)) >= 0; ) {
                int scanFrom = end;
                end += n;
                for (int i = scanFrom; i < end; i++) {
                    if (buf[i] == '\n') {
                        handle(parser, buf, start, i, ++line, out, problems);
                        start = i + 1;
                    }
                }
                if (start > 0) {
                    System.arraycopy(buf, start, buf, 0, end - start);
                    end -= start;
                    start = 0;
                }
                if (end == buf.length) {
                    buf = Arrays.copyOf(buf, 2 * buf.length); // a line longer than the buffer
                }
            }
        }
        if (end == 0 || blank(buf, 0, end)) {
            return false;
        }
        RequestRecord last = parseOrNull(parser, buf, 0, trimCr(buf, 0, end), null, ++line);
        if (last == null) {
            return true;
        }
        out.accept(last);
        return false;
    }

    private static void handle(RequestParser parser, byte[] buf, int from, int to, long line,
                               Consumer<RequestRecord> out, List<LoadedRun.LineProblem> problems) {
        int stop = trimCr(buf, from, to);
        if (blank(buf, from, stop)) {
            return;
        }
        RequestRecord r = parseOrNull(parser, buf, from, stop, problems, line);
        if (r != null) {
            out.accept(r); // outside the try: a consumer's failure is not a malformed line
        }
    }

    private static RequestRecord parseOrNull(RequestParser parser, byte[] buf, int from, int to,
                                             List<LoadedRun.LineProblem> problems, long line) {
        try {
            return parser.parse(buf, from, to - from);
        } catch (IOException | RuntimeException e) {
            if (problems != null) {
                problems.add(new LoadedRun.LineProblem(line, e.getClass().getSimpleName() + ": "
                        + String.valueOf(e.getMessage()).lines().findFirst().orElse("")));
            }
            return null;
        }
    }

    private static int trimCr(byte[] buf, int from, int to) {
        return to > from && buf[to - 1] == '\r' ? to - 1 : to;
    }

    private static boolean blank(byte[] buf, int from, int to) {
        for (int i = from; i < to; i++) {
            if (buf[i] != ' ' && buf[i] != '\t' && buf[i] != '\r' && buf[i] != '\n') {
                return false;
            }
        }
        return true;
    }
}
