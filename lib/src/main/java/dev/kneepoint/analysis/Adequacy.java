package dev.kneepoint.analysis;

import dev.kneepoint.metrics.LatencyTrend;
import dev.kneepoint.metrics.StepResult;
import java.util.ArrayList;
import java.util.List;
import java.util.function.Function;
import java.util.function.Predicate;
import java.util.stream.Collectors;

/**
 * Whether a step measured enough to trust its numbers (docs/ANALYSIS.md "Adequacy"): warnings, never verdicts.
 *
 * <ul>
 *   <li>A percentile needs requests: a p99 over fewer than {@link #MIN_REQUESTS_FOR_P99} OK requests is one of
 *       its few largest samples, and below 100 it is the maximum itself.</li>
 *   <li>A window needs requests to begin and end in it: one shorter than {@link #MIN_WINDOW_E2E_P99S} times the
 *       step's E2E p99 holds few whole slow requests, so the tail it reports is the tail of the quick ones.</li>
 *   <li>A window needs a steady state: a step whose {@code ttft_sched} {@linkplain #trending moved through the window}
 *       (its {@link LatencyTrend}) reports percentiles that depend on how long it ran. A rising line is a queue that
 *       grows (or a server that degrades), a falling one a warm-up too short.</li>
 * </ul>
 */
final class Adequacy {
    /** OK requests a p99 needs before it is more than the step's maximum. */
    static final long MIN_REQUESTS_FOR_P99 = 100;
    /** Window length in E2E p99s below which a step's tail is under-sampled. */
    static final double MIN_WINDOW_E2E_P99S = 3;
    /** Fitted latency change across the window, as a fraction of the step's mean, from which a step is not steady. */
    static final double TREND_FRACTION = 0.5;
    /** The slope's t statistic from which a change is more than noise: 5, not 3, since queueing noise is autocorrelated (a burst delays its successors), which inflates a least-squares t. */
    static final double TREND_T = 5;

    private Adequacy() {}

    /** The caveats of {@code steps}, one line per kind of problem naming every step that has it; empty when none. */
    static List<String> caveats(List<StepResult> steps) {
        List<String> out = new ArrayList<>();
        List<StepResult> thin = matching(steps, Adequacy::thin);
        if (!thin.isEmpty()) {
            out.add("p99 rests on fewer than " + MIN_REQUESTS_FOR_P99 + " OK requests in " + list(thin,
                    s -> s.counts().requestsOk() + " requests") + ": there it is about the step's maximum; "
                    + "lengthen those steps (or read their p90).");
        }
        List<StepResult> shortWindow = matching(steps, Adequacy::windowTooShort);
        if (!shortWindow.isEmpty()) {
            double neededS = shortWindow.stream().mapToDouble(s -> MIN_WINDOW_E2E_P99S * s.latency().e2e().p99() / 1e3)
                    .max().orElseThrow();
            out.add("window shorter than " + Format.num(MIN_WINDOW_E2E_P99S) + " x E2E p99 in " + list(shortWindow,
                    s -> Format.num(s.windowS()) + " s window, E2E p99 " + Format.num(s.latency().e2e().p99() / 1e3)
                            + " s") + ": few slow requests both start and end in it, so its tail is under-sampled; "
                    + "measure for at least " + Format.num(Math.ceil(neededS)) + " s per step.");
        }
        List<StepResult> unsteady = matching(steps, Adequacy::trending);
        if (!unsteady.isEmpty()) {
            out.add("no steady state in " + list(unsteady, Adequacy::describeTrend) + ": its percentiles depend on "
                    + "how long the step ran; a rising line is a queue that grows (the server fell behind) or a server "
                    + "that degrades, a falling one a warm-up too short (lengthen --warmup).");
        }
        return out;
    }

    /**
     * Whether {@code s}'s {@code ttft_sched} moved through its window beyond noise: the fitted change is at least
     * {@link #TREND_FRACTION} of the step's mean (and {@link Segment#LATENCY_FLOOR_MS}), with |t| ≥ {@link #TREND_T}.
     */
    static boolean trending(StepResult s) {
        LatencyTrend t = s.latency().trend();
        double rise = Math.abs(t.riseMs());
        return t.measured() && Math.abs(t.t()) >= TREND_T && rise >= Segment.LATENCY_FLOOR_MS
                && rise >= TREND_FRACTION * t.meanMs();
    }

    /** Whether {@code s}'s latency {@linkplain #trending rose} through its window: its queue grew. */
    static boolean rising(StepResult s) {
        return trending(s) && s.latency().trend().riseMs() > 0;
    }

    /** E.g. "ttft sched rose 2300 ms across the 4.8 s window, +140% of its mean, t=25". */
    static String describeTrend(StepResult s) {
        LatencyTrend t = s.latency().trend();
        return "ttft sched " + (t.riseMs() > 0 ? "rose " : "fell ") + Format.num(Math.abs(t.riseMs())) + " ms across "
                + Format.num(t.spanS()) + " s of starts, " + (t.riseMs() > 0 ? "+" : "-")
                + Format.pct(Math.abs(t.riseMs()) / t.meanMs()) + " of its mean, t=" + Format.num(Math.abs(t.t()));
    }

    /** Whether {@code s}'s p99 rests on fewer than {@link #MIN_REQUESTS_FOR_P99} OK requests (and some). */
    static boolean thin(StepResult s) {
        return s.counts().requestsOk() > 0 && s.counts().requestsOk() < MIN_REQUESTS_FOR_P99;
    }

    /** Whether {@code s}'s window is shorter than {@link #MIN_WINDOW_E2E_P99S} times its E2E p99. */
    static boolean windowTooShort(StepResult s) {
        double p99S = s.latency().e2e().p99() / 1e3;
        return s.counts().requestsOk() > 0 && s.windowS() > 0 && !Double.isNaN(p99S)
                && s.windowS() < MIN_WINDOW_E2E_P99S * p99S;
    }

    private static List<StepResult> matching(List<StepResult> steps, Predicate<StepResult> p) {
        return steps.stream().filter(p).toList();
    }

    private static String list(List<StepResult> steps, Function<StepResult, String> detail) {
        return steps.stream().map(s -> s.info().label() + " (" + detail.apply(s) + ")").collect(Collectors.joining(", "));
    }
}
