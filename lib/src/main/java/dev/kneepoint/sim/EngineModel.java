package dev.kneepoint.sim;

import java.util.ArrayDeque;
import java.util.ArrayList;
import java.util.List;
import java.util.SplittableRandom;

/**
 * The engine's scheduler in simulated time: a pure, deterministic state machine stepped by hand
 * ({@link #step()}), with no clock and no threads, so that tests can check it exactly.
 *
 * <p>Each step, like vLLM's scheduler: (1) running sequences in admission order get their work,
 * one decode step (of {@code tokensPerChunk} tokens) or the next chunk of their prefill, within
 * the token budget {@code maxNumBatchedTokens}; a sequence that needs a new KV block when none is
 * free preempts the newest running sequence (recompute: its blocks are freed and it goes back to
 * the front of the waiting queue), itself if it is the newest. (2) If nothing was preempted,
 * waiting sequences are admitted in FIFO order while there is budget, a free slot
 * ({@code maxNumSeqs}) and KV blocks for their first chunk; the prefix cache lets them skip
 * cached block-aligned prompt prefixes (at least one token is always computed). A sequence whose
 * prefill completes in a step emits its first token in that step. A preempted sequence
 * re-prefills its prompt and the tokens generated so far, then emits its next token.
 *
 * <p>Not thread-safe: owned by one thread.
 */
final class EngineModel {
    private final int maxNumSeqs;
    private final int maxNumBatchedTokens;
    private final int blockSize;
    private final int tokensPerChunk;
    private final double jitter;
    private final StepCost cost;
    private final SplittableRandom random;
    private final BlockManager blocks;
    private final ArrayDeque<Sequence> waiting = new ArrayDeque<>();
    private final ArrayList<Sequence> running = new ArrayList<>();
    private final int[] idleScratch = new int[1];
    private long preemptions;
    private long prefixQueries;
    private long prefixHits;
    private long steps;
    private long promptTokensComputed;
    private long generatedTokens;

    EngineModel(SimConfig c) {
        this.maxNumSeqs = c.maxNumSeqs();
        this.maxNumBatchedTokens = c.maxNumBatchedTokens();
        this.blockSize = c.blockSize();
        this.tokensPerChunk = c.tokensPerChunk();
        this.jitter = c.jitter();
        this.cost = StepCost.of(c);
        this.random = new SplittableRandom(c.seed() ^ 0x5DEECE66DL);
        this.blocks = new BlockManager(c.numKvBlocks(), c.blockSize(), c.prefixCaching());
    }

    /** Queues a new sequence at the back of the waiting queue. */
    void add(Sequence s) {
        s.state = Sequence.State.WAITING;
        waiting.addLast(s);
    }

    /** Forgets the idle cached prefixes ({@link BlockManager#evictIdle}); returns how many blocks were freed. */
    int resetPrefixCache() {
        return blocks.evictIdle();
    }

    /** Removes a waiting or running sequence (client went away) and frees its blocks. */
    void abort(Sequence s) {
        if (s.state == Sequence.State.RUNNING) {
            running.remove(s);
            blocks.release(s);
        } else if (s.state == Sequence.State.WAITING) {
            waiting.remove(s);
        }
        if (s.state != Sequence.State.FINISHED) {
            s.state = Sequence.State.ABORTED;
        }
    }

    /** Whether there is nothing to do. */
    boolean idle() {
        return running.isEmpty() && waiting.isEmpty();
    }

