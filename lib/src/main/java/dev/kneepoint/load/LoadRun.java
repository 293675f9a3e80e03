package dev.kneepoint.load;

import dev.kneepoint.metrics.Problems;
import dev.kneepoint.metrics.RunClock;
import dev.kneepoint.metrics.RunListener;
import dev.kneepoint.metrics.StepInfo;
import dev.kneepoint.metrics.StepWindow;
import dev.kneepoint.request.RequestSender;
import dev.kneepoint.request.Workload;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.atomic.AtomicBoolean;
import java.util.function.BooleanSupplier;

/**
 * Runs a {@link StepSequence} (or a single step) against a {@link RequestSender}, a {@link Workload} and a
 * {@link RunListener} on a {@link RunClock}. Two ways: {@link #run()} blocks the calling thread;
 * {@link #start()} drives the run on one platform thread it owns and returns a {@link RunHandle}. A
 * LoadRun runs once.
 *
 * <p>Stopping: interrupting the thread running the run (or {@link RunHandle#stop()}) stops it within
 * about a second: no new requests; requests in flight are cancelled through their
 * {@link dev.kneepoint.request.Cancellation} and end as {@code CANCELLED}; open-loop requests whose
 * planned time had come but which were not yet fired end as {@code CANCELLED} too, later planned ones
 * are not recorded; the step still gets {@code stepFinished} with {@code completed = false}; everything
 * already measured is kept.
 *
 * <p>Records: every request a step dispatched has exactly one record, handed to the listener before the step's
 * {@code stepFinished} (a background stream's: before the run returns), and none arrives later. A request whose
 * thread does not end within the stop's grace (0.4 s, then an interrupt and 0.4 s more) is recorded
 * {@code CANCELLED} by the thread running the run, with what the sender published so far
 * ({@link dev.kneepoint.request.Cancellation#onProgress}); its thread, when it ends, records nothing
 * (docs/RELIABILITY.md "Every dispatched request has exactly one record").
 *
 * <p>Threads: each closed-loop user and each open-loop request runs on its own virtual thread; each
 * open-loop step owns one platform scheduler thread. Normally all of them end before the step's
 * {@code stepFinished}; a request thread that ignores its cancellation (a starved machine, a transport stuck
 * in I/O) may outlive it, sending and recording nothing more. There is no shared pool.
 *
 * <p>Background: with {@link Builder#background}, a {@link BackgroundStream} runs underneath the whole ladder on
 * its own scheduler thread (started before the first step, stopped after the last, then drained), or, with
 * per-step rates, during each step at that step's rate; its records go to the same listener, tagged, and a stop
 * or interrupt cancels it with the run.
 *
 * <p>Adaptive ladders: a {@link StepGate} answering {@link GateDecision.Extend} appends steps to this run's copy of
 * the ladder (the {@link StepSequence} itself is immutable); they run after the remaining ones, under the same pause and
 * gate, and progress events count them in the total from then on. Refused (the run fails with an
 * {@link IllegalStateException}) with per-step background rates, or when a new label repeats one of the run's.
 *
 * <p>Listener threading: {@code stepStarted}, {@code stepFinished}, the {@link StepGate} and the
 * {@link LoadProgress} are called on the thread running the run; {@code requestFinished} on request
 * threads (and, for open-loop requests due but never fired at a stop, on the scheduler thread), concurrently. If
 * {@code requestFinished} (or {@link Workload#next}) throws, that request is lost, the step runs to its
 * end and the run then fails with an {@link IllegalStateException}.
 */
public final class LoadRun {
    private final RequestSender sender;
    private final Workload workload;
    private final RunListener listener;
    private final RunClock clock;
    private final StepSequence ladder;
    private final LoadProgress progress;
    private final BackgroundStream background;
    private final AtomicBoolean used = new AtomicBoolean();

    private LoadRun(Builder b) {
        this.sender = b.sender;
        this.workload = b.workload;
        this.listener = b.listener;
        this.clock = b.clock != null ? b.clock : RunClock.system();
        this.ladder = b.ladder;
        this.progress = b.progress;
        this.background = b.background;
    }

