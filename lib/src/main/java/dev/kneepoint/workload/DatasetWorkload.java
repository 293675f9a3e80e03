package dev.kneepoint.workload;

import com.fasterxml.jackson.databind.ObjectMapper;
import dev.kneepoint.metrics.Problems;
import dev.kneepoint.request.RequestSpec;
import java.io.BufferedInputStream;
import java.io.ByteArrayOutputStream;
import java.io.IOException;
import java.io.InputStream;
import java.io.RandomAccessFile;
import java.io.UncheckedIOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

/**
 * Requests read from a JSONL dataset (shapes: see {@link Workloads#dataset(Path)}), streamed: the
 * file is scanned once when built (every line parsed, every malformed one reported with its line
 * number) and only the byte offset of each record is kept; {@code next(i)} reads record
 * {@code order(i mod n)} from disk. Records cycle deterministically; an optional shuffle permutes
 * records within windows of {@code w} records, seeded, differently each cycle. The first pass sends the records as
 * they are; each repeat (request {@code i >= n}) is salted by default: its first message after any system prompt
 * starts with a short text of the run's salt and the cycle, so a repeat does not find the first pass's prompt in the
 * server's prefix cache and measure a warm cache as if it were the workload ({@link Builder#noSalt()} sends repeats
 * unchanged).
 * Data only: nothing in a dataset is executed. Thread-safe; {@link #close()} releases the file.
 */
public final class DatasetWorkload implements DescribedWorkload, AutoCloseable {
    private static final ObjectMapper MAPPER = new ObjectMapper();

    private final Path file;
    private final long[] offsets;
    private final int[] lengths;
    private final long[] lineNumbers;
    private final List<DatasetException.Problem> skipped;
    private final List<Integer> outputLengths;
    private final LengthDistribution defaultOutput;
    private final OutputControl control;
    private final Format format;
    private final int window;
    private final long seed;
    private final String tag;
    /** The repeats' salt; 0: repeats go unchanged. */
    private final long salt;
    private final Object lock = new Object();
    private RandomAccessFile raf;

    private DatasetWorkload(Builder b, Scan s) {
        this.file = b.file;
        this.offsets = s.offsets;
        this.lengths = s.lengths;
        this.lineNumbers = s.lines;
        this.skipped = List.copyOf(s.problems);
        this.outputLengths = List.copyOf(s.outputLengths);
        this.defaultOutput = b.output;
        this.control = b.control;
        this.format = b.format;
        this.window = b.window;
        this.seed = b.seed;
        this.tag = b.tag;
        this.salt = b.salt != null ? b.salt : Salt.fresh();
    }

    /** Records in the file. */
    public int size() {
        return offsets.length;
    }

    /** Malformed lines skipped in lenient mode (empty otherwise: strict mode refuses them). */
    public List<DatasetException.Problem> skipped() {
        return skipped;
    }

    /** The explicit output lengths found in the file, as an empirical distribution (null if none). */
    public LengthDistribution outputLengths() {
        return outputLengths.isEmpty() ? null : Lengths.empirical(outputLengths, file.getFileName().toString());
    }

    /** Counts every record's prompt with {@code counter} (one call per record): the empirical input lengths. */
    public LengthDistribution promptLengths(TokenCounter counter) {
        List<Integer> v = new ArrayList<>(size());
        for (int k = 0; k < size(); k++) {
            v.add(counter.countChat(read(k).messages()));
        }
        return Lengths.empirical(v, file.getFileName() + " via " + counter.describe());
    }

    /** Which record (0-based, in file order) request {@code index} sends. */
    public int recordOf(long index) {
        int n = size();
        long cycle = index / n;
        int k = (int) (index % n);
        if (window <= 1) {
            return k;
        }
        int blockStart = k / window * window;
        int s = Math.min(window, n - blockStart);
        long h = LengthDistribution.mix(seed, cycle * 1_000_003L + blockStart);
        long a = Math.floorMod(h, (long) s) | 1;
        while (gcd(a, s) != 1) {
            a++;
        }
        long c = Math.floorMod(h >>> 20, (long) s);
        return blockStart + (int) ((a * (k - blockStart) + c) % s);
    }

    @Override
    public RequestSpec next(long index) {
        DatasetRecord r = read(recordOf(index));
        int out = r.outputTokens() > 0 ? r.outputTokens() : defaultOutput.sample(seed, index);
        OutputControl.Fields f = control.fields(out);
        List<RequestSpec.ChatMessage> msgs = salted(r.messages(), index / size());
        String prompt = msgs.get(msgs.size() - 1).content();
        return new RequestSpec(prompt, msgs.size() > 1 ? msgs : List.of(), f.maxTokens(), r.promptTokens(),
                f.extraBody(), r.tag() != null ? r.tag() : tag);
    }

