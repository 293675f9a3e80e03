package dev.kneepoint.sweep;

import dev.kneepoint.client.PrefixCache;
import dev.kneepoint.client.TargetConfig;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

/**
 * {@link Sweep#resetPrefixCache(boolean)}: the server's prefix cache reset before the first step and after each step
 * the ladder does not stop at (the last one included), so that each step starts cold. What was done is the manifest's
 * {@code config.prefix_cache_reset}: the endpoint, how many resets answered, and what went wrong with the others (a
 * failed reset is recorded, not fatal: the step after it is measured as it comes).
 */
final class SweepPrefixCache {
    private final TargetConfig target;
    private final String endpoint;
    private final Map<String, Object> record = new LinkedHashMap<>();
    private final List<String> failures = new ArrayList<>();
    private int resets;

    private SweepPrefixCache(TargetConfig target, String endpoint) {
        this.target = target;
        this.endpoint = endpoint;
        record.put("endpoint", endpoint);
    }

    /**
     * The reset endpoint of the engine the server said it is ({@code server.engine}); a problem naming the engine and
     * what can be reset when it has none (or when the server was not asked: no preflight), added to {@code problems}.
     */
    static String endpoint(Map<String, Object> server, List<String> problems) {
        if (server == null) {
            problems.add("resetPrefixCache needs the preflight (it asks the server which engine it is): remove "
                    + "preflight(false) / --no-preflight, or the reset");
            return null;
        }
        String engine = String.valueOf(server.get("engine"));
        return PrefixCache.endpoint(engine).orElseGet(() -> {
            problems.add("resetPrefixCache: the server is " + engine + ", whose prefix cache Kneepoint cannot reset "
                    + "(it can vLLM's /reset_prefix_cache, SGLang's /flush_cache and the simulator's); restart the "
                    + "server between runs instead (serve-sweep does), or remove the reset");
            return null;
        });
    }

    /** Resets through {@code endpoint}, the first time now: a first reset that fails stops the run before it starts. */
    static SweepPrefixCache start(TargetConfig target, String endpoint) {
        SweepPrefixCache c = new SweepPrefixCache(target, endpoint);
        String failed = PrefixCache.reset(target, endpoint);
        if (failed != null) {
            throw new IllegalArgumentException("resetPrefixCache: the first reset failed (" + failed + "): check that "
                    + "the server allows it (vLLM: VLLM_SERVER_DEV_MODE=1), or remove the reset");
        }
        c.resets = 1;
        c.update();
        return c;
    }

    /** Resets again (between steps). */
    void reset() {
        String failed = PrefixCache.reset(target, endpoint);
        if (failed == null) {
            resets++;
        } else {
            failures.add(failed);
        }
        update();
    }

    /** The manifest's {@code config.prefix_cache_reset}, kept current. */
    Map<String, Object> record() {
        return record;
    }

    private void update() {
        record.put("resets", resets);
        record.put("failures", List.copyOf(failures));
    }
}