    public static Builder builder() {
        return new Builder();
    }

    public StepSequence ladder() {
        return ladder;
    }

    public RunClock clock() {
        return clock;
    }

    /** The background stream running underneath the ladder, if any. */
    public java.util.Optional<BackgroundStream> background() {
        return java.util.Optional.ofNullable(background);
    }

    /**
     * Runs the whole ladder on the calling thread and returns how it went. If the thread is interrupted,
     * the run stops (see the class comment), the result says {@code INTERRUPTED} and the thread's
     * interrupt status is set on return.
     *
     * @throws IllegalStateException if this LoadRun already ran, or the listener failed
     */
    public LoadResult run() {
        claim();
        return drive(() -> false);
    }

    /** Starts the run on a new platform thread named {@code kneepoint-run} and returns its handle. */
    public RunHandle start() {
        claim();
        return RunHandle.start(this);
    }

    private void claim() {
        if (!used.compareAndSet(false, true)) {
            throw new IllegalStateException("this LoadRun has already run; build a new one");
        }
    }

    /** The ladder loop; {@code stopRequested} tells a stop() apart from a plain interrupt. */
    LoadResult drive(BooleanSupplier stopRequested) {
        ClientMonitor.prepare(); // its one-off start-up cost must not land in the first step's dispatch lag
        RunContext context = new RunContext(sender, workload, listener, clock);
        BackgroundRunner bg = background == null ? null
                : new BackgroundRunner(background, context.withWorkload(background.workload()));
        if (bg != null) {
            bg.start();
        }
        LoadResult result;
        try {
            result = ladder(context, stopRequested, bg);
        } catch (RuntimeException e) {
            if (bg != null) {
                bg.finish(false);
            }
            throw e;
        }
        if (bg != null) {
            bg.finish(result.ending() == LoadResult.Ending.COMPLETED || result.ending() == LoadResult.Ending.GATE_STOPPED);
            context.rethrowFailure();
        }
        progress.runEnded(result);
        return result;
    }

    private LoadResult ladder(RunContext context, BooleanSupplier stopRequested, BackgroundRunner bg) {
        List<Step> steps = new ArrayList<>(ladder.steps()); // a gate's Extend appends to it
        java.util.Set<String> labels = new java.util.HashSet<>(steps.stream().map(Step::label).toList());
        List<ExecutedStep> done = new ArrayList<>();
        LoadResult.Ending ending = LoadResult.Ending.COMPLETED;
        String reason = null; // set when the run stops early; "all N steps completed" otherwise
        for (int k = 0; k < steps.size(); k++) {
            if ((k > 0 && !pause()) || Thread.currentThread().isInterrupted() || stopRequested.getAsBoolean()) {
                ending = null;
                break;
            }
            StepInfo info = steps.get(k).info(k);
            progress.stepStarting(info, steps.size());
            if (bg != null) {
                bg.stepStarting(k);
            }
            ExecutedStep executed;
            try {
                executed = StepRunners.run(steps.get(k), info, context);
            } finally {
                if (bg != null) {
                    bg.stepEnded(k);
                }
            }
            StepWindow window = executed.window();
            context.rethrowFailure();
            done.add(executed);
            if (!window.completed()) {
                progress.stepEnded(executed, GateDecision.stop("step interrupted"));
                ending = null;
                break;
            }
            GateDecision decision = ladder.gate().evaluate(info, window);
            progress.stepEnded(executed, decision);
            if (decision instanceof GateDecision.Stop stop) {
                ending = LoadResult.Ending.GATE_STOPPED;
                reason = "stopped after step '" + info.label() + "': " + stop.reason();
                break;
            }
            if (decision instanceof GateDecision.Extend extend) {
                extend(steps, labels, extend, info);
            }
        }
        if (ending == null) {
            boolean stopped = stopRequested.getAsBoolean();
            ending = stopped ? LoadResult.Ending.STOPPED : LoadResult.Ending.INTERRUPTED;
            reason = (stopped ? "stopped by RunHandle" : "interrupted") + " after " + done.size() + " of "
                    + steps.size() + " steps";
        }
        return new LoadResult(done, ending, reason != null ? reason : "all " + steps.size() + " steps completed");
    }

