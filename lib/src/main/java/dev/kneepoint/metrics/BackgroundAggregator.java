package dev.kneepoint.metrics;

import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Objects;

/**
 * Aggregates a run's background records as they arrive, into one aggregator per foreground step and one for the run
 * total, and turns them into a {@link BackgroundResult} when the run ends: the same result, every double bit for
 * bit, as measuring all the records at once over the finished steps' windows ({@link BackgroundReplay}, what
 * {@link BackgroundResult#measure} does), without keeping the records. A run read back from disk drives it too
 * ({@link BackgroundReadBack}), with the windows {@code steps.jsonl} records.
 *
 * <p>Every background record counts in every step: as a member where the step's window contains its intended start,
 * else as a warm-up record whose token arrivals, dispatch, end and time in flight inside the window still count in
 * the step's windowed rates. A record that cannot touch a step's window at all (every time it carries lies outside
 * it) only adds one to that step's warm-up count, so it is counted, not fed. The steps are told apart with the
 * foreground's signals ({@link RunListener}): a step's aggregator is made when the step starts, with the step's
 * {@link WindowPlan} (its windowed facts are then counted as they come, as for the foreground), is told when the step
 * stops issuing load, and gets the window when the step ends; records that arrive later (in flight when the step
 * ended) still reach every finished step whose window they touch.
 *
 * <p>What is held, for a bounded time only, never for the run:
 * <ul>
 *   <li>records that may still touch a step not started yet: those carrying a time at or after the earliest
 *       possible start of the next step's window (the latest end a step's window may have, from its plan and the
 *       times records carried before it stopped issuing load; steps follow one another in time). While a step
 *       issues load, that is the few records at the frontier of time; between steps, those of the pause;</li>
 *   <li>records whose membership of the running step waits for its window's end: intended at or after the latest
 *       time seen (rare) or after the step stopped issuing load (its drain); a step without a plan holds its
 *       records until it ends;</li>
 *   <li>the windowed facts the step aggregators and the total keep waiting (see {@code WindowFacts});</li>
 *   <li>one {@link StepAggregator} per started step until the run ends: the last two as they are (their latency
 *       histograms, up to ~1.4 MB for seconds-long requests), the earlier ones compacted (histograms compressed to
 *       a few kB; a late record expands its step's again until the next step starts or ends).</li>
 * </ul>
 * Exactness: each aggregator gets the same records with the same warm-up flags as the all-at-once measure, plus
 * the count of those left out; counts and token sums do not depend on the order records arrive in, and the time in
 * flight is a sum of whole nanoseconds, which doubles add exactly in any order while below 2^53 ns (104 days of
 * summed time in flight). Thread-safe: one lock; step signals come from the driving thread, records from any.
 */
final class BackgroundAggregator {
    private final String tag;
    private final double rateRps;
    private final String arrival;
    private final Slo slo;
    private final List<Double> stepRatesRps;
    private final StepAggregator total;
    private final List<BackgroundStep> started = new ArrayList<>();
    private final Map<String, BackgroundStep> byLabel = new HashMap<>();
    /** Records that may still touch a step that has not started yet. */
    private final List<RecordSpan> ahead = new ArrayList<>();
    private long records;
    /** Latest clock reading carried by any record so far (not the intended start: it is planned, not read). */
    private long seen = Long.MIN_VALUE;
    /** Latest end of a finished step's window: no later step's window starts before it. */
    private long finishedFloor = Long.MIN_VALUE;
    /** Records carrying no time at or after this were dropped from {@link #ahead}: later windows must not start before it. */
    private long pruned = Long.MIN_VALUE;
    /** Steps started last whose aggregators stay as they are; earlier finished ones are compacted. */
    private int hot = 2;
    private long minIntended = Long.MAX_VALUE;
    private long maxEnd = Long.MIN_VALUE;
    /** Set by {@link #noMoreSteps}: no step starts any more. */
    private boolean closed;

