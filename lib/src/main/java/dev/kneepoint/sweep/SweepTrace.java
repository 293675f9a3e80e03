package dev.kneepoint.sweep;

import dev.kneepoint.load.ArrivalPlan;
import dev.kneepoint.load.OpenLoopStep;
import dev.kneepoint.load.StepSequence;
import dev.kneepoint.sweep.SweepSpec.Mode;
import dev.kneepoint.workload.Calibration;
import dev.kneepoint.workload.DatasetException;
import dev.kneepoint.workload.TraceWorkload;
import dev.kneepoint.workload.Workloads;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Locale;

/** A sweep that replays a trace: its checks, reading its file, and its steps (see {@link Sweep#trace}). */
final class SweepTrace {
    /** A whole-trace step's window ends this long after the trace's last instant, so that the last is planned. */
    static final long TAIL_NANOS = 1_000_000L;
    private SweepTrace() {
    }

    /** Adds every problem of the sweep's trace settings (the file itself is read by the run, see {@link #read}). */
    static void check(SweepSettings s, List<String> problems) {
        if (!s.concurrency.isEmpty()) {
            problems.add("a trace is replayed open loop, at its own instants: drop the concurrency levels (give "
                    + "rates instead to replay the trace at those nominal rates)");
        }
        if (!(s.timeScale > 0) || Double.isInfinite(s.timeScale)) {
            problems.add("timeScale must be a finite number > 0 (2 = twice as fast), got " + s.timeScale);
        }
        if (!s.rates.isEmpty() && s.timeScale != 1.0) {
            problems.add("give a timeScale or rates for a trace, not both: each rate already sets the trace's speed");
        }
    }

    /**
     * Reads the trace file as a workload of the spec's seed, API kind and output setting, cut to the server's
     * tokens with {@code calibration} (null: not calibrated); null, with the reason added to {@code problems},
     * when it cannot be read or a line is bad.
     */
    static TraceWorkload read(SweepSpec spec, SweepSpec.TraceSource.File file, Calibration calibration,
                              List<String> problems) {
        try {
            var b = Workloads.trace(file.path()).blockSize(file.blockSize()).seed(spec.seed())
                    .output(SweepPlan.outputControl(spec.prompts())).api(SweepPlan.promptApi(spec.target()));
            return (calibration != null ? b.calibrator(calibration.calibrator()) : b).build();
        } catch (DatasetException | IllegalArgumentException e) {
            problems.add("trace: " + e.getMessage());
            return null;
        }
    }

    /** The problem when the spec's warm-up covers a whole step of the trace, else null. */
    static String warmupCoversTrace(SweepSpec spec, Mode.Trace mode, TraceWorkload w) {
        Duration warm = spec.steps().warmup();
        if (warm == null) {
            return null; // reported with the other settings
        }
        for (ArrivalPlan plan : plans(mode, w)) {
            long end = plan.traceSpanNanos() + TAIL_NANOS;
            if (warm.toNanos() >= end) {
                return String.format(Locale.ROOT, "warmup %s covers the whole trace (%.3f s at %s): shorten it",
                        warm, plan.traceSpanNanos() / 1e9, plan.label());
            }
        }
        return null;
    }

    /** One plan per step: the trace at the time scale, or time-scaled to each rate. */
    private static List<ArrivalPlan> plans(Mode.Trace mode, TraceWorkload w) {
        ArrivalPlan base = ArrivalPlan.trace(w.trace().offsetsNanos(), mode.timeScale());
        return mode.ratesRps().isEmpty() ? List.of(base) : mode.ratesRps().stream().map(base::withRate).toList();
    }

    /** The trace's steps, each with the trace workload indexed by plan position. */
    static StepSequence ladder(SweepSpec spec, Mode.Trace mode, TraceWorkload w) {
        Duration warm = spec.steps().warmup();
        List<ArrivalPlan> plans = plans(mode, w);
        List<OpenLoopStep> steps = new ArrayList<>();
        for (int k = 0; k < plans.size(); k++) {
            ArrivalPlan plan = plans.get(k);
            Duration duration = !mode.wholeTrace() ? spec.steps().duration()
                    : Duration.ofNanos(Math.max(1, plan.traceSpanNanos() + TAIL_NANOS - warm.toNanos()));
            // Each step of a ladder its own text (salt + k): no step finds the previous one's prompts in the cache.
            TraceWorkload stepWorkload = k == 0 ? w : w.withSalt(w.salt() + k);
            OpenLoopStep.Builder b = SweepPlan.openStepBuilder(spec, mode.cap()).arrival(plan)
                    .workload(SweepPlan.withTools(spec, stepWorkload))
                    .warmup(warm).duration(duration);
            if (!mode.ratesRps().isEmpty()) {
                b.label("rate=" + plain(mode.ratesRps().get(k)));
            }
            steps.add(b.build());
        }
        return StepSequence.of(steps);
    }

    private static String plain(double v) {
        return java.math.BigDecimal.valueOf(v).stripTrailingZeros().toPlainString();
    }
}
