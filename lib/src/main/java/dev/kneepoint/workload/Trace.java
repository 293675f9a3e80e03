package dev.kneepoint.workload;

import java.io.IOException;
import java.nio.ByteBuffer;
import java.nio.channels.FileChannel;
import java.nio.file.Path;
import java.nio.file.StandardOpenOption;
import java.util.Arrays;
import java.util.Objects;

/**
 * A request trace in the Mooncake / AIPerf shape, read once and held compactly: when each request
 * arrived and how long its prompt and answer were. One JSON object per line:
 *
 * <pre>{@code
 * {"timestamp": 0,    "input_length": 1536, "output_length": 64, "hash_ids": [0, 1, 2]}
 * {"timestamp": 12.5, "input_length": 700,  "output_length": 32, "hash_ids": [0, 7]}
 * {"timestamp": 40,   "text": "a prompt sent as is", "output_length": 16}
 * }</pre>
 *
 * <ul>
 *   <li>{@code timestamp}: milliseconds (a number, fractions allowed) from any origin; the first line is the
 *       trace's start, so absolute (epoch) timestamps work too. Lines must be in time order (equal is fine).</li>
 *   <li>{@code input_length}: prompt tokens, &gt; 0; required unless a text is given.</li>
 *   <li>{@code output_length}: answer tokens, &gt; 0; optional (AIPerf's schedules may omit it): without it the
 *       workload's default applies, by default no bound (the server decides).</li>
 *   <li>{@code hash_ids}: optional list of integers, one per prompt block of {@link #blockSize()} tokens
 *       (the last block may be partial): requests that share leading hash ids share that much of their
 *       prompt, block by block, so a server's prefix cache hits as it did in production. At most
 *       {@code ceil(input_length / blockSize)} of them.</li>
 *   <li>{@code text} (also {@code prompt}, {@code input_text} or {@code text_input}): optional prompt sent as is instead of a
 *       synthetic one; {@code input_length} is then only the length recorded as requested.</li>
 * </ul>
 * Unknown fields are ignored; blank lines are skipped. Every problem of the file is reported at once
 * ({@link DatasetException}, with line numbers and the fix). Storage is a few arrays (a long and two ints
 * per record plus an int per hash id; texts stay on disk and are read when sent), so a million-line trace
 * takes tens of megabytes. Immutable and thread-safe.
 */
public final class Trace {
    /** The block size of Mooncake traces, in tokens per hash id. */
    public static final int DEFAULT_BLOCK_SIZE = 512;

    private final Path file;
    private final int blockSize;
    /** The scanned records, in trace order: the arrays the accessors read. */
    private final TraceScan.Result records;

    Trace(Path file, int blockSize, TraceScan.Result records) {
        this.file = file;
        this.blockSize = blockSize;
        this.records = records;
    }

    /** Reads a trace with Mooncake's block size of {@value #DEFAULT_BLOCK_SIZE} tokens per hash id. */
    public static Trace read(Path file) {
        return read(file, DEFAULT_BLOCK_SIZE);
    }

    /**
     * Reads and validates a trace, streaming (one pass, one line in memory at a time).
     *
     * @param blockSize tokens per hash id (prefix block), &gt;= 1
     * @throws DatasetException listing every bad line with its number and how to fix it, or if the file
     *                          cannot be read or holds no record
     * @throws IllegalArgumentException if the block size is &lt; 1
     */
    public static Trace read(Path file, int blockSize) {
        Objects.requireNonNull(file, "file");
        if (blockSize < 1) {
            throw new IllegalArgumentException("trace block size must be >= 1 token per hash id, got " + blockSize);
        }
        return new Trace(file, blockSize, TraceScan.scan(file, blockSize));
    }

    /** The file read. */
    public Path file() {
        return file;
    }

    /** Tokens per hash id. */
    public int blockSize() {
        return blockSize;
    }

    /** Records (requests) in the trace. */
    public int size() {
        return records.input().length;
    }

    /** When request {@code i} arrived, in nanoseconds after the first request (the first is at 0). */
    public long offsetNanos(int i) {
        return records.timestampNanos()[i] - records.timestampNanos()[0];
    }

    /** Every request's {@link #offsetNanos(int)}, in trace order (non-decreasing, the first 0). */
    public long[] offsetsNanos() {
        long[] out = new long[size()];
        for (int i = 0; i < out.length; i++) {
            out[i] = offsetNanos(i);
        }
        return out;
    }

    /** Time from the first to the last request, in nanoseconds (0 for a single request). */
    public long spanNanos() {
        return offsetNanos(size() - 1);
    }

    /** Prompt tokens of request {@code i} ({@code input_length}; 0 when a text without a length was given). */
    public int inputTokens(int i) {
        return records.input()[i];
    }

    /** Answer tokens of request {@code i} ({@code output_length}; 0 when the line has none). */
    public int outputTokens(int i) {
        return records.output()[i];
    }

    /** The hash ids of request {@code i} (a copy; empty when none). */
    public int[] hashIds(int i) {
        return Arrays.copyOfRange(records.hashes(), records.hashStart()[i], records.hashStart()[i + 1]);
    }

    /** Number of hash ids of request {@code i}. */
    int hashCount(int i) {
        return records.hashStart()[i + 1] - records.hashStart()[i];
    }

    /** Hash id {@code b} of request {@code i}. */
    int hashId(int i, int b) {
        return records.hashes()[records.hashStart()[i] + b];
    }

    /** Hash ids over all requests (with repeats). */
    public long hashIdCount() {
        return records.hashes().length;
    }

    /** Requests that carry their own prompt text. */
    public int withText() {
        return records.withText();
    }

    /** True when request {@code i} carries its own prompt text. */
    public boolean hasText(int i) {
        return records.textOffset() != null && records.textOffset()[i] >= 0;
    }

    /**
     * The prompt text of request {@code i}, read from the file (texts are not kept in memory).
     *
     * @throws IllegalStateException if the request has no text
     * @throws DatasetException      if the file changed since it was read
     */
    public String text(int i) {
        if (!hasText(i)) {
            throw new IllegalStateException("trace request " + i + " has no text: it is built from input_length");
        }
        ByteBuffer buf = ByteBuffer.allocate(records.textLength()[i]);
        try (FileChannel ch = FileChannel.open(file, StandardOpenOption.READ)) {
            long pos = records.textOffset()[i];
            while (buf.hasRemaining()) {
                int n = ch.read(buf, pos);
                if (n < 0) {
                    throw new IOException("file ended early");
                }
                pos += n;
            }
            return TraceScan.textOf(buf.array());
        } catch (IOException | IllegalArgumentException e) {
            throw new DatasetException(file, "request " + i + "'s line changed since the trace was read: "
                    + e.getMessage(), e);
        }
    }

    @Override
    public String toString() {
        return String.format(java.util.Locale.ROOT, "Trace[%s, %d requests over %.3f s, block %d, %d with text]",
                file.getFileName(), size(), spanNanos() / 1e9, blockSize, records.withText());
    }
}
