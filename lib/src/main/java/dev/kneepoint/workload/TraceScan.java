package dev.kneepoint.workload;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import java.io.IOException;
import java.io.InputStream;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.Locale;

/** One streaming pass over a trace file: every line parsed and checked, good records packed into arrays. */
final class TraceScan {
    private static final ObjectMapper MAPPER = new ObjectMapper();
    /** Problems kept in full; beyond this only their number (a broken million-line file must not fill the heap). */
    private static final int KEPT_PROBLEMS = 1000;
    private static final String[] TEXT_FIELDS = {"text", "prompt", "input_text", "text_input"};

    /** The packed records; {@code textOffset}/{@code textLength} are null when no record has a text. */
    record Result(long[] timestampNanos, int[] input, int[] output, int[] hashStart, int[] hashes,
                  long[] textOffset, int[] textLength, int withText) {
    }

    private final Path file;
    private final int blockSize;
    private final List<DatasetException.Problem> problems = new ArrayList<>();
    private long problemCount;
    private long[] ts = new long[1024];
    private int[] in = new int[1024];
    private int[] out = new int[1024];
    private int[] hashStart = new int[1025];
    private int[] hashes = new int[1024];
    private long[] textOffset;
    private int[] textLength;
    private int n;
    private int nHashes;
    private int withText;
    private long previousNanos = Long.MIN_VALUE;
    private double previousMs;
    private long previousLine;

    private TraceScan(Path file, int blockSize) {
        this.file = file;
        this.blockSize = blockSize;
    }

    static Result scan(Path file, int blockSize) {
        TraceScan s = new TraceScan(file, blockSize);
        s.readLines();
        if (s.problemCount > s.problems.size()) {
            s.problems.add(new DatasetException.Problem(0, "... " + (s.problemCount - s.problems.size())
                    + " more problems not listed"));
        }
        if (!s.problems.isEmpty()) {
            throw new DatasetException(file, s.problems);
        }
        if (s.n == 0) {
            throw new DatasetException(file, List.of(new DatasetException.Problem(0,
                    "no records in the trace: each line must be a JSON object with a timestamp and an input_length "
                            + "(or a text)")));
        }
        int n = s.n;
        return new Result(Arrays.copyOf(s.ts, n), Arrays.copyOf(s.in, n), Arrays.copyOf(s.out, n),
                Arrays.copyOf(s.hashStart, n + 1), Arrays.copyOf(s.hashes, s.nHashes),
                s.textOffset == null ? null : Arrays.copyOf(s.textOffset, n),
                s.textLength == null ? null : Arrays.copyOf(s.textLength, n), s.withText);
    }

    /** The prompt text of one line's bytes (the first of the text fields present). */
    static String textOf(byte[] line) throws IOException {
        JsonNode node = MAPPER.readTree(line);
        for (String f : TEXT_FIELDS) {
            if (node != null && node.get(f) != null && node.get(f).isTextual()) {
                return node.get(f).asText();
            }
        }
        throw new IOException("no text field");
    }

    /** Splits the file into lines by hand (64 KiB reads), remembering each line's byte offset. */
    private void readLines() {
        byte[] buf = new byte[1 << 16];
        byte[] line = new byte[4096];
        int len = 0;
        long pos = 0;
        long lineStart = 0;
        long lineNo = 0;
        try (InputStream stream = Files.newInputStream(file)) {
            int r;
            while ((r = stream.read(buf)) >= 0) {
                for (int k = 0; k < r; k++) {
                    byte c = buf[k];
                    pos++;
                    if (c == '\n') {
                        lineNo++;
                        line(line, len, lineNo, lineStart);
                        len = 0;
                        lineStart = pos;
                    } else {
                        if (len == line.length) {
                            line = Arrays.copyOf(line, Math.multiplyExact(len, 2));
                        }
                        line[len++] = c;
                    }
                }
            }
            if (len > 0) {
                line(line, len, lineNo + 1, lineStart);
            }
        } catch (IOException e) {
            throw new DatasetException(file, "cannot be read: " + e, e);
        }
    }

