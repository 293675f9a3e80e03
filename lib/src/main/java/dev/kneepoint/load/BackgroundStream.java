package dev.kneepoint.load;

import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Objects;

/**
 * A steady open-loop stream of requests that runs underneath a whole {@link LoadRun}: it starts before the
 * first step, keeps its arrival schedule through every step and every pause, and stops issuing when the
 * last step has ended (then its requests in flight get {@link #drainTimeout()} to finish, after which they
 * are cancelled). It models the traffic a production server already carries while a foreground ladder
 * probes it (scenario E of the test matrix).
 *
 * <p>Every request of the stream takes its spec from {@link #workload()} with the tag replaced by
 * {@link #tag()}, and is recorded with {@code step = tag} and {@code warmup = false}: the aggregation layer
 * ({@code RunAggregator.trackBackground}) tells the stream apart by its tag and attributes each request to
 * the foreground step whose window contains its intended start. The schedule is
 * {@code runStart + arrival.offset(i)} on the run clock, never "now + sleep", like an open-loop step.
 *
 * @param workload     what each background request sends (its specs' tags are replaced)
 * @param arrival      the arrival plan (rate, process, seed) measured from the run start
 * @param tag          the traffic-class tag of the stream (default {@code bg}); not {@code default}
 * @param drainTimeout how long the stream's in-flight requests get after the run's last step
 */
public record BackgroundStream(Workload workload, ArrivalPlan arrival, String tag, Duration drainTimeout) {

    /** The default tag of background traffic. */
    public static final String DEFAULT_TAG = "bg";

    /** Validates every setting and reports all problems at once. */
    public BackgroundStream {
        List<String> problems = new ArrayList<>();
        if (workload == null) {
            problems.add("a workload is required");
        }
        if (arrival == null) {
            problems.add("an arrival plan is required (ArrivalPlan.constant/poisson/gamma)");
        }
        if (tag == null || !tag.matches("[A-Za-z0-9._-]{1,40}") || tag.equals("default")) {
            problems.add("tag must be 1-40 letters, digits, '.', '_' or '-' and not 'default', got '" + tag + "'");
        }
        if (drainTimeout == null || drainTimeout.isNegative()) {
            problems.add("drainTimeout must be >= 0, got " + drainTimeout);
        }
        if (!problems.isEmpty()) {
            throw StepBounds.invalid("background stream", problems);
        }
    }

    /** A Poisson stream at {@code rateRps} with the default tag and a 30 s drain. */
    public static BackgroundStream poisson(Workload workload, double rateRps, long seed) {
        return new BackgroundStream(workload, ArrivalPlan.poisson(rateRps, seed), DEFAULT_TAG, Step.DEFAULT_DRAIN_TIMEOUT);
    }

    /** The same stream under another tag. */
    public BackgroundStream withTag(String newTag) {
        return new BackgroundStream(workload, arrival, newTag, drainTimeout);
    }

    /** The same stream with another drain timeout. */
    public BackgroundStream withDrainTimeout(Duration drain) {
        return new BackgroundStream(workload, arrival, tag, drain);
    }

    /** Mean arrival rate, requests per second. */
    public double rateRps() {
        return Objects.requireNonNull(arrival).rateRps();
    }
}
