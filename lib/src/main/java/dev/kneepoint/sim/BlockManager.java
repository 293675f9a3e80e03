package dev.kneepoint.sim;

import java.util.HashMap;
import java.util.LinkedHashSet;
import java.util.Map;

/**
 * KV-cache blocks with an optional prefix cache (vLLM's automatic prefix caching, simplified).
 * Physical blocks are either free, private to one sequence, or cached under the hash of a
 * block-aligned prompt prefix. Cached blocks nobody references stay reusable until evicted
 * (least recently released first) when free blocks run out. Not thread-safe: owned by the engine.
 */
final class BlockManager {
    private final int numBlocks;
    private final int blockSize;
    private final boolean prefixCaching;
    private final Map<Long, int[]> refCounts = new HashMap<>();
    private final LinkedHashSet<Long> idleLru = new LinkedHashSet<>();
    private int free;

    BlockManager(int numBlocks, int blockSize, boolean prefixCaching) {
        this.numBlocks = numBlocks;
        this.blockSize = blockSize;
        this.prefixCaching = prefixCaching;
        this.free = numBlocks;
    }

    /**
     * The share of blocks in [0, 1] referenced by running sequences (vLLM's KV usage: idle cached blocks count as
     * free).
     */
    double usage() {
        return (double) (numBlocks - free - idleLru.size()) / numBlocks;
    }

    int blocksFor(int tokens) {
        return (tokens + blockSize - 1) / blockSize;
    }

    /**
     * Leading prompt blocks of {@code s} found in the cache, at most {@code maxBlocks}; also stores,
     * in {@code idleOut[0]}, how many of those are idle (not referenced by anyone now).
     */
    int lookup(Sequence s, int maxBlocks, int[] idleOut) {
        idleOut[0] = 0;
        if (!prefixCaching) {
            return 0;
        }
        int hits = 0;
        long[] hashes = s.blockHashes;
        while (hits < maxBlocks && hits < hashes.length) {
            int[] rc = refCounts.get(hashes[hits]);
            if (rc == null) {
                break;
            }
            if (rc[0] == 0) {
                idleOut[0]++;
            }
            hits++;
        }
        return hits;
    }

    /** Whether {@code newBlocks} can be allocated after taking {@code idleTaken} idle cached blocks. */
    boolean canAllocate(int newBlocks, int idleTaken) {
        return newBlocks <= free + idleLru.size() - idleTaken;
    }

    /** References the first {@code hits} prompt blocks of {@code s} from the cache. */
    void acquireHits(Sequence s, int hits) {
        for (int i = 0; i < hits; i++) {
            long h = s.blockHashes[i];
            int[] rc = refCounts.get(h);
            if (rc[0]++ == 0) {
                idleLru.remove(h);
            }
            s.addSharedRef(h);
        }
        s.registeredBlocks = hits;
    }

    /** Grows {@code s} to {@code targetBlocks} blocks; false (and no change) when not enough are free. */
    boolean grow(Sequence s, int targetBlocks) {
        int need = targetBlocks - s.heldBlocks();
        if (need <= 0) {
            return true;
        }
        if (need > free + idleLru.size()) {
            return false;
        }
        while (free < need) {
            var it = idleLru.iterator();
            long victim = it.next();
            it.remove();
            refCounts.remove(victim);
            free++;
        }
        free -= need;
        s.privateBlocks += need;
        return true;
    }

    /** After a step: publishes the prompt blocks of {@code s} that are now fully computed. */
    void registerComputed(Sequence s) {
        if (!prefixCaching) {
            return;
        }
        int full = Math.min(Math.min(s.computed, s.promptTokens) / blockSize, s.blockHashes.length);
        for (int b = s.registeredBlocks; b < full; b++) {
            long h = s.blockHashes[b];
            if (!refCounts.containsKey(h) && s.privateBlocks > 0) {
                refCounts.put(h, new int[] {1});
                s.privateBlocks--;
                s.addSharedRef(h);
            }
        }
        s.registeredBlocks = Math.max(s.registeredBlocks, full);
    }

    /**
     * Forgets every cached prefix nobody references now (vLLM's {@code /reset_prefix_cache}): their blocks become
     * free, so the next requests compute their prompts again. Blocks of running sequences stay. Returns how many.
     */
    int evictIdle() {
        int n = idleLru.size();
        idleLru.forEach(refCounts::remove);
        idleLru.clear();
        free += n;
        return n;
    }

    /** Releases every block of {@code s} (finish, abort or preemption). */
    void release(Sequence s) {
        for (int i = 0; i < s.sharedCount; i++) {
            long h = s.sharedRefs[i];
            int[] rc = refCounts.get(h);
            if (--rc[0] == 0) {
                idleLru.add(h);
            }
        }
        free += s.privateBlocks;
        s.privateBlocks = 0;
        s.sharedCount = 0;
        s.registeredBlocks = 0;
    }
}
