package dev.kneepoint.metrics;

import java.util.ArrayList;
import java.util.Arrays;
import java.util.Comparator;
import java.util.HashSet;
import java.util.List;
import java.util.Objects;
import java.util.Set;
import java.util.function.Consumer;

/**
 * Measures the background traffic of a run read back from disk as its records are read, without keeping them: the
 * live path's {@link BackgroundAggregator}, driven by the step windows a run directory records. The result equals,
 * every double bit for bit, measuring all the records at once over the foreground steps' windows
 * ({@link BackgroundResult#measure}), and so what the live run reported.
 *
 * <p>Use: declare the steps whose window is known before the records are read ({@link #step}: the finished steps
 * of {@code steps.jsonl}, in their order), hand every background record in file order ({@link #add}), then ask for
 * the {@link #result}. The declared steps are signalled to the aggregator as the records' clock passes their start,
 * as a live run would signal them, so the aggregator holds what it holds live: the records of a drain and the pause
 * after it, and the earlier steps' aggregators compacted.
 *
 * <p>A foreground step of the result whose window was not declared (a step that never finished: its window ends
 * with its last request, learnt only at the end; a step {@code steps.jsonl} lacks; or a step that starts before an
 * earlier one's window ends) is measured by a second pass: {@link #result} asks its {@link Replay} to hand every
 * background record again, in the same order, to a second aggregator that knows those windows. Without such steps
 * the records are read once. Records handed with their position in the file ({@link #add(RequestRecord, long)})
 * let the second pass start late ({@link Resume}): at the last resume point before which no record carries a time
 * at or after the earliest such window's start (those records are only counted, as the aggregator would count
 * them), so a crashed run's last step costs a read of its own part of the file, not of the whole run.
 *
 * <p>Not thread-safe: one reader, one thread.
 */
public final class BackgroundReadBack {
    /** Hands the background records again, the same ones in the same order as the first time. */
    @FunctionalInterface
    public interface Replay {
        void handAgain(Consumer<RequestRecord> sink);
    }

    /**
     * Hands again the background records from a position given to {@link #add(RequestRecord, long)}: the record
     * added with it and every one added after it, the same ones in the same order as the first time; from the first
     * record when {@code position} is {@link #FIRST}.
     */
    @FunctionalInterface
    public interface Resume {
        void handAgainFrom(long position, Consumer<RequestRecord> sink);
    }

    /** The position {@link Resume} is given to hand every record again. */
    public static final long FIRST = Long.MIN_VALUE;
    /** Least distance between two resume points, in positions (bytes of requests.jsonl for the loader). */
    static final long RESUME_SPACING = 1 << 20;

    private record Declared(StepInfo info, long stepStartNanos, StepWindow window) {}

    private final String tag;
    private final double rateRps;
    private final String arrival;
    private final List<Double> stepRatesRps;
    private final Slo slo;
    private final BackgroundAggregator streamed;
    /** Declared steps the stream signals in order: each starts at or after the earlier ones' window ends. */
    private final List<Declared> inOrder = new ArrayList<>();
    private long orderFloor = Long.MIN_VALUE;
    private int signalled;
    /** Every declared step signalled, and the aggregator told no step comes any more. */
    private boolean closed;
    private long records;
    /**
     * Resume points, three longs each: a record's position, the records added before it and the latest time that
     * can place one of those in a window. Null once a record came without a position.
     */
    private long[] resume = new long[48];
    private int resumePoints;
    /** Latest time that can place any record added so far in a window. */
    private long latestHull = Long.MIN_VALUE;

    /**
     * @param tag          the stream's tag
     * @param rateRps      its planned mean rate (reported)
     * @param arrival      its arrival process label (reported)
     * @param stepRatesRps its planned rate per ladder step index (empty: {@code rateRps} for every step)
     * @param slo          the run's SLO
     */
    public BackgroundReadBack(String tag, double rateRps, String arrival, List<Double> stepRatesRps, Slo slo) {
        this.tag = Objects.requireNonNull(tag, "tag");
        this.rateRps = rateRps;
        this.arrival = arrival == null ? "" : arrival;
        this.stepRatesRps = stepRatesRps == null ? List.of() : List.copyOf(stepRatesRps);
        this.slo = Objects.requireNonNull(slo, "slo");
        this.streamed = new BackgroundAggregator(tag, rateRps, this.arrival, slo, this.stepRatesRps);
    }

    /**
     * A foreground step whose window is known before the records are read ({@code window}: the foreground window,
     * warm-up included, as the step result will carry it). Declare steps in the order they ran.
     *
     * @throws IllegalStateException when a record was already handed
     */
    public BackgroundReadBack step(StepInfo info, long stepStartNanos, StepWindow window) {
        if (records > 0) {
            throw new IllegalStateException("declare step '" + info.label() + "' before handing any record");
        }
        Objects.requireNonNull(window, "window");
        if (stepStartNanos >= orderFloor) { // else it overlaps an earlier window: measured in the second pass
            inOrder.add(new Declared(info, stepStartNanos, window));
            orderFloor = Math.max(orderFloor, window.endNanos());
        }
        return this;
    }

    /** One background record, in file order; the second pass, if any, hands every record again. */
    public void add(RequestRecord r) {
        resume = null;
        addRecord(r);
    }

    /**
     * One background record, in file order, and where a reader may start to hand it again: {@code position}
     * (≥ 0, not decreasing from one record to the next; the loader gives its line's byte offset), which a
     * {@link Resume} may later be given.
     */
    public void add(RequestRecord r, long position) {
        if (position < 0) {
            throw new IllegalArgumentException("position must be >= 0, got " + position);
        }
        if (resume != null && (resumePoints == 0 || position - resume[3 * resumePoints - 3] >= RESUME_SPACING)) {
            if (3 * resumePoints + 3 > resume.length) {
                resume = Arrays.copyOf(resume, 2 * resume.length);
            }
            resume[3 * resumePoints] = position;
            resume[3 * resumePoints + 1] = records;
            resume[3 * resumePoints + 2] = latestHull;
            resumePoints++;
        }
        addRecord(r);
    }

