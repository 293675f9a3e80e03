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
 * still in flight then get up to {@link #drainTimeout()} to finish; after that they are cancelled and
 * end as {@code CANCELLED}.
 */
public sealed interface Step permits ClosedLoopStep, OpenLoopStep {

    /** Default time in-flight requests get to finish after a step stops issuing. */
    Duration DEFAULT_DRAIN_TIMEOUT = Duration.ofSeconds(30);

    /** Label, unique within a run, e.g. {@code c=8} or {@code rate=4}. */
    String label();

    Duration warmup();

    /** Measurement length after warm-up; empty when bounded by count only. */
    Optional<Duration> duration();

    /** Bound on measured requests; empty when bounded by duration only. */
    OptionalLong maxRequests();

    Duration drainTimeout();

    /** The same step under another label. */
    Step withLabel(String label);

    /** The planned facts of this step at position {@code index} of a run. */
    StepInfo info(int index);
}
