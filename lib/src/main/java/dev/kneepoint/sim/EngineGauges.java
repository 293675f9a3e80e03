package dev.kneepoint.sim;

/**
 * Engine state published after every step (read by /metrics and {@link Simulator#stats()}).
 *
 * @param running sequences running
 * @param waiting sequences waiting (including preempted ones)
 * @param kvUsage KV blocks in use / all blocks
 * @param preemptions preemptions so far
 * @param prefixQueries prompt tokens looked up in the prefix cache
 * @param prefixHits prompt tokens found there
 * @param steps steps executed
 */
record EngineGauges(int running, int waiting, double kvUsage, long preemptions, long prefixQueries, long prefixHits,
                    long steps) {
    static final EngineGauges EMPTY = new EngineGauges(0, 0, 0, 0, 0, 0, 0);
}