    /**
     * {@code msgs} of a request of cycle {@code cycle}: unchanged in the first pass, else its first message after any
     * system messages salted.
     */
    private List<RequestSpec.ChatMessage> salted(List<RequestSpec.ChatMessage> msgs, long cycle) {
        if (cycle == 0 || salt == 0) {
            return msgs;
        }
        List<RequestSpec.ChatMessage> out = new ArrayList<>(msgs);
        int k = 0;
        while (k < out.size() - 1 && out.get(k).role().equals("system")) {
            k++; // a system prompt shared by the records stays shared, as it would be in production
        }
        RequestSpec.ChatMessage first = out.get(k);
        String mark = "(" + Long.toHexString(LengthDistribution.mix(salt, cycle)) + ") ";
        out.set(k, new RequestSpec.ChatMessage(first.role(), mark + first.content()));
        return out;
    }

    /** True when repeats of the records are salted (the default). */
    public boolean salted() {
        return salt != 0;
    }

    private DatasetRecord read(int k) {
        byte[] bytes = new byte[lengths[k]];
        try {
            synchronized (lock) {
                if (raf == null) {
                    raf = new RandomAccessFile(file.toFile(), "r");
                }
                raf.seek(offsets[k]);
                raf.readFully(bytes);
            }
            return DatasetRecord.parse(MAPPER.readTree(bytes));
        } catch (IOException | IllegalArgumentException e) {
            throw new DatasetException(file, "line " + lineNumbers[k] + " changed since the scan: " + e.getMessage(), e);
        }
    }

    @Override
    public void close() {
        synchronized (lock) {
            if (raf != null) {
                try {
                    raf.close();
                } catch (IOException e) {
                    throw new UncheckedIOException(e);
                } finally {
                    raf = null;
                }
            }
        }
    }

    @Override
    public Map<String, Object> describe() {
        Map<String, Object> m = new LinkedHashMap<>();
        m.put("kind", "dataset");
        m.put("file", file.toString());
        m.put("records", size());
        m.put("skipped_lines", skipped.stream().map(DatasetException.Problem::line).toList());
        m.put("default_output_tokens", defaultOutput.describe());
        m.put("output_control", control.describe());
        m.put("shuffle_window", window);
        m.put("seed", seed);
        m.put("tag", tag);
        m.put("format", format.label());
        m.put("repeats_salted", salt != 0);
        if (salt != 0) {
            m.put("salt", Long.toUnsignedString(salt, 16));
        }
        return m;
    }

    private static long gcd(long a, long b) {
        return b == 0 ? a : gcd(b, a % b);
    }

    /** What one scan of the file found. */
    private record Scan(long[] offsets, int[] lengths, long[] lines, List<DatasetException.Problem> problems,
                        List<Integer> outputLengths) {
    }

    /**
     * The shape every line must have: {@code ANY} takes each of the three ({@link Workloads#dataset(Path)}); the others
     * require theirs, so a file of another shape is refused with its first lines rather than read as something else.
     */
    public enum Format {
        ANY(null), OPENAI("messages"), SHAREGPT("conversations"), PROMPTS("prompt");

        private final String field;

        Format(String field) {
            this.field = field;
        }

        /** The format's name on the command line: {@code any}, {@code openai}, {@code sharegpt}, {@code prompts}. */
        public String label() {
            return name().toLowerCase(java.util.Locale.ROOT);
        }

        /** The format named {@code label}, or an error listing the names. */
        public static Format parse(String label) {
            for (Format f : values()) {
                if (f.label().equals(label.strip().toLowerCase(java.util.Locale.ROOT))) {
                    return f;
                }
            }
            throw new IllegalArgumentException("dataset format must be any, openai, sharegpt or prompts, got '"
                    + label + "'");
        }

        void check(com.fasterxml.jackson.databind.JsonNode n) {
            if (field != null && n.isObject() && !n.has(field)) {
                throw new IllegalArgumentException("no '" + field + "' field, which the " + label() + " format needs"
                        + " (a line of another shape: give its format, or any)");
            }
        }
    }

