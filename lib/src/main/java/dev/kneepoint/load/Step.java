package dev.kneepoint.load;

import dev.kneepoint.metrics.StepInfo;
import java.time.Duration;
import java.util.Optional;
import java.util.OptionalLong;

/**
 * One load level held for a while: either {@link ClosedLoopStep} (a number of users) or
 * {@link OpenLoopStep} (an arrival plan). Immutable, validated values built with their builders.
 *
 * <p>Common rules: requests handed to the sender during {@link #warmup()} are flagged {@code warmup};
 * the step stops issuing when {@link #duration()} has passed after warm-up or when
 * {@link #maxRequests()} measured (non-warm-up) requests were issued, whichever comes first. Requests
 * still in flight then get up to {@link #drainTimeout()} to finish (a request-bounded step too: it ends when its
 * last dispatched request ends, not at the last dispatch); after that they are cancelled and end as
 * {@code UNFINISHED}, a failure (the server did not finish them), never a silent {@code CANCELLED}, which is
 * kept for the user's stop.
 */
public abstract sealed class Step permits ClosedLoopStep, OpenLoopStep {

    /** Default time in-flight requests get to finish after a step stops issuing. */
    public static final Duration DEFAULT_DRAIN_TIMEOUT = Duration.ofSeconds(30);

    private final String label;
    private final boolean labelSet;
    private final StepBounds bounds;
    private final int trial;

    /** A step with the bounds and trial of {@code settings}, and its label if set, else {@code defaultLabel}. */
    Step(StepBuilder<?> settings, String defaultLabel) {
        this.labelSet = settings.label != null;
        this.label = labelSet ? settings.label : defaultLabel;
        this.bounds = settings.bounds();
        this.trial = settings.trial;
    }

    /** Label, unique within a run, e.g. {@code c=8} or {@code rate=4}. */
    public String label() { return label; }

    public Duration warmup() { return bounds.warmup(); }

    /** Measurement length after warm-up; empty when bounded by count only. */
    public Optional<Duration> duration() { return bounds.durationOpt(); }

    /** Bound on measured requests; empty when bounded by duration only. */
    public OptionalLong maxRequests() { return bounds.maxRequestsOpt(); }

    public Duration drainTimeout() { return bounds.drainTimeout(); }

    /** Which measurement of a repeated load this step is (1 to N); 0 when the load is measured once. */
    public int trial() { return trial; }

    /** The same step under another label. */
    public abstract Step withLabel(String label);

    /**
     * Trial {@code n} (1 or more) of this step's load, labelled {@link StepInfo#trialLabel} ({@code c=8 #2}). An
     * open-loop trial after the first draws its own arrivals (the seed moved by the trial number), so that trials
     * are independent samples of the load rather than replays of one schedule.
     */
    public abstract Step asTrial(int n);

    /** The planned facts of this step at position {@code index} of a run. */
    public abstract StepInfo info(int index);

    StepBounds bounds() {
        return bounds;
    }

    /** The label if it was set explicitly, else null (a copy keeps deriving its default label). */
    String explicitLabel() {
        return labelSet ? label : null;
    }
}
