package dev.kneepoint.load;

import dev.kneepoint.metrics.Problems;
import java.time.Duration;
import java.util.Optional;
import java.util.OptionalLong;

/** The bounds every step shares, validated together (package-private). */
record StepBounds(Duration warmup, Duration duration, long maxRequests, Duration drainTimeout) {

    /** Adds every problem with these bounds to {@code problems}. */
    static void check(Duration warmup, Duration duration, long maxRequests, Duration drainTimeout,
                      Problems problems) {
        problems.check(warmup != null && !warmup.isNegative(), "warm-up must be >= 0, got " + warmup)
                .check(duration == null || (!duration.isNegative() && !duration.isZero()),
                        "duration must be > 0 when given, got " + duration)
                .check(maxRequests == -1 || maxRequests > 0, "maxRequests must be > 0 when given, got " + maxRequests)
                .check(duration != null || maxRequests != -1,
                        "a step needs a duration, a maxRequests bound, or both; got neither")
                .check(drainTimeout != null && !drainTimeout.isNegative(),
                        "drain timeout must be >= 0, got " + drainTimeout);
    }

    Optional<Duration> durationOpt() {
        return Optional.ofNullable(duration);
    }

    OptionalLong maxRequestsOpt() {
        return maxRequests < 0 ? OptionalLong.empty() : OptionalLong.of(maxRequests);
    }

    long warmupNanos() {
        return warmup.toNanos();
    }

    /** Measurement length in nanos, or -1 (StepInfo's convention). */
    long durationNanos() {
        return duration == null ? -1 : duration.toNanos();
    }

    /** End of issuing relative to the step start, or Long.MAX_VALUE when count-bounded only. */
    long issueEndNanos() {
        return duration == null ? Long.MAX_VALUE : Math.addExact(warmup.toNanos(), duration.toNanos());
    }
}
