package dev.kneepoint.load;

import dev.kneepoint.metrics.Problems;
import dev.kneepoint.metrics.StepInfo;
import dev.kneepoint.request.Workload;
import java.time.Duration;
import java.util.Objects;
import java.util.Optional;
import java.util.function.UnaryOperator;

/**
 * A closed-loop step: {@code concurrency} users, each sends a request, waits for it to end, waits
 * {@code thinkTime}, and sends again. A request's {@code t_intended} is the instant its user's slot
 * became free plus the think time; for each user's first request it is the user's start: user {@code u} of
 * {@code n} starts {@code u·rampUp/n} after the step start, so with a ramp the users do not arrive in lock-step
 * (equal requests sent within a millisecond stay aligned and have their prefills batched together, which real
 * users do not). {@code rampUp} 0 (the default here) starts every user at once.
 *
 * <p>Warm-up: requests handed to the sender during the warm-up are flagged {@code warmup} and do not
 * count towards {@code maxRequests}. When the duration (after warm-up) has passed, or the last of
 * {@code maxRequests} measured requests was issued, users stop issuing; in-flight requests get
 * {@code drainTimeout} to finish (a request-bounded step waits for its last requests too), and those still
 * unfinished then are cancelled and recorded {@code UNFINISHED}, a failure.
 *
 * <p>Requests come from the run's workload by request id, unless the step makes its own {@link #requests() from it}
 * (e.g. a batch-size ladder's step sends batches of its size); a step with its own requests runs no chat sessions.
 *
 * <pre>{@code
 * ClosedLoopStep step = ClosedLoopStep.builder().concurrency(8)
 *         .warmup(Duration.ofSeconds(10)).duration(Duration.ofSeconds(60)).build();
 * }</pre>
 */
public final class ClosedLoopStep extends Step {
    private final int concurrency;
    private final Duration thinkTime;
    private final Duration rampUp;
    private final UnaryOperator<Workload> requests;

    private ClosedLoopStep(Builder b) {
        super(b, "c=" + b.concurrency);
        this.concurrency = b.concurrency;
        this.thinkTime = b.thinkTime;
        this.rampUp = b.rampUp;
        this.requests = b.requests;
    }

    public static Builder builder() {
        return new Builder();
    }

    /** A builder holding this step's settings (label included only if it was set explicitly). */
    public Builder toBuilder() {
        return new Builder().settingsOf(this).concurrency(concurrency).thinkTime(thinkTime).rampUp(rampUp)
                .requests(requests);
    }

    /** The same step with another number of users, labelled {@code c=N}. */
    public ClosedLoopStep withConcurrency(int users) {
        return toBuilder().concurrency(users).label("c=" + users).build();
    }

    @Override
    public ClosedLoopStep withLabel(String newLabel) {
        return toBuilder().label(newLabel).build();
    }

    @Override
    public ClosedLoopStep asTrial(int n) {
        return toBuilder().label(StepInfo.trialLabel(info(0).loadLabel(), n)).trial(n).build();
    }

    public int concurrency() {
        return concurrency;
    }

    public Duration thinkTime() {
        return thinkTime;
    }

    /** Over how long the users start, from the step start (0: all at once, in lock-step). */
    public Duration rampUp() {
        return rampUp;
    }

    /** How the step makes its requests from the run's workload; empty: it sends the run's workload itself. */
    public Optional<UnaryOperator<Workload>> requests() {
        return Optional.ofNullable(requests);
    }

    /** When user {@code user} sends its first request, in nanoseconds after the step start. */
    long userStartNanos(int user) {
        return rampUp.toNanos() / concurrency * user;
    }

    @Override
    public StepInfo info(int index) {
        return new StepInfo(index, label(), StepInfo.CLOSED, concurrency, Double.NaN, "", -1, "",
                bounds().warmupNanos(), bounds().durationNanos(), bounds().maxRequests(), trial());
    }

    @Override
    public boolean equals(Object o) {
        return o instanceof ClosedLoopStep s && label().equals(s.label()) && concurrency == s.concurrency
                && thinkTime.equals(s.thinkTime) && rampUp.equals(s.rampUp) && bounds().equals(s.bounds())
                && trial() == s.trial() && Objects.equals(requests, s.requests);
    }

    @Override
    public int hashCode() {
        return Objects.hash(label(), concurrency, thinkTime, rampUp, bounds());
    }

    @Override
    public String toString() {
        return "ClosedLoopStep[" + label() + ", users=" + concurrency + ", think=" + thinkTime
                + ", rampUp=" + rampUp + ", warmup=" + bounds().warmup() + ", duration=" + bounds().duration()
                + ", maxRequests=" + bounds().maxRequests() + ", drain=" + bounds().drainTimeout() + "]";
    }

    /** Builds a {@link ClosedLoopStep}; {@link #build()} reports every invalid setting at once. */
    public static final class Builder extends StepBuilder<Builder> {
        private int concurrency = 1;
        private Duration thinkTime = Duration.ZERO;
        private Duration rampUp = Duration.ZERO;
        private UnaryOperator<Workload> requests;

        private Builder() {}

        /** Number of users (default 1). */
        public Builder concurrency(int users) { this.concurrency = users; return this; }
        /** Fixed pause between a request's end and the user's next request (default 0). */
        public Builder thinkTime(Duration think) { this.thinkTime = think; return this; }
        /** Over how long the users start (default 0: all at the step start, in lock-step). */
        public Builder rampUp(Duration ramp) { this.rampUp = ramp; return this; }
        /** The step's requests, made from the run's workload (default null: the run's workload itself, by id). */
        public Builder requests(UnaryOperator<Workload> fromRunWorkload) { this.requests = fromRunWorkload; return this; }

        public ClosedLoopStep build() {
            Problems problems = new Problems()
                    .check(concurrency >= 1, "concurrency must be >= 1 user, got " + concurrency)
                    .check(thinkTime != null && !thinkTime.isNegative(), "think time must be >= 0, got " + thinkTime)
                    .check(rampUp != null && !rampUp.isNegative(),
                            "ramp-up must be >= 0 (0 starts every user at once), got " + rampUp);
            checkSettings(problems);
            problems.throwIfAny("closed-loop step");
            return new ClosedLoopStep(this);
        }
    }
}
