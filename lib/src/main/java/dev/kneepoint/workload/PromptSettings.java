package dev.kneepoint.workload;

import dev.kneepoint.metrics.Problems;

/**
 * The settings every generated-prompt workload builder shares ({@link SyntheticWorkload.Builder},
 * {@link TraceWorkload.Builder}, {@link MultiTurnWorkload.Builder}): how output length is asked for, the tokenizer
 * that makes prompt lengths exact, the seed and salt of the text, and the traffic-class tag.
 *
 * @param <B> the concrete builder, returned by every setter so that calls chain
 */
public abstract class PromptSettings<B extends PromptSettings<B>> {
    OutputControl control = OutputControl.exact(OutputControl.Server.VLLM);
    PromptCalibrator calibrator;
    TokenCounter counter;
    long seed = 42;
    Long salt;
    String tag;

    PromptSettings(String defaultTag) {
        this.tag = defaultTag;
    }

    @SuppressWarnings("unchecked")
    private B self() {
        return (B) this;
    }

    /** How the output length is asked for (default: vLLM-style exact, also right for SGLang and the simulator). */
    public B output(OutputControl c) { this.control = c; return self(); }

    /** Calibrate with this tokenizer (measured once when the workload is built). */
    public B calibrate(TokenCounter c) { this.counter = c; this.calibrator = null; return self(); }

    /** Use an already measured calibrator (share one between workloads). */
    public B calibrator(PromptCalibrator c) { this.calibrator = c; this.counter = null; return self(); }

    /** Seed of lengths and text: the same seed sends the same requests. */
    public B seed(long s) { this.seed = s; return self(); }

    /** Fix the salt (default: fresh per build, so a rerun does not find its prompts in a warm prefix cache). */
    public B salt(long s) { this.salt = s; return self(); }

    /** Salt 0: the same seed sends the same text run after run (measures a warm prefix cache). */
    public B warmCache() { this.salt = 0L; return self(); }

    /** Traffic-class tag carried to every request record. */
    public B tag(String t) { this.tag = t; return self(); }

    /** Adds the problems of the shared settings to {@code problems}. */
    void checkShared(Problems problems) {
        if (control == null) problems.add("output control is required");
        if (tag == null || tag.isBlank()) problems.add("tag must not be blank");
    }

    /** The calibrator given, or the tokenizer given measured now, or the assumed one-token-per-word. */
    PromptCalibrator resolveCalibrator() {
        return calibrator != null ? calibrator
                : counter != null ? PromptCalibrator.measure(counter) : PromptCalibrator.assumed();
    }

    /** The salt given, or a fresh one. */
    long resolveSalt() {
        return salt != null ? salt : Salt.fresh();
    }

    /** The manifest entries every generated-prompt workload ends its {@code describe()} with. */
    static void describeText(java.util.Map<String, Object> m, PromptCalibrator cal, long seed, long salt, String tag) {
        m.put("tokenizer", cal.counter().describe());
        m.put("lengths_exact", cal.exact());
        m.put("seed", seed);
        m.put("salt", Long.toUnsignedString(salt, 16));
        m.put("tag", tag);
    }

    /** Copies the settings a built workload reads (output control, seed, tag) into {@code to}. */
    void copySharedTo(PromptSettings<?> to) {
        to.control = control;
        to.seed = seed;
        to.tag = tag;
    }
}
