package dev.kneepoint.load;

import dev.kneepoint.metrics.Problems;
import dev.kneepoint.metrics.StepInfo;
import dev.kneepoint.request.Workload;
import java.time.Duration;
import java.util.Objects;
import java.util.Optional;
import java.util.OptionalInt;

/**
 * An open-loop step: requests arrive by an {@link ArrivalPlan}, whatever the server does. One scheduler
 * thread owned by the step fires request {@code i} at {@code stepStart + offset(i)} and never waits for
 * requests in flight (no coordinated omission); a request fired late keeps its planned
 * {@code t_intended}, so the lateness shows in {@code schedule_lag}.
 *
 * <p>Optional in-flight cap with an explicit {@link CapPolicy}: {@code QUEUE} (the request waits for a
 * slot on its own thread, the scheduler does not) or {@code DROP} (recorded as {@code DROPPED}).
 *
 * <p>By default request ids index the run's workload. A step may carry a workload of its own
 * ({@link Builder#workload}), indexed by the request's position in the step's plan: a trace step
 * ({@link ArrivalPlan#trace}) sends trace record {@code i} at the trace's instant {@code i}.
 *
 * <p>The plan covers the warm-up plus the duration and/or stops after {@code maxRequests} arrivals
 * after warm-up. Requests whose planned time had come when the run was stopped but which were not yet
 * fired end as {@code CANCELLED} (never dispatched); planned requests whose time had not yet come are
 * not recorded: they were never scheduled, and their intended time lies outside the step's window.
 *
 * <pre>{@code
 * OpenLoopStep step = OpenLoopStep.builder().arrival(ArrivalPlan.poisson(4.0, 42))
 *         .duration(Duration.ofSeconds(60)).maxInFlight(256, CapPolicy.DROP).build();
 * }</pre>
 */
public final class OpenLoopStep extends Step {
    /** Steps may not plan more arrivals than this (the plan is precomputed as a long[]). */
    public static final long MAX_PLANNED = 20_000_000L;

    private final ArrivalPlan arrival;
    private final int maxInFlight;
    private final CapPolicy capPolicy;
    private final Workload workload;

    private OpenLoopStep(Builder b) {
        super(b, defaultLabel(b.arrival));
        this.arrival = b.arrival;
        this.maxInFlight = b.maxInFlight;
        this.capPolicy = b.capPolicy;
        this.workload = b.workload;
    }

    /** {@code rate=R}; for a trace {@code trace}, or {@code trace x2} when time-scaled. */
    private static String defaultLabel(ArrivalPlan plan) {
        if (plan.process() == ArrivalPlan.Process.TRACE) {
            return plan.timeScale() == 1.0 ? "trace" : "trace x" + ArrivalPlan.plain(plan.timeScale());
        }
        return "rate=" + ArrivalPlan.plain(plan.rateRps());
    }

    public static Builder builder() {
        return new Builder();
    }

    /** A builder holding this step's settings (label included only if it was set explicitly). */
    public Builder toBuilder() {
        Builder b = new Builder().settingsOf(this).arrival(arrival);
        b.maxInFlight = maxInFlight;
        b.capPolicy = capPolicy;
        b.workload = workload;
        return b;
    }

    /** The same step at another mean rate (same process and seed), labelled {@code rate=R}. */
    public OpenLoopStep withRate(double rateRps) {
        return toBuilder().arrival(arrival.withRate(rateRps)).label("rate=" + ArrivalPlan.plain(rateRps)).build();
    }

    @Override
    public OpenLoopStep withLabel(String newLabel) {
        return toBuilder().label(newLabel).build();
    }

    @Override
    public OpenLoopStep asTrial(int n) {
        // Trial 1 keeps the seed, so that it is the step an unrepeated sweep runs.
        ArrivalPlan plan = n > 1 ? arrival.withSeed(arrival.seed() + n - 1) : arrival;
        return toBuilder().arrival(plan).label(StepInfo.trialLabel(info(0).loadLabel(), n)).trial(n).build();
    }

    public ArrivalPlan arrival() {
        return arrival;
    }

    /** The step's own workload, indexed by plan position; empty when requests come from the run's workload by id. */
    public Optional<Workload> workload() {
        return Optional.ofNullable(workload);
    }