    /** Appends a gate's steps to the run's list, after checking they can run here. */
    private void extend(List<Step> steps, java.util.Set<String> labels, GateDecision.Extend extend, StepInfo after) {
        if (background != null && background.perStep()) {
            throw new IllegalStateException("the gate after step '" + after.label() + "' added " + extend.more().size()
                    + " steps, but the background stream has one rate per planned step (" + background.stepRatesRps()
                    + "): use a steady background (one rate for the whole run) with an adaptive ladder");
        }
        for (Step s : extend.more()) {
            if (!labels.add(s.label())) {
                throw new IllegalStateException("the gate after step '" + after.label() + "' added a step labelled '"
                        + s.label() + "', a label the run already has: step labels must be unique");
            }
        }
        steps.addAll(extend.more());
    }

    /** The pause between steps; false if interrupted (the interrupt status is set). */
    private boolean pause() {
        if (ladder.pause().isZero()) {
            return true;
        }
        progress.pausing(ladder.pause());
        try {
            Thread.sleep(ladder.pause());
            return true;
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            return false;
        }
    }

    /** Builds a {@link LoadRun}; {@link #build()} reports every missing or conflicting setting at once. */
    public static final class Builder {
        private RequestSender sender;
        private Workload workload;
        private RunListener listener;
        private RunClock clock;
        private StepSequence ladder;
        private boolean ladderTwice;
        private LoadProgress progress = LoadProgress.NONE;
        private BackgroundStream background;

        private Builder() {}

        /** Sends and measures each request (required). */
        public Builder sender(RequestSender requestSender) { this.sender = requestSender; return this; }
        /** What each request sends (required). */
        public Builder workload(Workload requestWorkload) { this.workload = requestWorkload; return this; }
        /** Receives every record and step boundary (required). */
        public Builder listener(RunListener runListener) { this.listener = runListener; return this; }
        /** The run clock shared with the listener's consumers (default {@link RunClock#system()}). */
        public Builder clock(RunClock runClock) { this.clock = runClock; return this; }
        /** The steps to run (this or {@link #step}, required). */
        public Builder ladder(StepSequence stepLadder) { ladderTwice |= ladder != null; this.ladder = stepLadder; return this; }
        /** Runs a single step (same as {@code ladder(StepSequence.single(step))}). */
        public Builder step(Step single) { return ladder(single == null ? null : StepSequence.single(single)); }
        /** Live progress callbacks (default none). */
        public Builder progress(LoadProgress runProgress) { this.progress = runProgress; return this; }
        /** A steady open-loop stream underneath the whole ladder (default none); see {@link BackgroundStream}. */
        public Builder background(BackgroundStream stream) { this.background = stream; return this; }

        public LoadRun build() {
            Problems problems = new Problems()
                    .check(sender != null, "a RequestSender is required")
                    .check(workload != null, "a Workload is required")
                    .check(listener != null, "a RunListener is required (it receives every measurement)");
            if (ladder == null) {
                problems.add("a ladder or a step is required");
            } else if (ladderTwice) {
                problems.add("give either one ladder or one step, not several");
            }
            problems.check(progress != null, "progress must not be null (use LoadProgress.NONE)");
            if (background != null && background.perStep() && ladder != null
                    && background.stepRatesRps().size() != ladder.steps().size()) {
                problems.add("the background stream has " + background.stepRatesRps().size() + " per-step rates but the"
                        + " ladder has " + ladder.steps().size() + " steps: give one rate per step (0 for none)");
            }
            problems.throwIfAny("load run");
            return new LoadRun(this);
        }
    }
}
