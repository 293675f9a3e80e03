package dev.kneepoint.workload;

import java.security.SecureRandom;

/** Per-run salts: fresh by default so a rerun does not find its prompts in a warm prefix cache. */
final class Salt {
    private static final SecureRandom RANDOM = new SecureRandom();

    private Salt() {
    }

    static long fresh() {
        long s;
        do {
            s = RANDOM.nextLong();
        } while (s == 0);
        return s;
    }
}
