package dev.kneepoint.load;

import dev.kneepoint.metrics.Problems;
import java.time.Duration;
import java.util.Objects;

/**
 * The settings every {@link Step} has, whatever its load: the bounds (warm-up, duration, {@code maxRequests},
 * drain timeout), the label and the trial, with their checks. {@link ClosedLoopStep.Builder} and
 * {@link OpenLoopStep.Builder} add their load to it; its setters are public members of those two.
 *
 * @param <B> the builder the setters return
 */
abstract class StepBuilder<B extends StepBuilder<B>> {
    String label;
    Duration warmup = Duration.ZERO;
    Duration duration;
    long maxRequests = -1;
    Duration drainTimeout = Step.DEFAULT_DRAIN_TIMEOUT;
    int trial;

    StepBuilder() {}

    /** Warm-up before measurement (default 0). */
    public B warmup(Duration warmupTime) { this.warmup = warmupTime; return self(); }
    /** Measurement length after warm-up. */
    public B duration(Duration measured) {
        this.duration = Objects.requireNonNull(measured, "duration");
        return self();
    }
    /** Bound on measured (non-warm-up) requests, for an open-loop step its arrivals after warm-up; -1 for none. */
    public B maxRequests(long max) { this.maxRequests = max; return self(); }
    /**
     * Time in-flight requests get to finish once the step stops issuing (for an open-loop step, after its last
     * arrival; default 30 s).
     */
    public B drainTimeout(Duration drain) { this.drainTimeout = drain; return self(); }
    /** Label (default {@code c=N}; open loop {@code rate=R}, or {@code trace} or {@code trace xS} for a trace plan). */
    public B label(String stepLabel) { this.label = stepLabel; return self(); }
    /** Which measurement of a repeated load this is, 1 to N (default 0: measured once); see {@link Step#asTrial}. */
    public B trial(int n) { this.trial = n; return self(); }

    @SuppressWarnings("unchecked")
    private B self() {
        return (B) this;
    }

    /** Takes {@code step}'s bounds, trial and label (only if it was set explicitly): the start of its toBuilder. */
    B settingsOf(Step step) {
        StepBounds b = step.bounds();
        warmup = b.warmup();
        duration = b.duration();
        maxRequests = b.maxRequests();
        drainTimeout = b.drainTimeout();
        label = step.explicitLabel();
        trial = step.trial();
        return self();
    }

    StepBounds bounds() {
        return new StepBounds(warmup, duration, maxRequests, drainTimeout);
    }

    /** Adds every problem with the label, the trial and the bounds to {@code problems}, after the load's own. */
    void checkSettings(Problems problems) {
        problems.check(label == null || !label.isBlank(), "label must not be blank")
                .check(trial >= 0, "trial must be >= 0 (0: measured once), got " + trial);
        StepBounds.check(warmup, duration, maxRequests, drainTimeout, problems);
    }
}