    /** Runs one step and returns what it did; its duration is the caller's to spend. */
    EngineStep step() {
        steps++;
        int budget = maxNumBatchedTokens;
        int prefill = 0;
        int decodes = 0;
        int preemptedNow = 0;
        List<Sequence> scheduled = new ArrayList<>(running.size() + 8);
        int[] work = new int[running.size() + waiting.size() + 1];
        for (int i = 0; i < running.size() && budget > 0; i++) {
            Sequence s = running.get(i);
            int tokens = s.inPrefill ? Math.min(s.prefillTarget() - s.computed, budget)
                    : Math.min(Math.min(tokensPerChunk, s.targetOutput - s.generated), budget);
            int needBlocks = blocks.blocksFor(s.computed + tokens);
            boolean selfPreempted = false;
            while (!blocks.grow(s, needBlocks)) {
                Sequence victim = running.remove(running.size() - 1);
                preempt(victim);
                preemptedNow++;
                if (victim == s) {
                    selfPreempted = true;
                    break;
                }
            }
            if (selfPreempted) {
                break;
            }
            work[scheduled.size()] = tokens;
            scheduled.add(s);
            budget -= tokens;
            if (s.inPrefill) {
                prefill += tokens;
            } else {
                decodes++;
            }
        }
        if (preemptedNow == 0) {
            while (budget > 0 && running.size() < maxNumSeqs && !waiting.isEmpty()) {
                Sequence s = waiting.peekFirst();
                int maxHitBlocks = (s.prefillTarget() - 1) / blockSize;
                int hits = blocks.lookup(s, maxHitBlocks, idleScratch);
                int start = hits * blockSize;
                int tokens = Math.min(s.prefillTarget() - start, budget);
                int newBlocks = blocks.blocksFor(start + tokens) - hits;
                if (!blocks.canAllocate(newBlocks, idleScratch[0])) {
                    break;
                }
                waiting.pollFirst();
                blocks.acquireHits(s, hits);
                blocks.grow(s, hits + newBlocks);
                prefixQueries += s.prefillTarget();
                prefixHits += start;
                if (s.cachedTokens < 0) {
                    s.cachedTokens = start;
                }
                s.computed = start;
                s.inPrefill = true;
                s.state = Sequence.State.RUNNING;
                running.add(s);
                if (work.length <= scheduled.size()) {
                    work = java.util.Arrays.copyOf(work, work.length * 2);
                }
                work[scheduled.size()] = tokens;
                scheduled.add(s);
                budget -= tokens;
                prefill += tokens;
            }
        }
        return apply(scheduled, work, prefill, decodes, preemptedNow);
    }

    private EngineStep apply(List<Sequence> scheduled, int[] work, int prefill, int decodes, int preemptedNow) {
        List<EngineStep.Emission> emissions = new ArrayList<>(scheduled.size());
        long context = 0;
        for (int i = 0; i < scheduled.size(); i++) {
            Sequence s = scheduled.get(i);
            int tokens = work[i];
            s.computed += tokens;
            context += s.computed;
            int produced = 0;
            if (s.inPrefill) {
                promptTokensComputed += tokens;
                blocks.registerComputed(s);
                if (s.computed >= s.prefillTarget()) {
                    s.inPrefill = false;
                    produced = 1;
                }
            } else {
                produced = tokens;
            }
            if (produced > 0) {
                s.generated += produced;
                generatedTokens += produced;
                boolean done = s.generated >= s.targetOutput;
                if (done) {
                    s.state = Sequence.State.FINISHED;
                    blocks.release(s);
                }
                emissions.add(new EngineStep.Emission(s, produced, done));
            }
        }
        if (!emissions.isEmpty()) {
            running.removeIf(s -> s.state == Sequence.State.FINISHED);
        }
        long nanos = cost.nanos(prefill, decodes, context);
        if (jitter > 0) {
            double f = 1 + jitter * LengthModel.gaussian(random);
            nanos = Math.round(nanos * Math.max(0.5, Math.min(1.5, f)));
        }
        return new EngineStep(nanos, prefill, decodes, context, preemptedNow, emissions);
    }

    private void preempt(Sequence victim) {
        blocks.release(victim);
        victim.state = Sequence.State.WAITING;
        victim.inPrefill = true;
        victim.computed = 0;
        preemptions++;
        waiting.addFirst(victim);
    }

    int numRunning() { return running.size(); }
    int numWaiting() { return waiting.size(); }
    /** KV usage in [0, 1]: blocks referenced by running sequences over all blocks. */
    double kvUsage() { return blocks.usage(); }
    long preemptions() { return preemptions; }
    long prefixQueries() { return prefixQueries; }
    long prefixHits() { return prefixHits; }
    long steps() { return steps; }
    long promptTokensComputed() { return promptTokensComputed; }
    long generatedTokens() { return generatedTokens; }
}
