package dev.kneepoint.sim;

import java.time.Duration;
import java.util.ArrayList;
import java.util.Collections;
import java.util.EnumMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;

/**
 * Which faults the simulator injects, by probability and by schedule. Deterministic given the
 * simulator's seed and the order of arrivals. Besides this configuration, any single request can
 * provoke one fault with the header {@code X-Sim-Fault: KIND[:MILLIS]} (e.g. {@code http_503},
 * {@code stream_stall:500}).
 *
 * <p>Per request, a scheduled fault whose window contains the arrival time wins; otherwise the
 * probabilities are tried in {@link FaultKind} order with one uniform draw each. An
 * {@link FaultKind#ENGINE_STALL} schedule entry stalls the engine once, at its start time, for its
 * duration; entries of other kinds apply to every request arriving inside {@code [at, at + duration)}.
 *
 * @param probabilities per-request probability of each kind (kinds absent: 0)
 * @param schedule scheduled faults, times relative to the simulator's start
 * @param faultDuration duration of stalls and of a slow first byte when not given otherwise
 */
public record FaultConfig(Map<FaultKind, Double> probabilities, List<Scheduled> schedule, Duration faultDuration) {

    /** No faults. */
    public static final FaultConfig NONE = builder().build();

    /**
     * One scheduled fault.
     *
     * @param kind the fault
     * @param at start, relative to the simulator's start
     * @param duration the window (or the stall length for {@link FaultKind#ENGINE_STALL})
     */
    public record Scheduled(FaultKind kind, Duration at, Duration duration) {
    }

    public FaultConfig {
        probabilities = Collections.unmodifiableMap(new EnumMap<>(probabilities.isEmpty()
                ? new EnumMap<FaultKind, Double>(FaultKind.class) : probabilities));
        schedule = List.copyOf(schedule);
    }

    /** A builder with no faults and a 1 s default fault duration. */
    public static Builder builder() {
        return new Builder();
    }

    /** Probability of {@code kind}, 0 when not configured. */
    public double probability(FaultKind kind) {
        return probabilities.getOrDefault(kind, 0.0);
    }

    /** Validated builder; {@link #build()} reports all problems at once. */
    public static final class Builder {
        private final Map<FaultKind, Double> probabilities = new EnumMap<>(FaultKind.class);
        private final List<Scheduled> schedule = new ArrayList<>();
        private Duration faultDuration = Duration.ofSeconds(1);

        private Builder() {
        }

        /** Inject {@code kind} into each request with probability {@code p} in [0, 1]. */
        public Builder probability(FaultKind kind, double p) {
            probabilities.put(kind, p);
            return this;
        }

        /** Schedule {@code kind} at {@code at} after start, for {@code duration}. */
        public Builder schedule(FaultKind kind, Duration at, Duration duration) {
            schedule.add(new Scheduled(kind, at, duration));
            return this;
        }

        /** Default duration of stalls and slow first bytes. */
        public Builder faultDuration(Duration d) {
            this.faultDuration = d;
            return this;
        }

        /** The configuration, or an {@link IllegalArgumentException} listing every problem. */
        public FaultConfig build() {
            List<String> problems = new ArrayList<>();
            double sum = 0;
            for (var e : probabilities.entrySet()) {
                double p = e.getValue();
                sum += p;
                if (!(p >= 0 && p <= 1)) {
                    problems.add(String.format(Locale.ROOT, "probability of %s must be in [0, 1], was %s", e.getKey().wireName(), p));
                }
                if (e.getKey() == FaultKind.QUEUE_FULL && p > 0) {
                    problems.add("queue_full is not injected by probability; set maxWaiting instead");
                }
            }
            if (sum > 1 + 1e-9) {
                problems.add(String.format(Locale.ROOT, "fault probabilities must sum to at most 1, sum was %.3f", sum));
            }
            for (Scheduled s : schedule) {
                if (s.kind() == null || s.at() == null || s.duration() == null) {
                    problems.add("scheduled fault needs kind, at and duration: " + s);
                } else if (s.at().isNegative() || s.duration().isNegative() || s.duration().isZero()) {
                    problems.add("scheduled fault needs at >= 0 and duration > 0: " + s);
                }
            }
            if (faultDuration == null || faultDuration.isNegative()) {
                problems.add("faultDuration must be >= 0, was " + faultDuration);
            }
            if (!problems.isEmpty()) {
                throw new IllegalArgumentException("invalid fault configuration: " + String.join("; ", problems));
            }
            return new FaultConfig(probabilities, schedule, faultDuration);
        }
    }
}
