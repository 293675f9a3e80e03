package dev.kneepoint.load;

import java.time.Duration;
import java.util.List;
import java.util.Optional;
import java.util.OptionalLong;

/** The bounds every step shares, validated together (package-private). */
record StepBounds(Duration warmup, Duration duration, long maxRequests, Duration drainTimeout) {

    /** Adds every problem with these bounds to {@code problems}. */
    static void check(Duration warmup, Duration duration, long maxRequests, Duration drainTimeout,
                      List<String> problems) {
        if (warmup == null || warmup.isNegative()) {
            problems.add("warm-up must be >= 0, got " + warmup);
        }
        if (duration != null && (duration.isNegative() || duration.isZero())) {
            problems.add("duration must be > 0 when given, got " + duration);
        }
        if (maxRequests != -1 && maxRequests <= 0) {
            problems.add("maxRequests must be > 0 when given, got " + maxRequests);
        }
        if (duration == null && maxRequests == -1) {
            problems.add("a step needs a duration, a maxRequests bound, or both; got neither");
        }
        if (drainTimeout == null || drainTimeout.isNegative()) {
            problems.add("drain timeout must be >= 0, got " + drainTimeout);
        }
    }

    /** Adds {@code problem} to {@code problems} when a required setting, {@code value}, is missing (null). */
    static void require(Object value, String problem, List<String> problems) {
        if (value == null) {
            problems.add(problem);
        }
    }

    /** The one exception reporting every problem of {@code what} (e.g. {@code open-loop step}). */
    static IllegalArgumentException invalid(String what, List<String> problems) {
        return new IllegalArgumentException("Invalid " + what + " (" + problems.size() + " problem"
                + (problems.size() == 1 ? "" : "s") + "): " + String.join("; ", problems));
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
