package dev.kneepoint.workload;

import dev.kneepoint.client.ApiKind;
import dev.kneepoint.client.TargetConfig;
import dev.kneepoint.metrics.Problems;
import dev.kneepoint.request.RequestSpec;
import java.nio.file.Path;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.SplittableRandom;

/**
 * The requests of a {@link Trace}: request {@code i} is trace record {@code i mod size()}, with the record's
 * output length (else {@link Builder#defaultOutputTokens}, else no bound) and a prompt of its {@code input_length} (or its own text, sent as is). Build with
 * {@link Workloads#trace(Path)}; replay it at the trace's instants with {@code Sweep.trace(...)}.
 *
 * <p><b>Prompts from hash ids.</b> {@code input_length} is the whole prompt as the server counts it
 * ({@code usage.prompt_tokens}, chat template included), like {@link SyntheticWorkload}'s. The text after the
 * template is laid out in blocks of {@link Trace#blockSize()} tokens: block {@code b} of a request with hash id
 * {@code h} at that position is synthetic text drawn from a generator seeded by {@code (seed, salt, h)} only, so
 * two requests that share leading hash ids share their leading blocks byte for byte (a server's prefix cache
 * hits them) and different ids give different text. The last hash block may be partial; whatever remains after
 * the hash blocks is text of the request's own. Lengths are exact under the calibrator's tokenizer (assumed:
 * one token per word, exact on the embedded simulator; {@link Builder#calibrate(TargetConfig)} measures a
 * server's). Deterministic by index; thread-safe.
 */
public final class TraceWorkload implements DescribedWorkload {
    private static final long PAD_STREAM = 0x7061645F74726163L;

    private final Trace trace;
    private final Builder b;
    private final PromptCalibrator cal;
    private final long salt;
    private final int overhead;

    private TraceWorkload(Trace trace, Builder b, PromptCalibrator cal, long salt) {
        this.trace = trace;
        this.b = b;
        this.cal = cal;
        this.salt = salt;
        this.overhead = b.api.isChat() ? cal.chatOverhead(List.of("user")) : cal.promptOverhead();
    }

    /** The trace behind the requests (its instants drive the arrivals of a trace step). */
    public Trace trace() {
        return trace;
    }

    @Override
    public RequestSpec next(long index) {
        int k = (int) Math.floorMod(index, (long) trace.size());
        int out = trace.outputTokens(k) > 0 ? trace.outputTokens(k) : b.defaultOutput;
        OutputControl.Fields f = out > 0 ? b.control.fields(out) : new OutputControl.Fields(-1, Map.of());
        int in = trace.inputTokens(k);
        String prompt = trace.hasText(k) ? trace.text(k) : prompt(k, index, in);
        return new RequestSpec(prompt, List.of(), f.maxTokens(), in > 0 ? in : -1, f.extraBody(), b.tag);
    }

    /** The synthetic prompt of record {@code k}: shared hash blocks first, then text of the request's own. */
    private String prompt(int k, long index, int in) {
        int body = Math.max(1, in - overhead);
        int block = trace.blockSize();
        StringBuilder sb = new StringBuilder(body * 6);
        int used = 0;
        for (int pos = 0; pos < trace.hashCount(k) && used < body; pos++) {
            int len = Math.min(block, body - used);
            appendBlock(sb, trace.hashId(k, pos), pos == 0, len);
            used += len;
        }
        if (used < body) {
            SplittableRandom rnd = new SplittableRandom(LengthDistribution.mix(LengthDistribution.mix(b.seed ^ PAD_STREAM,
                    salt), index));
            if (used == 0) {
                sb.append(cal.text(rnd, body).text());
            } else {
                cal.extend(sb, rnd, body - used);
            }
        }
        return sb.toString();
    }

    /**
     * The text of hash id {@code id} at a prompt's start ({@code first}) or after earlier blocks (each word after a
     * space), {@code tokens} long: a function of the id, the position kind and the length only. A shorter block
     * of the same id is a prefix of a longer one where every word costs one token (the simulator's tokenizer).
     */
    private void appendBlock(StringBuilder sb, int id, boolean first, int tokens) {
        SplittableRandom rnd = new SplittableRandom(LengthDistribution.mix(LengthDistribution.mix(b.seed, salt),
                ((long) id << 1) | (first ? 1 : 0)));
        if (first) {
            sb.append(cal.text(rnd, tokens).text());
        } else {
            cal.extend(sb, rnd, tokens);
        }
    }