    private void addRecord(RequestRecord r) {
        long read = latestReading(r);
        while (signalled < inOrder.size() && inOrder.get(signalled).stepStartNanos() <= read) {
            signalNext();
        }
        if (signalled == inOrder.size() && !closed) {
            // no declared step to come: hold nothing for one (a crashed run's last step is measured by the replay)
            streamed.noMoreSteps();
            closed = true;
        }
        records++;
        latestHull = Math.max(latestHull, streamed.add(r));
    }

    /** The stream's tag. */
    public String tag() {
        return tag;
    }

    /** Background records handed so far. */
    public long records() {
        return records;
    }

    /** Records the aggregation holds now (for tests: bounded by a drain and a pause, not by the run). */
    int heldRecords() {
        return streamed.heldRecords();
    }

    /**
     * The background over {@code foreground}'s windows (the run's step results, in their order);
     * {@code runStartNanos} opens the total's window (-1: the first record). A step not declared with this window is
     * measured by handing the records again through {@code replay} (not called when every step was declared).
     */
    public BackgroundResult result(List<StepResult> foreground, long runStartNanos, boolean complete, Replay replay) {
        Resume fromFirst = replay == null ? null : (position, sink) -> replay.handAgain(sink);
        return result(foreground, runStartNanos, complete, fromFirst, false);
    }

    /**
     * As {@link #result(List, long, boolean, Replay)}, the second pass starting at a resume point when the records
     * were handed with their positions ({@link #add(RequestRecord, long)}); else from the first record.
     */
    public BackgroundResult result(List<StepResult> foreground, long runStartNanos, boolean complete, Resume replay) {
        return result(foreground, runStartNanos, complete, replay, true);
    }

    private BackgroundResult result(List<StepResult> foreground, long runStartNanos, boolean complete, Resume replay,
                                    boolean resumable) {
        while (signalled < inOrder.size()) {
            signalNext();
        }
        if (!closed) {
            streamed.noMoreSteps();
            closed = true;
        }
        List<StepResult> late = new ArrayList<>();
        for (StepResult fg : foreground) {
            if (!streamed.measures(fg)) {
                late.add(fg);
            }
        }
        BackgroundAggregator again = late.isEmpty() ? null : replayed(late, replay, resumable);
        List<StepResult> steps = new ArrayList<>();
        for (StepResult fg : foreground) {
            steps.add(streamed.measures(fg) ? streamed.stepResult(fg) : again.stepResult(fg));
        }
        return new BackgroundResult(tag, rateRps, arrival, steps, streamed.total(foreground, runStartNanos, complete));
    }

    /**
     * A second aggregator over the {@code late} steps' windows, fed every record again; when {@code resumable}, from
     * the last resume point before which every record ends before the earliest of those windows starts (they touch
     * none of them: counted, not fed).
     */
    private BackgroundAggregator replayed(List<StepResult> late, Resume replay, boolean resumable) {
        Objects.requireNonNull(replay, "replay");
        BackgroundAggregator again = new BackgroundAggregator(tag, rateRps, arrival, slo, stepRatesRps)
                .keepHot(late.size());
        List<StepResult> byStart = new ArrayList<>(late);
        byStart.sort(Comparator.comparingLong(s -> s.window().stepStartNanos()));
        Set<String> labels = new HashSet<>();
        for (StepResult s : byStart) { // every window known: start them all, then finish them all
            if (labels.add(s.info().label())) {
                again.stepStarted(s.info(), s.window().stepStartNanos(), null);
            }
        }
        for (StepResult s : byStart) {
            again.stepFinished(s.info(), s.window());
        }
        again.noMoreSteps();
        long from = FIRST;
        long skipped = 0;
        if (resumable && resume != null) {
            long earliest = Long.MAX_VALUE; // the background's window in a step starts where the foreground's does
            for (StepResult s : late) {
                earliest = Math.min(earliest, s.window().startNanos());
            }
            for (int i = 0; i < resumePoints && resume[3 * i + 2] < earliest; i++) { // the latest time only grows
                from = resume[3 * i];
                skipped = resume[3 * i + 1];
            }
        }
        again.countUnfed(skipped);
        long expected = records - skipped;
        long[] handed = {0};
        replay.handAgainFrom(from, r -> {
            if (handed[0]++ < expected) { // the records of the first pass, not any appended since
                again.add(r);
            }
        });
        if (handed[0] < expected) {
            throw new IllegalStateException("the second pass over the background handed " + handed[0]
                    + " records, the first " + expected + (skipped > 0 ? " from the same point" : "")
                    + ": the run changed while it was read");
        }
        return again;
    }

    private void signalNext() {
        Declared d = inOrder.get(signalled++);
        streamed.stepStarted(d.info(), d.stepStartNanos(), null);
        streamed.stepFinished(d.info(), d.window());
    }

    /** The latest clock reading a record carries: the stream has reached at least this time. */
    private static long latestReading(RequestRecord r) {
        RequestRecord.Timing timing = r.timing();
        long l = Math.max(Math.max(timing.dispatchNanos(), timing.endNanos()), Math.max(timing.firstByteNanos(),
                Math.max(timing.firstTokenNanos(), timing.lastTokenNanos())));
        for (long t : timing.chunkNanos()) {
            l = Math.max(l, t);
        }
        return l;
    }
}
