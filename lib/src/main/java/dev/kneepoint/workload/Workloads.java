package dev.kneepoint.workload;

import java.nio.file.Path;

/**
 * The workload verbs: where every built-in workload starts.
 *
 * <pre>{@code
 * Workload chat = Workloads.synthetic()
 *         .inputTokens(Lengths.logNormal(512, 128)).outputTokens(Lengths.fixed(128))
 *         .calibrate(target).seed(7).tag("chat").build();
 * Workload rag = Workloads.sharedPrefix(2048, 8).inputTokens(2304).calibrate(target).tag("rag").build();
 * Workload mixed = Workloads.mix().add(0.8, chat).add(0.2, rag).build();
 * Workload data = Workloads.dataset(Path.of("datasets/chat.jsonl")).shuffle(64).build();
 * Workload sessions = Workloads.multiTurn().turns(5).userTokens(Lengths.uniform(20, 80)).build();
 * TraceWorkload replay = Workloads.trace(Path.of("datasets/trace_sample.jsonl")).calibrate(target).build();
 * }</pre>
 */
public final class Workloads {
    private Workloads() {
    }

    /** Synthetic prompts with length distributions, calibrated to a tokenizer. */
    public static SyntheticWorkload.Builder synthetic() {
        return new SyntheticWorkload.Builder();
    }

    /**
     * Synthetic prompts sharing a prefix of {@code prefixTokens} tokens within {@code groups} groups
     * (system prompts, RAG contexts). {@code inputTokens} stays the whole prompt, prefix included.
     */
    public static SyntheticWorkload.Builder sharedPrefix(int prefixTokens, int groups) {
        return new SyntheticWorkload.Builder().sharedPrefix(prefixTokens, groups);
    }

    /**
     * Chat sessions that carry their history: in a load step each turn carries the server's real earlier answers
     * and is sent only after the previous turn ended (see {@link dev.kneepoint.request.SessionWorkload}).
     */
    public static MultiTurnWorkload.Builder multiTurn() {
        return new MultiTurnWorkload.Builder();
    }

    /**
     * Requests from a JSONL file. Each line is one JSON object: OpenAI chat ({@code messages}),
     * ShareGPT ({@code conversations}) or plain ({@code prompt}, optional {@code system}), with optional
     * {@code output_tokens}, {@code prompt_tokens} and {@code tag}. Malformed lines fail the build
     * with their line numbers. Records cycle; each repeat is salted (see {@link DatasetWorkload}).
     */
    public static DatasetWorkload.Builder dataset(Path jsonl) {
        return new DatasetWorkload.Builder(jsonl);
    }

    /**
     * The requests of a Mooncake/AIPerf-style trace ({@code timestamp}, {@code input_length},
     * {@code output_length}, optional {@code hash_ids} or {@code text}; see {@link Trace}). The workload gives
     * each record's lengths and prefix blocks; {@code Sweep.trace(...)} also fires each at its instant.
     */
    public static TraceWorkload.Builder trace(Path jsonl) {
        return new TraceWorkload.Builder(jsonl);
    }

    /** The requests of a trace already read (its block size is kept). */
    public static TraceWorkload.Builder trace(Trace trace) {
        return new TraceWorkload.Builder(java.util.Objects.requireNonNull(trace, "trace"));
    }

    /** Weighted workloads in one step, each reported under its tag. */
    public static MixWorkload.Builder mix() {
        return new MixWorkload.Builder();
    }
}
