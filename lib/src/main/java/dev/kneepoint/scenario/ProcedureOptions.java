package dev.kneepoint.scenario;

import dev.kneepoint.metrics.Problems;
import dev.kneepoint.metrics.Slo;
import dev.kneepoint.workload.OutputControl;
import java.nio.file.Path;
import java.time.Duration;
import java.util.List;

/**
 * Settings of the nine-stage {@link Procedure}. Start from {@link #full()} (a real measurement, about an
 * hour) or {@link #fast()} (CI: about a minute against the simulator) and adjust with {@link #toBuilder()}.
 *
 * @param promptTokens    prompt length of the main ladder (full 256, fast 32)
 * @param outputTokens    output length of the main ladder (full 128, fast 16)
 * @param longFactor      stages 5 and 6 multiply the prompt, then the output, by this (default 4)
 * @param concurrency     the ladder of stages 4–6 (full 1, 2, 4, 8, 16, 32; fast 1, 2, 4, 8)
 * @param stepDuration    measured length of each step (full 30 s, fast 2 s)
 * @param warmup          warm-up of each step, excluded (full 5 s, fast 0.5 s)
 * @param warmupRequests  stage 2's fixed set of small requests (16-token prompts, 8-token answers, 2 users)
 * @param soakDuration    stage 7's length (full 10 min, fast 20 s)
 * @param soakInterval    interval of the drift analysis (full 10 s, fast 1 s)
 * @param soakConcurrency users of the soak; 0 (default) soaks at the recommended point of stage 4 (else its
 *                        knee, else the middle of the ladder)
 * @param slo             objectives for goodput, the efficient zone and the operating point
 * @param outputDir       parent of the run directories (default {@code runs}); null keeps only the soak's,
 *                        in a temporary folder (its records are needed for the drift analysis)
 * @param seed            seed of prompts and arrivals
 * @param outputControl   how exact output lengths are asked for (default vLLM style)
 * @param drift           drift analysis settings
 */
public record ProcedureOptions(int promptTokens, int outputTokens, int longFactor, List<Integer> concurrency,
                               Duration stepDuration, Duration warmup, int warmupRequests, Duration soakDuration,
                               Duration soakInterval, int soakConcurrency, Slo slo, Path outputDir, long seed,
                               OutputControl outputControl, DriftOptions drift) {

    public ProcedureOptions {
        Problems p = new Problems();
        if (promptTokens < 1) p.add("promptTokens must be >= 1, got " + promptTokens);
        if (outputTokens < 1) p.add("outputTokens must be >= 1, got " + outputTokens);
        if (longFactor < 2) p.add("longFactor must be >= 2, got " + longFactor);
        if (concurrency == null || concurrency.size() < 3 || concurrency.stream().anyMatch(c -> c == null || c < 1)) {
            p.add("concurrency needs at least 3 levels >= 1 (a knee needs 3 steps), got " + concurrency);
        }
        if (stepDuration == null || stepDuration.isNegative() || stepDuration.isZero()) p.add("stepDuration must be positive");
        if (warmup == null || warmup.isNegative()) p.add("warmup must be >= 0");
        if (warmupRequests < 1) p.add("warmupRequests must be >= 1, got " + warmupRequests);
        if (soakDuration == null || soakInterval == null || soakInterval.isNegative() || soakInterval.isZero()
                || soakDuration.compareTo(soakInterval.multipliedBy(6)) < 0) {
            p.add("soakDuration must hold at least 6 soakIntervals (the drift test compares 3 early with 3 late), got "
                    + soakDuration + " and " + soakInterval);
        }
        if (soakConcurrency < 0) p.add("soakConcurrency must be >= 0 (0: at the recommended point), got " + soakConcurrency);
        if (slo == null) p.add("slo must not be null (use Slo.none())");
        if (outputControl == null) p.add("outputControl must not be null");
        if (drift == null) p.add("drift options must not be null");
        p.throwListIfAny("procedure options");
        concurrency = List.copyOf(concurrency);
    }

    /** A real measurement: 30 s steps, a 10-minute soak. */
    public static ProcedureOptions full() {
        return new ProcedureOptions(256, 128, 4, List.of(1, 2, 4, 8, 16, 32), Duration.ofSeconds(30),
                Duration.ofSeconds(5), 16, Duration.ofMinutes(10), Duration.ofSeconds(10), 0, Slo.none(),
                Path.of("runs"), 42, OutputControl.exact(OutputControl.Server.VLLM), DriftOptions.defaults());
    }

    /** CI: short lengths, 2 s steps, a 20 s soak; about a minute against the simulator. */
    public static ProcedureOptions fast() {
        return new ProcedureOptions(32, 16, 4, List.of(1, 2, 4, 8), Duration.ofSeconds(2), Duration.ofMillis(500), 8,
                Duration.ofSeconds(20), Duration.ofSeconds(1), 0, Slo.none(), Path.of("runs"), 42,
                OutputControl.exact(OutputControl.Server.VLLM), DriftOptions.defaults());
    }

    /** {@link #fast()} when {@code fast}, else {@link #full()}. */
    public static ProcedureOptions of(boolean fast) {
        return fast ? fast() : full();
    }

    public Builder toBuilder() {
        return new Builder(this);
    }

    /** Changes some settings; {@link #build()} validates them all at once. */
    public static final class Builder {
        private int promptTokens;
        private int outputTokens;
        private int longFactor;
        private List<Integer> concurrency;
        private Duration stepDuration;
        private Duration warmup;
        private int warmupRequests;
        private Duration soakDuration;
        private Duration soakInterval;
        private int soakConcurrency;
        private Slo slo;
        private Path outputDir;
        private long seed;
        private OutputControl outputControl;
        private DriftOptions drift;

        private Builder(ProcedureOptions o) {
            promptTokens = o.promptTokens; outputTokens = o.outputTokens; longFactor = o.longFactor;
            concurrency = o.concurrency; stepDuration = o.stepDuration; warmup = o.warmup;
            warmupRequests = o.warmupRequests; soakDuration = o.soakDuration; soakInterval = o.soakInterval;
            soakConcurrency = o.soakConcurrency; slo = o.slo; outputDir = o.outputDir; seed = o.seed;
            outputControl = o.outputControl; drift = o.drift;
        }

        public Builder promptTokens(int n) { promptTokens = n; return this; }
        public Builder outputTokens(int n) { outputTokens = n; return this; }
        public Builder longFactor(int f) { longFactor = f; return this; }
        public Builder concurrency(int... levels) { concurrency = java.util.Arrays.stream(levels).boxed().toList(); return this; }
        public Builder stepDuration(Duration d) { stepDuration = d; return this; }
        public Builder warmup(Duration d) { warmup = d; return this; }
        public Builder warmupRequests(int n) { warmupRequests = n; return this; }
        public Builder soakDuration(Duration d) { soakDuration = d; return this; }
        public Builder soakInterval(Duration d) { soakInterval = d; return this; }
        public Builder soakConcurrency(int users) { soakConcurrency = users; return this; }
        public Builder slo(Slo objectives) { slo = objectives; return this; }
        public Builder outputDir(Path dir) { outputDir = dir; return this; }
        public Builder seed(long s) { seed = s; return this; }
        public Builder outputControl(OutputControl c) { outputControl = c; return this; }
        public Builder drift(DriftOptions o) { drift = o; return this; }

        public ProcedureOptions build() {
            return new ProcedureOptions(promptTokens, outputTokens, longFactor, concurrency, stepDuration, warmup,
                    warmupRequests, soakDuration, soakInterval, soakConcurrency, slo, outputDir, seed, outputControl, drift);
        }
    }
}