    private void problem(long lineNo, String message) {
        problemCount++;
        if (problems.size() < KEPT_PROBLEMS) {
            problems.add(new DatasetException.Problem(lineNo, message));
        }
    }

    private void line(byte[] bytes, int len, long lineNo, long offset) {
        if (isBlank(bytes, len)) {
            return;
        }
        JsonNode node;
        try {
            node = MAPPER.readTree(bytes, 0, len);
        } catch (IOException e) {
            String m = e.getMessage() == null ? "unreadable" : e.getMessage().lines().findFirst().orElse("");
            problem(lineNo, "not valid JSON (" + m + "): each line must be one JSON object");
            return;
        }
        if (node == null || !node.isObject()) {
            problem(lineNo, "not a JSON object: each line must be {\"timestamp\": ms, \"input_length\": N, "
                    + "\"output_length\": M}");
            return;
        }
        long before = problemCount;
        long nanos = timestamp(node, lineNo);
        String text = text(node, lineNo);
        int inTokens = length(node, "input_length", lineNo, text == null);
        int outTokens = length(node, "output_length", lineNo, false);
        int[] ids = hashIds(node, lineNo, text, inTokens);
        if (problemCount != before) {
            return;
        }
        add(nanos, inTokens, outTokens, ids, text == null ? -1 : offset, len);
    }

    private long timestamp(JsonNode node, long lineNo) {
        JsonNode t = node.get("timestamp");
        if (t == null || t.isNull()) {
            problem(lineNo, "timestamp is missing: give the request's arrival in milliseconds from the trace start");
            return Long.MIN_VALUE;
        }
        if (!t.isNumber() || !Double.isFinite(t.asDouble()) || t.asDouble() < 0) {
            problem(lineNo, "timestamp must be a number of milliseconds >= 0, got " + t);
            return Long.MIN_VALUE;
        }
        long nanos;
        if (t.isIntegralNumber() && t.canConvertToLong() && Math.abs(t.asLong()) < Long.MAX_VALUE / 1_000_000) {
            nanos = t.asLong() * 1_000_000L;
        } else if (t.asDouble() < Long.MAX_VALUE / 1e6) {
            // Exact decimal arithmetic: epoch milliseconds times 1e6 exceed a double's 53 bits.
            nanos = java.math.BigDecimal.valueOf(t.asDouble()).movePointRight(6)
                    .setScale(0, java.math.RoundingMode.HALF_EVEN).longValueExact();
        } else {
            problem(lineNo, "timestamp " + t + " ms is too large (more than 292 years)");
            return Long.MIN_VALUE;
        }
        if (nanos < previousNanos) {
            problem(lineNo, String.format(Locale.ROOT, "timestamp %s ms is before the previous request's %s ms "
                    + "(line %d): a trace must be in time order; sort it by timestamp, e.g. "
                    + "jq -s -c 'sort_by(.timestamp)[]' trace.jsonl", plain(t.asDouble()), plain(previousMs),
                    previousLine));
        }
        previousNanos = nanos;
        previousMs = t.asDouble();
        previousLine = lineNo;
        return nanos;
    }

    private String text(JsonNode node, long lineNo) {
        for (String f : TEXT_FIELDS) {
            JsonNode t = node.get(f);
            if (t != null && !t.isNull()) {
                if (!t.isTextual() || t.asText().isEmpty()) {
                    problem(lineNo, f + " must be a non-empty string (the prompt sent as is), got "
                            + abbreviate(t.toString()));
                    return ""; // given, though bad: input_length is still not required
                }
                return t.asText();
            }
        }
        return null;
    }