    BackgroundAggregator(String tag, double rateRps, String arrival, Slo slo) {
        this(tag, rateRps, arrival, slo, List.of());
    }

    /** {@code stepRatesRps}: the planned rate per ladder step index (empty: {@code rateRps} for every step). */
    BackgroundAggregator(String tag, double rateRps, String arrival, Slo slo, List<Double> stepRatesRps) {
        this.tag = tag;
        this.rateRps = rateRps;
        this.arrival = arrival;
        this.slo = Objects.requireNonNull(slo, "slo");
        this.stepRatesRps = stepRatesRps == null ? List.of() : List.copyOf(stepRatesRps);
        this.total = StepAggregator.covering(info(-1, "total", 0), slo);
    }

    String tag() {
        return tag;
    }

    /**
     * A foreground step started ({@code plan}: its window plan, or null when it has none: then the step's background
     * records are held until it ends).
     *
     * @throws IllegalStateException when the step starts before the end of an earlier step's window
     */
    synchronized void stepStarted(StepInfo step, long stepStartNanos, WindowPlan plan) {
        if (closed) {
            throw new IllegalStateException("step '" + step.label() + "' started after noMoreSteps()");
        }
        if (stepStartNanos < pruned) {
            throw new IllegalStateException("step '" + step.label() + "' starts at " + stepStartNanos
                    + ", before the end of an earlier step's window (" + pruned + "): background traffic is measured"
                    + " as it streams in, which needs the steps one after another in time");
        }
        BackgroundStep s = new BackgroundStep(step, stepStartNanos, plan);
        started.add(s);
        byLabel.put(step.label(), s);
        for (RecordSpan h : ahead) {
            s.offer(h);
        }
        prune();
        compactCold();
    }

    /** The foreground step is about to stop issuing load ({@link RunListener#stepLoadStopping}). */
    synchronized void loadStopping(StepInfo step) {
        BackgroundStep s = byLabel.get(step.label());
        if (s != null && s.window == null && !s.stopped) {
            s.stopped = true;
            s.frozenSeen = seen;
            if (s.aggregator != null) {
                s.aggregator.loadStopping();
            }
        }
    }

    /** The foreground step ended with {@code window}: the step's background waiting for it is counted. */
    synchronized void stepFinished(StepInfo step, StepWindow window) {
        BackgroundStep s = byLabel.get(step.label());
        if (s == null || s.window != null) {
            return;
        }
        s.finish(window(window));
        finishedFloor = Math.max(finishedFloor, window.endNanos());
        prune();
        compactCold();
    }

    /**
     * Keeps the aggregators of the last {@code steps} started steps as they are and compacts the earlier finished
     * ones (default 2: the running step and the one before, whose requests in flight still arrive). A compacted
     * aggregator that gets a late record expands for it and is compacted again at the next step's start or end.
     */
    synchronized BackgroundAggregator keepHot(int steps) {
        this.hot = steps;
        return this;
    }

    private void compactCold() {
        for (int i = 0; i < started.size() - hot; i++) {
            BackgroundStep s = started.get(i);
            if (s.window != null) {
                s.aggregator.compact();
            }
        }
    }

    /** Aggregates one record; returns the latest time that can place it in a window ({@link RecordSpan#hi}). */
    synchronized long add(RequestRecord r) {
        RecordSpan h = new RecordSpan(r);
        records++;
        seen = Math.max(seen, h.read);
        minIntended = Math.min(minIntended, Math.max(0, r.timing().intendedNanos()));
        maxEnd = Math.max(maxEnd, Math.max(r.timing().endNanos(), r.timing().lastTokenNanos()) + 1);
        total.accept(withWarmup(r, false));
        for (BackgroundStep s : started) {
            s.offer(h);
        }
        if (h.hi >= floor()) {
            ahead.add(h);
        }
        prune();
        return h.hi;
    }

