package dev.kneepoint.sim;

import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Locale;
import java.util.Objects;

/**
 * Everything the simulator does, as one immutable value. Build with {@link #builder()} or start
 * from {@link #preset(String)}; {@link #toBuilder()} changes single parameters.
 *
 * <p>Step duration (see {@link StepCost}): {@code stepOverhead + prefillNanosPerToken * prefill
 * tokens + decodeNanosPerSeq * decoding sequences + attentionNanosPerContextToken * sum of the
 * context lengths of all scheduled sequences}, times {@code (1 + jitter * N(0,1))} clamped to
 * [0.5, 1.5].
 *
 * @param host bind address (default 127.0.0.1)
 * @param port port, 0 for an ephemeral one
 * @param modelName model id served and used as the {@code model_name} metric label
 * @param maxModelLen context length (prompt + output)
 * @param maxNumSeqs most sequences running at once (vLLM {@code max_num_seqs})
 * @param maxNumBatchedTokens token budget per step (vLLM {@code max_num_batched_tokens}); prefill is chunked to fit
 * @param blockSize KV-cache block size in tokens
 * @param kvCapacityTokens KV-cache capacity in tokens (rounded down to whole blocks)
 * @param prefixCaching whether block-aligned prompt prefixes are cached and reused
 * @param stepOverheadNanos fixed cost of every step
 * @param prefillNanosPerToken cost per prefill token in a step
 * @param decodeNanosPerSeq cost per decoding sequence in a step
 * @param attentionNanosPerContextToken cost per context token of every scheduled sequence
 * @param jitter relative standard deviation of the step duration (0 = none)
 * @param seed seed of jitter, output lengths, generated text and faults
 * @param outputLength output length the model would choose without {@code ignore_eos}
 * @param tokensPerChunk tokens a decode step produces per sequence (speculative-decoding-like), one SSE event each
 * @param maxWaiting most requests waiting for admission before new ones get 503 ({@code 0} = unbounded)
 * @param faults injected faults
 * @param emitNanosPerSeq the server front end's output cost per sequence: the k-th sequence of a step's
 *        batch is emitted {@code k * emitNanosPerSeq} after the step's end (pipelined with the next step;
 *        keep {@code maxNumSeqs * emitNanosPerSeq} below the step time). 0 = all at the step's end
 * @param embeddingDimensions size of the embeddings the pooling routes answer (default 384; a request's
 *        {@code dimensions} may ask for fewer)
 * @param loraAdapters names of LoRA adapters served beside the base model (vLLM's {@code --lora-modules}): a request
 *        may name one as its model; each costs as the base model does (none by default)
 */