    /** A positive int field; 0 when absent and optional. */
    private int length(JsonNode node, String field, long lineNo, boolean required) {
        JsonNode v = node.get(field);
        if (v == null || v.isNull()) {
            if (required) {
                problem(lineNo, field + " is missing: give the " + (field.startsWith("input") ? "prompt" : "answer")
                        + " length in tokens" + (field.startsWith("input") ? " (or a text to send as is)" : ""));
            }
            return 0;
        }
        if (!v.isIntegralNumber() || !v.canConvertToInt() || v.asInt() <= 0) {
            problem(lineNo, field + " must be a whole number of tokens > 0, got " + abbreviate(v.toString()));
            return 0;
        }
        return v.asInt();
    }

    private int[] hashIds(JsonNode node, long lineNo, String text, int inTokens) {
        JsonNode h = node.get("hash_ids");
        if (h == null || h.isNull()) {
            return new int[0];
        }
        if (!h.isArray()) {
            problem(lineNo, "hash_ids must be a list of integers, got " + abbreviate(h.toString()));
            return new int[0];
        }
        if (text != null && !h.isEmpty()) {
            problem(lineNo, "has both a text and hash_ids: hash_ids build a synthetic prompt from input_length, a "
                    + "text is sent as is; drop one of them");
            return new int[0];
        }
        int[] ids = new int[h.size()];
        for (int k = 0; k < ids.length; k++) {
            JsonNode id = h.get(k);
            if (!id.isIntegralNumber() || !id.canConvertToInt()) {
                problem(lineNo, "hash_ids[" + k + "] must be an integer in the 32-bit range, got "
                        + abbreviate(id.toString()));
                return new int[0];
            }
            ids[k] = id.asInt();
        }
        long maxBlocks = inTokens <= 0 ? Long.MAX_VALUE : (inTokens + (long) blockSize - 1) / blockSize;
        if (ids.length > maxBlocks) {
            problem(lineNo, ids.length + " hash_ids of " + blockSize + " tokens need input_length > "
                    + (ids.length - 1L) * blockSize + ", got " + inTokens + ": at most ceil(input_length / block size) = "
                    + maxBlocks + " blocks fit; drop the trailing hash ids or read the trace with its own block size");
        }
        return ids;
    }

    private void add(long nanos, int inTokens, int outTokens, int[] ids, long offset, int len) {
        if (n == ts.length) {
            int cap = Math.multiplyExact(n, 2);
            ts = Arrays.copyOf(ts, cap);
            in = Arrays.copyOf(in, cap);
            out = Arrays.copyOf(out, cap);
            hashStart = Arrays.copyOf(hashStart, cap + 1);
            if (textOffset != null) {
                textOffset = Arrays.copyOf(textOffset, cap);
                textLength = Arrays.copyOf(textLength, cap);
            }
        }
        if (nHashes + ids.length > hashes.length) {
            hashes = Arrays.copyOf(hashes, Math.max(Math.multiplyExact(hashes.length, 2), nHashes + ids.length));
        }
        System.arraycopy(ids, 0, hashes, nHashes, ids.length);
        nHashes += ids.length;
        if (offset >= 0 && textOffset == null) {
            textOffset = new long[ts.length];
            textLength = new int[ts.length];
            Arrays.fill(textOffset, 0, n, -1);
        }
        if (textOffset != null) {
            textOffset[n] = offset;
            textLength[n] = offset >= 0 ? len : 0;
        }
        if (offset >= 0) {
            withText++;
        }
        ts[n] = nanos;
        in[n] = inTokens;
        out[n] = outTokens;
        n++;
        hashStart[n] = nHashes;
    }

    private static boolean isBlank(byte[] bytes, int len) {
        for (int i = 0; i < len; i++) {
            if (bytes[i] != ' ' && bytes[i] != '\t' && bytes[i] != '\r') {
                return false;
            }
        }
        return true;
    }

    private static String abbreviate(String s) {
        return s.length() <= 60 ? s : s.substring(0, 57) + "...";
    }

    private static String plain(double v) {
        return java.math.BigDecimal.valueOf(v).stripTrailingZeros().toPlainString();
    }
}