    /**
     * Counts {@code n} more records without handing them over: records known to touch no started step's window (each
     * carries no time at or after the earliest window start), which {@link #stepResult} counts as warm-up only,
     * as {@link #add} would have. For a second pass over a run read back once every step was started and finished
     * ({@link BackgroundReadBack}); the {@link #total} does not count them.
     */
    synchronized void countUnfed(long n) {
        records += n;
    }

    /** Records held now (for tests): those that may touch a step not started yet, and those waiting for a window. */
    synchronized int heldRecords() {
        int n = ahead.size();
        for (BackgroundStep s : started) {
            n += s.pending.size();
        }
        return n;
    }

    /** Step aggregators compacted now (for tests). */
    synchronized int compactedSteps() {
        return (int) started.stream().filter(s -> s.aggregator != null && s.aggregator.compacted()).count();
    }

    /** Windowed-fact entries waiting in the step aggregators and the total (for tests). */
    synchronized long queuedFacts() {
        long n = total.queuedFacts()[0];
        for (BackgroundStep s : started) {
            n += s.aggregator == null ? 0 : s.aggregator.queuedFacts()[0];
        }
        return n;
    }

    /**
     * The background over {@code foreground}'s windows; {@code runStartNanos} opens the total's window. Every
     * foreground step must have been started and finished through this aggregator. Does not change it.
     *
     * @throws IllegalStateException when a foreground step was not seen (background tracked after it started)
     */
    synchronized BackgroundResult result(List<StepResult> foreground, long runStartNanos, boolean complete) {
        List<StepResult> steps = new ArrayList<>();
        for (StepResult fg : foreground) {
            steps.add(stepResult(fg));
        }
        return new BackgroundResult(tag, rateRps, arrival, steps, total(foreground, runStartNanos, complete));
    }

    /** Whether this foreground step was started and finished through this aggregator, with its window. */
    synchronized boolean measures(StepResult fg) {
        BackgroundStep s = byLabel.get(fg.info().label());
        return s != null && window(fg.window()).equals(s.window);
    }

    /**
     * The background over one foreground step's window. Does not change the aggregator.
     *
     * @throws IllegalStateException when the step was not seen, or was finished with another window
     */
    synchronized StepResult stepResult(StepResult fg) {
        StepWindow w = window(fg.window());
        BackgroundStep s = byLabel.get(fg.info().label());
        if (s == null || !w.equals(s.window)) {
            throw new IllegalStateException("background of step '" + fg.info().label() + "' was not aggregated"
                    + " over its window " + w + (s == null ? " (the step was not seen: track the background"
                    + " before the run starts)" : " but over " + s.window));
        }
        StepInfo info = info(fg.info().index(), fg.info().label(), w.lengthNanos());
        return s.aggregator.finish(info, w, records - s.fed);
    }

    /**
     * Every background record of the run, over the window from {@code runStartNanos} (-1: the first record's
     * intended start) to the last of {@code foreground}'s window ends and the records' ends. Does not change the
     * aggregator.
     */
    synchronized StepResult total(List<StepResult> foreground, long runStartNanos, boolean complete) {
        long start = runStartNanos < 0 ? 0 : runStartNanos;
        long end = start;
        for (StepResult fg : foreground) {
            end = Math.max(end, fg.window().endNanos());
        }
        if (records > 0) {
            start = Math.min(start, minIntended);
            end = Math.max(end, maxEnd);
        }
        StepWindow window = new StepWindow(start, start, end, complete);
        return total.finish(info(-1, "total", end - start), window, 0);
    }

    /**
     * No step will start through this aggregator any more: records are no longer held for one, and those held are
     * let go. A run read back calls it once it has signalled its last step ({@link BackgroundReadBack}); a later
     * {@link #stepStarted} throws.
     */
    synchronized void noMoreSteps() {
        closed = true;
        ahead.clear();
        pruned = Long.MAX_VALUE;
    }

