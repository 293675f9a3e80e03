package dev.kneepoint.metrics;

import java.time.Instant;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Objects;
import java.util.Optional;
import java.util.concurrent.ConcurrentHashMap;

/**
 * A {@link RunListener} that keeps one {@link StepAggregator} per step and collects the step results.
 * Records are routed by {@link RequestRecord#step()}; a record whose step was never started is counted in
 * {@link #unassignedRecords()} and otherwise ignored.
 *
 * <p>Threading as {@link RunListener}: step events from the driving thread, records concurrently.
 */
public final class RunAggregator implements RunListener {
    private final Slo slo;
    private final Map<String, StepAggregator> active = new ConcurrentHashMap<>();
    private final List<StepResult> results = new ArrayList<>();
    private volatile StepAggregator current;
    private final java.util.concurrent.atomic.AtomicLong unassigned = new java.util.concurrent.atomic.AtomicLong();
    private volatile BackgroundAggregator background;
    private volatile long firstStepStart = -1;
    private volatile ClientThresholds clientThresholds = ClientThresholds.defaults();

    public RunAggregator(Slo slo) {
        this.slo = Objects.requireNonNull(slo, "slo");
    }

    public Slo slo() {
        return slo;
    }

    /**
     * Measures the records tagged {@code tag} apart, as background traffic: they never enter a step's
     * aggregator (so the foreground's windowed throughput, concurrency and goodput exclude them) and are
     * reported by {@link RunResult#background()} (see {@link BackgroundResult} for the attribution). Call
     * before the run starts.
     *
     * @param tag     the background stream's tag
     * @param rateRps its planned mean rate (reported, not used in any computation)
     * @param arrival its arrival process label (reported)
     */
    public RunAggregator trackBackground(String tag, double rateRps, String arrival) {
        return trackBackground(tag, rateRps, arrival, List.of());
    }

    /**
     * As {@link #trackBackground(String, double, String)} for a stream with a planned rate per ladder step
     * ({@code stepRatesRps.get(k)} for step index {@code k}, reported as that step's background {@code rate_rps};
     * empty: the steady {@code rateRps} everywhere).
     */
    public RunAggregator trackBackground(String tag, double rateRps, String arrival, List<Double> stepRatesRps) {
        this.background = new BackgroundAggregator(Objects.requireNonNull(tag, "tag"), rateRps, arrival, slo,
                stepRatesRps);
        return this;
    }

    /** Judges each step's client health against {@code thresholds} (default {@link ClientThresholds#defaults()}). Call before the run starts. */
    public RunAggregator clientThresholds(ClientThresholds thresholds) {
        this.clientThresholds = Objects.requireNonNull(thresholds, "thresholds");
        return this;
    }

    public ClientThresholds clientThresholds() {
        return clientThresholds;
    }

    /**
     * Starts a step. With a planned window its aggregator counts windowed facts as they come (constant memory);
     * with a null {@code plan} (a window not known in advance) it keeps its windowed facts until the step ends.
     */
    @Override
    public void stepStarted(StepInfo step, long stepStartNanos, WindowPlan plan) {
        StepAggregator a = plan == null
                ? StepAggregator.forUnknownWindow(step, slo, clientThresholds)
                : StepAggregator.forPlannedWindow(step, slo, clientThresholds, plan);
        if (firstStepStart < 0) {
            firstStepStart = stepStartNanos;
        }
        BackgroundAggregator bg = background;
        if (bg != null) {
            bg.stepStarted(step, stepStartNanos, plan);
        }
        active.put(step.label(), a);
        current = a;
    }

    @Override
    public void stepLoadStopping(StepInfo step) {
        StepAggregator a = active.get(step.label());
        if (a != null) {
            a.loadStopping();
        }
        BackgroundAggregator bg = background;
        if (bg != null) {
            bg.loadStopping(step);
        }
    }

    @Override
    public void requestFinished(RequestRecord record) {
        BackgroundAggregator bg = background;
        if (bg != null && bg.tag().equals(record.tag())) {
            bg.add(record);
            return;
        }
        StepAggregator a = active.get(record.step());
        if (a == null) {
            unassigned.incrementAndGet();
        } else {
            a.accept(record);
        }
    }

    @Override
    public void stepFinished(StepInfo step, StepWindow window, ClientHealth client) {
        StepAggregator a = active.remove(step.label());
        if (a != null) {
            StepResult r = a.finish(window, client);
            synchronized (results) {
                results.add(r);
            }
        }
        BackgroundAggregator bg = background;
        if (bg != null) {
            bg.stepFinished(step, window);
        }
    }

    /** Results of the finished steps, in finishing order. */
    public List<StepResult> results() {
        synchronized (results) {
            return List.copyOf(results);
        }
    }

    /** Live progress of the most recently started step, if it is still running. */
    public Optional<StepProgress> progress(long nowNanos) {
        StepAggregator a = current;
        return a != null && active.containsValue(a) ? Optional.of(a.progress(nowNanos)) : Optional.empty();
    }

    /** Records that named a step that was not started (or had already finished). */
    public long unassignedRecords() {
        return unassigned.get();
    }

    /** The run result so far, with the background measured apart when {@link #trackBackground} was called. */
    public RunResult result(String runId, boolean complete, Instant startTime, String target) {
        List<StepResult> steps = results();
        BackgroundAggregator bg = background;
        return new RunResult(runId, steps, complete, startTime, target,
                bg == null ? Optional.empty() : Optional.of(bg.result(steps, firstStepStart, complete)));
    }
}