    /** The in-flight cap, empty when uncapped. */
    public OptionalInt maxInFlight() {
        return maxInFlight < 0 ? OptionalInt.empty() : OptionalInt.of(maxInFlight);
    }

    /** What happens at the cap; empty when uncapped. */
    public Optional<CapPolicy> capPolicy() {
        return Optional.ofNullable(capPolicy);
    }

    /** The intended start offsets of this step's requests (nanos from the step start), deterministic. */
    public long[] plannedOffsets() {
        long max = bounds().maxRequests() < 0 ? Long.MAX_VALUE : bounds().maxRequests();
        return arrival.offsets(bounds().issueEndNanos(), bounds().warmupNanos(), max);
    }

    @Override
    public StepInfo info(int index) {
        return new StepInfo(index, label(), StepInfo.OPEN, -1, arrival.rateRps(), arrival.label(), maxInFlight,
                capPolicy == null ? "" : capPolicy.label(), bounds().warmupNanos(), bounds().durationNanos(),
                bounds().maxRequests(), trial());
    }

    @Override
    public boolean equals(Object o) {
        return o instanceof OpenLoopStep s && label().equals(s.label()) && arrival.equals(s.arrival)
                && maxInFlight == s.maxInFlight && capPolicy == s.capPolicy && bounds().equals(s.bounds())
                && Objects.equals(workload, s.workload) && trial() == s.trial();
    }

    @Override
    public int hashCode() {
        return Objects.hash(label(), arrival, maxInFlight, capPolicy, bounds());
    }

    @Override
    public String toString() {
        return "OpenLoopStep[" + label() + ", " + arrival + ", cap=" + (maxInFlight < 0 ? "none" : maxInFlight + " "
                + capPolicy.label()) + ", warmup=" + bounds().warmup() + ", duration=" + bounds().duration()
                + ", maxRequests=" + bounds().maxRequests() + ", drain=" + bounds().drainTimeout() + "]";
    }

    /** Builds an {@link OpenLoopStep}; {@link #build()} reports every invalid setting at once. */
    public static final class Builder extends StepBuilder<Builder> {
        private ArrivalPlan arrival;
        private int maxInFlight = -1;
        private CapPolicy capPolicy;
        private Workload workload;

        private Builder() {}

        /** The arrival plan (rate, process, seed); required. */
        public Builder arrival(ArrivalPlan plan) { this.arrival = plan; return this; }
        /** Caps requests in flight at {@code max}, with the given policy at the cap. */
        public Builder maxInFlight(int max, CapPolicy policy) {
            this.maxInFlight = max;
            this.capPolicy = Objects.requireNonNull(policy, "policy");
            return this;
        }
        /** Removes the in-flight cap (the default). */
        public Builder uncapped() { this.maxInFlight = -1; this.capPolicy = null; return this; }
        /**
         * This step's own requests: request {@code i} of the step's plan (0 = its first arrival, warm-up included)
         * sends {@code workload.next(i)}, whatever its run-wide id (null: the run's workload by id, the default).
         * A trace step uses it so that each trace record goes out at its own instant. A chat-session workload
         * here is sent turn by turn as independent requests, without history.
         */
        public Builder workload(Workload requests) { this.workload = requests; return this; }

        public OpenLoopStep build() {
            Problems problems = new Problems()
                    .check(arrival != null, "an arrival plan is required (ArrivalPlan.constant/poisson/gamma)")
                    .check(capPolicy == null || maxInFlight >= 1,
                            "maxInFlight must be >= 1 when capped, got " + maxInFlight);
            checkSettings(problems);
            if (arrival != null && duration != null && warmup != null && !warmup.isNegative()) {
                double expected = arrival.rateRps() * (warmup.toNanos() + (double) duration.toNanos()) / 1e9;
                if (expected > MAX_PLANNED && (maxRequests < 0 || maxRequests > MAX_PLANNED)) {
                    problems.add(String.format(java.util.Locale.ROOT,
                            "the step would plan about %.0f arrivals, more than %d: shorten it or bound maxRequests",
                            expected, MAX_PLANNED));
                }
            }
            if (maxRequests > MAX_PLANNED) {
                problems.add("maxRequests must be <= " + MAX_PLANNED + " (the plan is precomputed), got " + maxRequests);
            }
            problems.throwIfAny("open-loop step");
            return new OpenLoopStep(this);
        }
    }
}
