package dev.kneepoint.io;

import dev.kneepoint.metrics.RequestRecord;
import java.io.IOException;
import java.io.InputStream;
import java.io.InterruptedIOException;
import java.io.UncheckedIOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.concurrent.ArrayBlockingQueue;
import java.util.concurrent.BlockingQueue;

/**
 * Splits {@code requests.jsonl} into lines on raw bytes (1 MiB reads, no per-line String) and parses each
 * with {@link RequestParser}. Line numbers are 1-based and count every line, blank ones included.
 *
 * <p>Two ways: {@link #read} reads, parses and hands over on the calling thread; {@link #readAhead} reads and
 * parses on a second thread of its own (ended before it returns) while the calling thread consumes the
 * records, in the same order and with the same problems. Each record is handed with the byte offset of its line,
 * from which a later read may start ({@code from}: the offset of a line's start; its line numbers then count
 * from there).
 */
final class RequestLines {
    /** Takes each record with the byte offset in the file where its line starts. */
    @FunctionalInterface
    interface Sink {
        void accept(RequestRecord r, long offset);
    }

    private static final int BUFFER = 1 << 20;
    /** Records per hand-over from the parsing thread: amortises the queue, ~1 MB of records in flight. */
    private static final int BATCH = 1024;
    /** Batches the parsing thread may run ahead of the consumer. */
    private static final int AHEAD = 8;
    /** Files smaller than this are read on the calling thread by {@link #readAuto}: a thread is not worth it. */
    static final long AHEAD_MIN_BYTES = 4L << 20;

    private RequestLines() {}

    /**
     * {@link #readAhead} for a file of at least {@link #AHEAD_MIN_BYTES} on a machine with two or more
     * processors, else {@link #read}: the same records, order and problems either way.
     */
    static boolean readAuto(Path file, long from, Sink out, List<LoadedRun.LineProblem> problems)
            throws IOException {
        boolean ahead = Runtime.getRuntime().availableProcessors() > 1 && Files.exists(file)
                && Files.size(file) - from >= AHEAD_MIN_BYTES;
        return ahead ? readAhead(file, from, out, problems) : read(file, from, out, problems);
    }

    /** A batch of records handed from the parsing thread, with their lines' offsets; null-terminated when short. */
    private record Batch(RequestRecord[] records, long[] offsets) {
        Batch() {
            this(new RequestRecord[BATCH], new long[BATCH]);
        }
    }

    /** The end of the parsing thread's work: the truncation flag, its problems, or what it failed with. */
    private record End(boolean truncated, List<LoadedRun.LineProblem> problems, Throwable failure) {}

    /** Stops the parsing thread when the consumer is gone; carries no stack trace. */
    private static final class Abandoned extends RuntimeException {
        Abandoned() {
            super(null, null, false, false);
        }
    }

    /**
     * As {@link #read}, but reading and parsing run on a new platform thread ({@code kneepoint-parse}) while
     * {@code out} is called on the calling thread, in file order. The thread ends before this returns or
     * throws, also when {@code out} throws or the calling thread is interrupted (then an
     * {@link InterruptedIOException} is thrown and the interrupt flag is set again).
     */
    static boolean readAhead(Path file, long from, Sink out, List<LoadedRun.LineProblem> problems)
            throws IOException {
        if (!Files.exists(file)) {
            return false;
        }
        BlockingQueue<Object> queue = new ArrayBlockingQueue<>(AHEAD);
        Thread parser = Thread.ofPlatform().name("kneepoint-parse").daemon(true)
                .unstarted(() -> parseInto(file, from, queue));
        parser.start();
        boolean ended = false;
        try {
            while (true) {
                Object item = queue.take();
                if (item instanceof Batch batch) {
                    RequestRecord[] records = batch.records();
                    for (int i = 0; i < records.length && records[i] != null; i++) {
                        out.accept(records[i], batch.offsets()[i]);
                    }
                } else {
                    End end = (End) item;
                    ended = true;
                    switch (end.failure()) {
                        case null -> { }
                        case IOException e -> throw new IOException(e.getMessage(), e);
                        case UncheckedIOException e -> throw new IOException(e.getMessage(), e);
                        case RuntimeException e -> throw e;
                        case Error e -> throw e;
                        default -> throw new IllegalStateException(end.failure());
                    }
                    problems.addAll(end.problems());
                    return end.truncated();
                }
            }
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            throw new InterruptedIOException("interrupted while reading " + file);
        } finally {
            if (!ended) {
                parser.interrupt();
            }
            joinQuietly(parser);
        }
    }