public record SimConfig(String host, int port, String modelName, int maxModelLen, int maxNumSeqs,
                        int maxNumBatchedTokens, int blockSize, int kvCapacityTokens, boolean prefixCaching,
                        long stepOverheadNanos, double prefillNanosPerToken, double decodeNanosPerSeq,
                        double attentionNanosPerContextToken, double jitter, long seed,
                        LengthModel outputLength, int tokensPerChunk, int maxWaiting, FaultConfig faults,
                        long emitNanosPerSeq, int embeddingDimensions, List<String> loraAdapters) {

    /** Names accepted by {@link #preset(String)}. */
    public static final List<String> PRESETS = List.of("fast", "cpu-small", "gpu-8b", "gpu-70b-tp8");

    public SimConfig {
        Objects.requireNonNull(host, "host");
        Objects.requireNonNull(modelName, "modelName");
        Objects.requireNonNull(outputLength, "outputLength");
        Objects.requireNonNull(faults, "faults");
        loraAdapters = List.copyOf(loraAdapters);
    }

    /** True when {@code model} is served: the base model's name or one of its adapters'. */
    public boolean serves(String model) {
        return modelName.equals(model) || loraAdapters.contains(model);
    }

    /** Number of KV blocks ({@code kvCapacityTokens / blockSize}). */
    public int numKvBlocks() {
        return kvCapacityTokens / blockSize;
    }

    /**
     * A named preset. {@code fast}: millisecond steps for tests. {@code cpu-small}: a ~1B model on a
     * laptop CPU (4 sequences, 30 ms overhead, 1 ms per prefill token). {@code gpu-8b}: an 8B model
     * on one H100-class GPU (256 sequences, 6 ms overhead, 25 us per prefill token, ~400k tokens of
     * KV). {@code gpu-70b-tp8}: a 70B model tensor-parallel on 8 GPUs (512 sequences, 12 ms
     * overhead, 30 us per prefill token, 1.4M tokens of KV). See docs/SIMULATOR.md for all numbers.
     *
     * @throws IllegalArgumentException for an unknown name, listing the known ones
     */
    public static SimConfig preset(String name) {
        return presetBuilder(name).build();
    }

    /** The builder behind {@link #preset(String)}, to change some parameters before building. */
    public static Builder presetBuilder(String name) {
        Builder b = builder();
        switch (Objects.requireNonNull(name, "name").toLowerCase(Locale.ROOT)) {
            case "fast" -> b.modelName("sim-fast").maxModelLen(8192).maxNumSeqs(64).maxNumBatchedTokens(2048)
                    .blockSize(16).kvCapacityTokens(65_536).stepOverheadNanos(2_000_000).prefillNanosPerToken(2_000)
                    .decodeNanosPerSeq(20_000).attentionNanosPerContextToken(0.5).jitter(0)
                    .outputLength(LengthModel.uniform(8, 32));
            case "cpu-small" -> b.modelName("sim-cpu-small").maxModelLen(4096).maxNumSeqs(4).maxNumBatchedTokens(512)
                    .blockSize(16).kvCapacityTokens(16_384).stepOverheadNanos(30_000_000).prefillNanosPerToken(1_000_000)
                    .decodeNanosPerSeq(8_000_000).attentionNanosPerContextToken(20).jitter(0.03)
                    .outputLength(LengthModel.logNormal(128, 64));
            case "gpu-8b" -> b.modelName("sim-gpu-8b").maxModelLen(32_768).maxNumSeqs(256).maxNumBatchedTokens(8192)
                    .blockSize(16).kvCapacityTokens(400_000).stepOverheadNanos(6_000_000).prefillNanosPerToken(25_000)
                    .decodeNanosPerSeq(50_000).attentionNanosPerContextToken(40).jitter(0.02)
                    .outputLength(LengthModel.logNormal(256, 128));
            case "gpu-70b-tp8" -> b.modelName("sim-gpu-70b-tp8").maxModelLen(32_768).maxNumSeqs(512)
                    .maxNumBatchedTokens(8192).blockSize(16).kvCapacityTokens(1_400_000).stepOverheadNanos(12_000_000)
                    .prefillNanosPerToken(30_000).decodeNanosPerSeq(80_000).attentionNanosPerContextToken(12)
                    .jitter(0.02).outputLength(LengthModel.logNormal(256, 128));
            default -> throw new IllegalArgumentException(
                    "unknown simulator preset '" + name + "'; known presets: " + String.join(", ", PRESETS));
        }
        return b;
    }

    /** A builder with the {@code fast} preset's engine numbers, port 0, seed 42. */
    public static Builder builder() {
        return new Builder();
    }

    /** A builder initialised with this configuration. */
    public Builder toBuilder() {
        return new Builder().host(host).port(port).modelName(modelName).maxModelLen(maxModelLen).maxNumSeqs(maxNumSeqs)
                .maxNumBatchedTokens(maxNumBatchedTokens).blockSize(blockSize).kvCapacityTokens(kvCapacityTokens)
                .prefixCaching(prefixCaching).stepOverheadNanos(stepOverheadNanos)
                .prefillNanosPerToken(prefillNanosPerToken).decodeNanosPerSeq(decodeNanosPerSeq)
                .attentionNanosPerContextToken(attentionNanosPerContextToken).jitter(jitter).seed(seed)
                .outputLength(outputLength).tokensPerChunk(tokensPerChunk).maxWaiting(maxWaiting).faults(faults)
                .emitNanosPerSeq(emitNanosPerSeq).embeddingDimensions(embeddingDimensions).loraAdapters(loraAdapters);
    }

    /** Validated builder; {@link #build()} reports every problem at once. */
    public static final class Builder {
        private String host = "127.0.0.1";
        private int port;
        private List<String> loraAdapters = List.of();
        private String modelName = "sim-fast";
        private int maxModelLen = 8192;
        private int maxNumSeqs = 64;
        private int maxNumBatchedTokens = 2048;
        private int blockSize = 16;
        private int kvCapacityTokens = 65_536;
        private boolean prefixCaching = true;
        private long stepOverheadNanos = 2_000_000;
        private double prefillNanosPerToken = 2_000;
        private double decodeNanosPerSeq = 20_000;
        private double attentionNanosPerContextToken = 0.5;
        private double jitter;
        private long seed = 42;
        private LengthModel outputLength = LengthModel.uniform(8, 32);
        private int tokensPerChunk = 1;
        private int maxWaiting;
        private FaultConfig faults = FaultConfig.NONE;
        private long emitNanosPerSeq;
        private int embeddingDimensions = 384;

        private Builder() {
        }

        public Builder host(String v) { host = v; return this; }
        public Builder port(int v) { port = v; return this; }
        public Builder modelName(String v) { modelName = v; return this; }
        public Builder maxModelLen(int v) { maxModelLen = v; return this; }
        public Builder maxNumSeqs(int v) { maxNumSeqs = v; return this; }
        public Builder maxNumBatchedTokens(int v) { maxNumBatchedTokens = v; return this; }
        public Builder blockSize(int v) { blockSize = v; return this; }
        public Builder kvCapacityTokens(int v) { kvCapacityTokens = v; return this; }
        public Builder prefixCaching(boolean v) { prefixCaching = v; return this; }
        public Builder stepOverheadNanos(long v) { stepOverheadNanos = v; return this; }
        /** Fixed step cost as a duration. */
        public Builder stepOverhead(Duration v) { stepOverheadNanos = v.toNanos(); return this; }
        public Builder prefillNanosPerToken(double v) { prefillNanosPerToken = v; return this; }
        public Builder decodeNanosPerSeq(double v) { decodeNanosPerSeq = v; return this; }
        public Builder attentionNanosPerContextToken(double v) { attentionNanosPerContextToken = v; return this; }
        public Builder jitter(double v) { jitter = v; return this; }
        public Builder seed(long v) { seed = v; return this; }
        public Builder outputLength(LengthModel v) { outputLength = v; return this; }
        public Builder tokensPerChunk(int v) { tokensPerChunk = v; return this; }
        public Builder maxWaiting(int v) { maxWaiting = v; return this; }
        public Builder faults(FaultConfig v) { faults = v; return this; }
        public Builder emitNanosPerSeq(long v) { emitNanosPerSeq = v; return this; }
        public Builder embeddingDimensions(int v) { embeddingDimensions = v; return this; }
        public Builder loraAdapters(List<String> names) { loraAdapters = names; return this; }

        /** The configuration, or an {@link IllegalArgumentException} listing every problem. */
        public SimConfig build() {
            List<String> p = new ArrayList<>();
            if (host == null || host.isBlank()) p.add("host must be set");
            if (port < 0 || port > 65_535) p.add("port must be in [0, 65535], was " + port);
            if (modelName == null || modelName.isBlank()) p.add("modelName must be set");
            if (maxModelLen < 2) p.add("maxModelLen must be >= 2, was " + maxModelLen);
            if (maxNumSeqs < 1) p.add("maxNumSeqs must be >= 1, was " + maxNumSeqs);
            if (maxNumBatchedTokens < 1) p.add("maxNumBatchedTokens must be >= 1, was " + maxNumBatchedTokens);
            if (maxNumBatchedTokens < maxNumSeqs) {
                p.add("maxNumBatchedTokens (" + maxNumBatchedTokens + ") must be >= maxNumSeqs (" + maxNumSeqs + ")");
            }
            if (blockSize < 1) p.add("blockSize must be >= 1, was " + blockSize);
            if (blockSize >= 1 && kvCapacityTokens < blockSize) {
                p.add("kvCapacityTokens must hold at least one block of " + blockSize + ", was " + kvCapacityTokens);
            }
            if (blockSize >= 1 && kvCapacityTokens / blockSize * blockSize < maxModelLen) {
                p.add("KV capacity (" + kvCapacityTokens / blockSize * blockSize + " tokens in whole blocks) must hold"
                        + " one sequence of maxModelLen (" + maxModelLen + ")");
            }
            if (stepOverheadNanos < 0) p.add("stepOverheadNanos must be >= 0, was " + stepOverheadNanos);
            if (!(prefillNanosPerToken >= 0)) p.add("prefillNanosPerToken must be >= 0, was " + prefillNanosPerToken);
            if (!(decodeNanosPerSeq >= 0)) p.add("decodeNanosPerSeq must be >= 0, was " + decodeNanosPerSeq);
            if (!(attentionNanosPerContextToken >= 0)) {
                p.add("attentionNanosPerContextToken must be >= 0, was " + attentionNanosPerContextToken);
            }
            if (stepOverheadNanos <= 0 && decodeNanosPerSeq <= 0) {
                p.add("a step must cost something: set stepOverheadNanos or decodeNanosPerSeq > 0");
            }
            if (!(jitter >= 0 && jitter <= 0.5)) p.add("jitter must be in [0, 0.5], was " + jitter);
            if (outputLength == null) p.add("outputLength must be set");
            if (tokensPerChunk < 1) p.add("tokensPerChunk must be >= 1, was " + tokensPerChunk);
            if (maxWaiting < 0) p.add("maxWaiting must be >= 0 (0 = unbounded), was " + maxWaiting);
            if (emitNanosPerSeq < 0) p.add("emitNanosPerSeq must be >= 0, was " + emitNanosPerSeq);
            if (embeddingDimensions < 1) p.add("embeddingDimensions must be >= 1, was " + embeddingDimensions);
            if (faults == null) p.add("faults must be set (FaultConfig.NONE for none)");
            if (loraAdapters == null || loraAdapters.stream().anyMatch(n -> n == null || n.isBlank()
                    || n.equals(modelName))) {
                p.add("loraAdapters must be names other than the base model's, was " + loraAdapters);
            }
            if (!p.isEmpty()) {
                throw new IllegalArgumentException("invalid simulator configuration: " + String.join("; ", p));
            }
            return new SimConfig(host, port, modelName, maxModelLen, maxNumSeqs, maxNumBatchedTokens, blockSize,
                    kvCapacityTokens, prefixCaching, stepOverheadNanos, prefillNanosPerToken, decodeNanosPerSeq,
                    attentionNanosPerContextToken, jitter, seed, outputLength, tokensPerChunk, maxWaiting, faults,
                    emitNanosPerSeq, embeddingDimensions, loraAdapters);
        }
    }
}