    /** Lowest start the window of a step not started yet may have. */
    private long floor() {
        if (closed) {
            return Long.MAX_VALUE;
        }
        long f = finishedFloor;
        for (BackgroundStep s : started) {
            if (s.window == null) {
                f = Math.max(f, s.stepStart);
                if (s.plan != null) {
                    f = Math.max(f, Math.min(s.plan.endCapNanos(), s.stopped ? s.frozenSeen : seen));
                }
            }
        }
        return f;
    }

    private void prune() {
        long f = floor();
        if (f > pruned) {
            pruned = f;
            ahead.removeIf(h -> h.hi < f);
        }
    }

    private StepInfo info(int index, String label, long durationNanos) {
        return info(index, label, durationNanos, rateRps, arrival, stepRatesRps);
    }

    static StepInfo info(int index, String label, long durationNanos, double rateRps, String arrival,
                         List<Double> stepRatesRps) {
        double rate = stepRatesRps.isEmpty() ? rateRps
                : index >= 0 && index < stepRatesRps.size() ? stepRatesRps.get(index) : Double.NaN;
        return new StepInfo(index, label, StepInfo.OPEN, -1, rate, arrival, -1, "", 0, durationNanos, -1);
    }

    /** The background's window in a foreground step: the step's measurement window, without its warm-up. */
    static StepWindow window(StepWindow fg) {
        return new StepWindow(fg.startNanos(), fg.startNanos(), fg.endNanos(), fg.completed());
    }

    /** The record with its warm-up flag set to {@code warmup} (membership of one step). */
    static RequestRecord withWarmup(RequestRecord r, boolean warmup) {
        if (r.warmup() == warmup) {
            return r;
        }
        RequestRecord.Builder b = r.toBuilder();
        b.warmup = warmup;
        return b.build().withoutKeptAnswer();
    }

    /** One foreground step's background. */
    private final class BackgroundStep {
        final StepInfo step;
        final long stepStart;
        final WindowPlan plan;
        /** Null until the window is known for a step without a plan. */
        StepAggregator aggregator;
        StepWindow window;
        boolean stopped;
        long frozenSeen;
        /** Records fed to the aggregator; the others count as warm-up only. */
        long fed;
        final List<RequestRecord> pending = new ArrayList<>();

        BackgroundStep(StepInfo step, long stepStart, WindowPlan plan) {
            this.step = step;
            this.stepStart = stepStart;
            this.plan = plan;
            StepInfo provisional = info(step.index(), step.label(), 0);
            this.aggregator = plan == null ? null
                    : StepAggregator.forPlannedWindow(provisional, slo, ClientThresholds.defaults(), plan);
        }

        /** Feeds the record, leaves it out (it cannot touch the window), or holds it until the window is known. */
        void offer(RecordSpan h) {
            RequestRecord r = h.record;
            if (window != null) {
                if (h.lo < window.endNanos() && h.hi >= window.startNanos()) {
                    feed(r, !window.contains(r.timing().intendedNanos()));
                }
            } else if (plan == null) {
                if (h.hi >= stepStart) { // the window starts at or after the step
                    pending.add(r);
                }
            } else if (h.hi >= plan.startNanos()) { // else every time lies before the window
                if (r.timing().intendedNanos() < plan.startNanos()) {
                    feed(r, true);
                } else if (r.timing().intendedNanos() < Math.min(plan.endCapNanos(), stopped ? frozenSeen : seen)) {
                    feed(r, false); // before the window's end: WindowPlan
                } else {
                    pending.add(r);
                }
            }
        }

        void finish(StepWindow w) {
            if (aggregator == null) {
                aggregator = StepAggregator.forKnownWindow(info(step.index(), step.label(), 0), slo,
                        ClientThresholds.defaults(), w);
            } else {
                aggregator.windowKnown(w);
            }
            window = w;
            for (RequestRecord r : pending) {
                feed(r, !w.contains(r.timing().intendedNanos()));
            }
            pending.clear();
        }

        private void feed(RequestRecord r, boolean warmup) {
            aggregator.accept(withWarmup(r, warmup));
            fed++;
        }
    }
}