    /** Reads the file once, line by line, keeping offsets of good records and every problem. */
    private static Scan scan(Path file, Format format) {
        long[] off = new long[1024];
        int[] len = new int[1024];
        long[] lines = new long[1024];
        int n = 0;
        List<DatasetException.Problem> problems = new ArrayList<>();
        List<Integer> outs = new ArrayList<>();
        try (InputStream in = new BufferedInputStream(Files.newInputStream(file), 1 << 16)) {
            ByteArrayOutputStream line = new ByteArrayOutputStream(4096);
            long pos = 0;
            long lineStart = 0;
            long lineNo = 0;
            boolean eof = false;
            while (!eof) {
                int c = in.read();
                if (c >= 0) {
                    pos++;
                }
                if (c == '\n' || c < 0) {
                    eof = c < 0;
                    if (c >= 0 || line.size() > 0) {
                        lineNo++;
                        byte[] bytes = line.toByteArray();
                        String text = new String(bytes, StandardCharsets.UTF_8);
                        if (!text.isBlank()) {
                            try {
                                com.fasterxml.jackson.databind.JsonNode node = MAPPER.readTree(bytes);
                                format.check(node);
                                DatasetRecord r = DatasetRecord.parse(node);
                                if (r.outputTokens() > 0) {
                                    outs.add(r.outputTokens());
                                }
                                if (n == off.length) {
                                    off = Arrays.copyOf(off, n * 2);
                                    len = Arrays.copyOf(len, n * 2);
                                    lines = Arrays.copyOf(lines, n * 2);
                                }
                                off[n] = lineStart;
                                len[n] = bytes.length;
                                lines[n] = lineNo;
                                n++;
                            } catch (IOException e) {
                                problems.add(new DatasetException.Problem(lineNo, "not valid JSON ("
                                        + firstLine(e.getMessage()) + ")"));
                            } catch (IllegalArgumentException e) {
                                problems.add(new DatasetException.Problem(lineNo, e.getMessage()));
                            }
                        }
                    }
                    line.reset();
                    lineStart = pos;
                } else {
                    line.write(c);
                }
            }
        } catch (IOException e) {
            throw new DatasetException(file, "cannot be read: " + e, e);
        }
        return new Scan(Arrays.copyOf(off, n), Arrays.copyOf(len, n), Arrays.copyOf(lines, n), problems, outs);
    }

    private static String firstLine(String s) {
        if (s == null) {
            return "unreadable";
        }
        int nl = s.indexOf('\n');
        return nl < 0 ? s : s.substring(0, nl);
    }

    /** Builder; {@link #build()} scans the file and reports every problem at once. */
    public static final class Builder {
        private final Path file;
        private LengthDistribution output = Lengths.fixed(128);
        private OutputControl control = OutputControl.exact(OutputControl.Server.VLLM);
        private int window = 1;
        private long seed = 42;
        private String tag = "dataset";
        private boolean lenient;
        private Format format = Format.ANY;
        private Long salt;

        Builder(Path file) {
            this.file = file;
        }

        /** Output length for records without {@code output_tokens} (default fixed 128). */
        public Builder outputTokens(LengthDistribution d) { this.output = d; return this; }

        public Builder output(OutputControl c) { this.control = c; return this; }

        /** Shuffle records within windows of this many (1: file order, the default). */
        public Builder shuffle(int windowRecords) { this.window = windowRecords; return this; }

        public Builder seed(long s) { this.seed = s; return this; }

        /** Tag for records without their own {@code tag} (default {@code dataset}). */
        public Builder tag(String t) { this.tag = t; return this; }

        /** Require every line to have this shape (default {@link Format#ANY}). */
        public Builder format(Format f) { this.format = java.util.Objects.requireNonNull(f, "format"); return this; }

        /** Fix the repeats' salt (default: fresh per build, so no run finds another's repeats in a warm cache). */
        public Builder salt(long s) { this.salt = s; return this; }

        /** Send repeats of the records unchanged: after the first pass they may hit a warm prefix cache. */
        public Builder noSalt() { this.salt = 0L; return this; }

        /** Skip malformed lines instead of failing; they are listed in {@link DatasetWorkload#skipped()}. */
        public Builder lenient() { this.lenient = true; return this; }

        /**
         * Validates the settings, scans the file, and builds.
         *
         * @throws DatasetException naming the file and every malformed line (strict mode), or if
         *                          it cannot be read or holds no record
         */
        public DatasetWorkload build() {
            Problems p = new Problems();
            if (file == null) p.add("dataset file is required");
            else if (!Files.isRegularFile(file)) p.add("dataset file " + file + " does not exist or is not a file");
            if (output == null) p.add("outputTokens is required");
            if (control == null) p.add("output control is required");
            if (window < 1) p.add("shuffle window must be >= 1, got " + window);
            if (tag == null || tag.isBlank()) p.add("tag must not be blank");
            p.throwListIfAny("dataset workload", " - ");
            Scan s = scan(file, format);
            if (!s.problems().isEmpty() && !lenient) {
                throw new DatasetException(file, s.problems());
            }
            if (s.offsets().length == 0) {
                throw new DatasetException(file, List.of(new DatasetException.Problem(0, "no records in the file")));
            }
            return new DatasetWorkload(this, s);
        }
    }
}