    /** Counts the prompts of the first {@code n} requests with the calibrator's tokenizer: achieved vs requested. */
    public CalibrationReport verify(int n) {
        return cal.verify(this, n, b.api.isChat());
    }

    /** The calibrator in use. */
    public PromptCalibrator calibrator() {
        return cal;
    }

    /**
     * The same trace, settings and calibrator with another salt: other text for every hash id and padding. A trace
     * ladder ({@code Sweep.trace(...).rates(...)}) gives each step its own, so a step never finds the previous
     * step's prompts in the server's prefix cache.
     */
    public TraceWorkload withSalt(long newSalt) {
        return new TraceWorkload(trace, b, cal, newSalt);
    }

    /** The salt mixed into the text (0 with {@link Builder#warmCache()}). */
    public long salt() {
        return salt;
    }

    @Override
    public Map<String, Object> describe() {
        Map<String, Object> m = new LinkedHashMap<>();
        m.put("kind", "trace");
        m.put("file", trace.file().toString());
        m.put("records", trace.size());
        m.put("span_s", trace.spanNanos() / 1e9);
        m.put("block_size", trace.blockSize());
        m.put("hash_ids", trace.hashIdCount());
        m.put("records_with_text", trace.withText());
        m.put("api", b.api.name().toLowerCase(java.util.Locale.ROOT));
        m.put("output_control", b.control.describe());
        m.put("default_output_tokens", b.defaultOutput > 0 ? b.defaultOutput : null);
        PromptSettings.describeText(m, cal, b.seed, salt, b.tag);
        return m;
    }

    @Override
    public String toString() {
        return "TraceWorkload[" + trace + ", tag=" + b.tag + "]";
    }

    /** Validated builder; {@link #build()} reads the trace and reports every problem at once. */
    public static final class Builder extends PromptSettings<Builder> {
        private final Path file;
        private Trace trace;
        private int blockSize = Trace.DEFAULT_BLOCK_SIZE;
        private ApiKind api = ApiKind.CHAT;
        private int defaultOutput;

        Builder(Path file) {
            super("trace");
            this.file = file;
        }

        Builder(Trace trace) {
            super("trace");
            this.file = trace.file();
            this.trace = trace;
            this.blockSize = trace.blockSize();
        }

        /** Tokens per hash id (default {@value Trace#DEFAULT_BLOCK_SIZE}, Mooncake's). */
        public Builder blockSize(int tokens) { this.blockSize = tokens; return this; }

        /**
         * Output length of lines without {@code output_length} (default 0: none asked for, the server decides when
         * to stop, as AIPerf does for such lines).
         */
        public Builder defaultOutputTokens(int tokens) { this.defaultOutput = tokens; return this; }

        /** Chat (default) or completions: decides how the prompt is counted. */
        public Builder api(ApiKind kind) { this.api = kind; return this; }

        /** Calibrate with the target's own {@code /tokenize}; also takes its API kind. */
        public Builder calibrate(TargetConfig target) {
            this.api = target.apiKind();
            return calibrate(TokenCounter.server(target));
        }

        /**
         * Validates the settings, reads the trace (unless built from one) and measures the tokenizer if one
         * was given.
         *
         * @throws IllegalArgumentException listing every invalid setting
         * @throws DatasetException         listing every bad line of the trace
         */
        public TraceWorkload build() {
            Problems p = new Problems();
            if (file == null) {
                p.add("trace file is required");
            } else if (trace == null && !java.nio.file.Files.isRegularFile(file)) {
                p.add("trace file " + file + " does not exist or is not a file");
            }
            if (blockSize < 1) p.add("block size must be >= 1 token per hash id, got " + blockSize);
            if (trace != null && blockSize != trace.blockSize()) {
                p.add("block size " + blockSize + " differs from the trace's " + trace.blockSize()
                        + ": read the trace with Trace.read(file, " + blockSize + ")");
            }
            checkShared(p);
            if (api == null) p.add("api is required (CHAT or COMPLETIONS)");
            if (defaultOutput < 0) p.add("default output tokens must be >= 0 (0: no bound), got " + defaultOutput);
            p.throwListIfAny("trace workload", " - ");
            Trace t = trace != null ? trace : Trace.read(file, blockSize);
            PromptCalibrator c = resolveCalibrator();
            Builder copy = new Builder(t);
            copySharedTo(copy);
            copy.api = api;
            copy.defaultOutput = defaultOutput;
            return new TraceWorkload(t, copy, c, resolveSalt());
        }
    }
}
