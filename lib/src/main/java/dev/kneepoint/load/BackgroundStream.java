package dev.kneepoint.load;

import dev.kneepoint.metrics.Problems;
import dev.kneepoint.request.Workload;
import java.time.Duration;
import java.util.List;
import java.util.Objects;

/**
 * A steady open-loop stream of requests that runs underneath a whole {@link LoadRun}: it starts before the
 * first step, keeps its arrival schedule through every step and every pause, and stops issuing when the
 * last step has ended (then its requests in flight get {@link #drainTimeout()} to finish, after which they
 * are cancelled and recorded {@code UNFINISHED}). It models the traffic a production server already carries while a foreground ladder
 * probes it (scenario E of the test matrix).
 *
 * <p>Every request of the stream takes its spec from {@link #workload()} with the tag replaced by
 * {@link #tag()}, and is recorded with {@code step = tag} and {@code warmup = false}: the aggregation layer
 * ({@code RunAggregator.trackBackground}) tells the stream apart by its tag and attributes each request to
 * the foreground step whose window contains its intended start. The schedule is
 * {@code runStart + arrival.offset(i)} on the run clock, never "now + sleep", like an open-loop step.
 *
 * <p><b>Per-step rates</b> ({@link #withStepRates}): instead of one schedule for the whole run, the stream runs at
 * {@code stepRatesRps[k]} during ladder step {@code k} only: from the step's start (its warm-up included) to its end
 * (its drain included), on a schedule {@code stepStart + arrival.withRate(rate).offset(i)}; a rate of 0 means no
 * background during that step, and pauses between steps carry none. The list must have one rate per ladder step.
 * Requests still in flight when a step ends go on (they are not cancelled) and count where they were intended.
 *
 * @param workload     what each background request sends (its specs' tags are replaced)
 * @param arrival      the arrival plan (rate, process, seed) measured from the run start; with per-step rates only
 *                     its process and seed are used
 * @param tag          the traffic-class tag of the stream (default {@code bg}); not {@code default}
 * @param drainTimeout how long the stream's in-flight requests get after the run's last step
 * @param stepRatesRps empty: one steady stream for the whole run; else the rate during each ladder step (>= 0)
 */
public record BackgroundStream(Workload workload, ArrivalPlan arrival, String tag, Duration drainTimeout,
                               List<Double> stepRatesRps) {

    /** The default tag of background traffic. */
    public static final String DEFAULT_TAG = "bg";

    /** A steady stream for the whole run (no per-step rates). */
    public BackgroundStream(Workload workload, ArrivalPlan arrival, String tag, Duration drainTimeout) {
        this(workload, arrival, tag, drainTimeout, List.of());
    }

    /** Validates every setting and reports all problems at once. */
    public BackgroundStream {
        Problems problems = new Problems();
        stepRatesRps = stepRatesRps == null ? List.of() : List.copyOf(stepRatesRps);
        for (int k = 0; k < stepRatesRps.size(); k++) {
            double r = stepRatesRps.get(k);
            problems.check(r >= 0 && !Double.isInfinite(r), "the background rate of step " + k + " must be a finite"
                    + " number >= 0 requests per second (0: no background during that step), got " + r);
        }
        problems.check(workload != null, "a workload is required")
                .check(arrival != null, "an arrival plan is required (ArrivalPlan.constant/poisson/gamma)")
                .check(tag != null && tag.matches("[A-Za-z0-9._-]{1,40}") && !tag.equals("default"),
                        "tag must be 1-40 letters, digits, '.', '_' or '-' and not 'default', got '" + tag + "'")
                .check(drainTimeout != null && !drainTimeout.isNegative(),
                        "drainTimeout must be >= 0, got " + drainTimeout)
                .throwIfAny("background stream");
    }

    /** A Poisson stream at {@code rateRps} with the default tag and a 30 s drain. */
    public static BackgroundStream poisson(Workload workload, double rateRps, long seed) {
        return new BackgroundStream(workload, ArrivalPlan.poisson(rateRps, seed), DEFAULT_TAG, Step.DEFAULT_DRAIN_TIMEOUT);
    }

    /** The same stream under another tag. */
    public BackgroundStream withTag(String newTag) {
        return new BackgroundStream(workload, arrival, newTag, drainTimeout, stepRatesRps);
    }

    /** The same stream with another drain timeout. */
    public BackgroundStream withDrainTimeout(Duration drain) {
        return new BackgroundStream(workload, arrival, tag, drain, stepRatesRps);
    }

    /**
     * The same stream at {@code ratesRps[k]} during ladder step {@code k} only (0: none during that step); one rate
     * per ladder step, checked when the run is built. See the class comment.
     */
    public BackgroundStream withStepRates(double... ratesRps) {
        return new BackgroundStream(workload, arrival, tag, drainTimeout,
                ratesRps == null ? null : java.util.Arrays.stream(ratesRps).boxed().toList());
    }

    /** True when the stream has a rate per ladder step rather than one schedule for the whole run. */
    public boolean perStep() {
        return !stepRatesRps.isEmpty();
    }

    /** The planned rate during ladder step {@code k}: its per-step rate, else the steady rate. */
    public double rateRps(int step) {
        return perStep() ? stepRatesRps.get(step) : rateRps();
    }

    /** Mean arrival rate of the steady stream, requests per second (with per-step rates: see {@link #rateRps(int)}). */
    public double rateRps() {
        return Objects.requireNonNull(arrival).rateRps();
    }
}