    /** The parsing thread: batches of records, then one {@link End}. */
    private static void parseInto(Path file, long from, BlockingQueue<Object> queue) {
        List<LoadedRun.LineProblem> problems = new ArrayList<>();
        Batch[] batch = {new Batch()};
        int[] size = {0};
        End end;
        try {
            boolean truncated = read(file, from, (r, offset) -> {
                batch[0].records()[size[0]] = r;
                batch[0].offsets()[size[0]++] = offset;
                if (size[0] == BATCH) {
                    put(queue, batch[0]);
                    batch[0] = new Batch();
                    size[0] = 0;
                }
            }, problems);
            if (size[0] > 0) {
                put(queue, batch[0]);
            }
            end = new End(truncated, problems, null);
        } catch (Abandoned e) {
            return;
        } catch (Throwable e) {
            if (Thread.currentThread().isInterrupted()) {
                return; // the consumer is gone (an interrupted read fails with ClosedByInterruptException)
            }
            end = new End(false, List.of(), e);
        }
        try {
            put(queue, end);
        } catch (Abandoned e) {
            // the consumer is gone
        }
    }

    private static void put(BlockingQueue<Object> queue, Object item) {
        try {
            queue.put(item);
        } catch (InterruptedException e) {
            throw new Abandoned();
        }
    }

    private static void joinQuietly(Thread t) {
        boolean interrupted = false;
        while (true) {
            try {
                t.join();
                break;
            } catch (InterruptedException e) {
                interrupted = true;
            }
        }
        if (interrupted) {
            Thread.currentThread().interrupt();
        }
    }

    /**
     * Reads {@code file} (absent: nothing), handing each well-formed record to {@code out} and each malformed
     * line to {@code problems}; returns whether the file ended in an unterminated line that does not parse
     * (a crash mid-write: tolerated, not a problem). An unterminated last line that parses is a record. Starts at
     * byte {@code from} (0, or where a line starts).
     */
    static boolean read(Path file, long from, Sink out, List<LoadedRun.LineProblem> problems)
            throws IOException {
        if (!Files.exists(file)) {
            return false;
        }
        RequestParser parser = new RequestParser();
        byte[] buf = new byte[BUFFER];
        int start = 0;
        int end = 0;
        long line = 0;
        long base = from; // the file offset of buf[0]
        try (InputStream in = Files.newInputStream(file)) {
            in.skipNBytes(from);
            for (int n; (n = in.read(buf, end, buf.length - end)) >= 0; ) {
                int i = end;
                end += n;
                while ((i = newline(buf, i, end)) < end) {
                    handle(parser, buf, start, i, ++line, base + start, out, problems);
                    start = ++i;
                }
                if (start > 0) {
                    System.arraycopy(buf, start, buf, 0, end - start);
                    end -= start;
                    base += start;
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
        out.accept(last, base);
        return false;
    }

    private static void handle(RequestParser parser, byte[] buf, int from, int to, long line, long offset,
                               Sink out, List<LoadedRun.LineProblem> problems) {
        int stop = trimCr(buf, from, to);
        if (blank(buf, from, stop)) {
            return;
        }
        RequestRecord r = parseOrNull(parser, buf, from, stop, problems, line);
        if (r != null) {
            out.accept(r, offset); // outside the try: a consumer's failure is not a malformed line
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

    /** The index of the first {@code '\n'} in {@code buf[from, to)}, or {@code to}: eight bytes per step. */
    static int newline(byte[] buf, int from, int to) {
        int i = from;
        for (; i + 8 <= to; i += 8) {
            long x = (long) CanonicalRequestParser.LONGS.get(buf, i) ^ 0x0A0A0A0A0A0A0A0AL; // '\n' bytes become 0
            long zero = (x - 0x0101010101010101L) & ~x & 0x8080808080808080L; // the lowest set bit: the first 0
            if (zero != 0) {
                return i + (Long.numberOfTrailingZeros(zero) >>> 3);
            }
        }
        while (i < to && buf[i] != '\n') {
            i++;
        }
        return i;
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
