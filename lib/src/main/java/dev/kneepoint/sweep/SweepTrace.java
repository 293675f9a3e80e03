package dev.kneepoint.sweep;

import dev.kneepoint.load.ArrivalPlan;
import dev.kneepoint.load.OpenLoopStep;
import dev.kneepoint.load.StepSequence;
import dev.kneepoint.workload.DatasetException;
import dev.kneepoint.workload.TraceWorkload;
import dev.kneepoint.workload.Workloads;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Locale;

/** A {@link Sweep} that replays a trace: its checks, its workload and its steps (see {@link Sweep#trace}). */
final class SweepTrace {
    /** A whole-trace step's window ends this long after the trace's last instant, so that the last is planned. */
    static final long TAIL_NANOS = 1_000_000L;
    private SweepTrace() {
    }

    /** Adds every problem of the sweep's trace settings, and reads the trace file (resolving {@code s.trace}). */
    static void check(Sweep s, List<String> problems) {
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
        if (s.traceFile != null) {
            s.trace = null;
            try {
                s.trace = read(s);
            } catch (DatasetException | IllegalArgumentException e) {
                problems.add("trace: " + e.getMessage());
            }
        }
        if (s.trace != null && problems.isEmpty()) {
            Duration warm = warmup(s);
            for (ArrivalPlan plan : plans(s, s.trace)) {
                long end = plan.traceSpanNanos() + TAIL_NANOS;
                if (warm.toNanos() >= end) {
                    problems.add(String.format(Locale.ROOT, "warmup %s covers the whole trace (%.3f s at %s): "
                            + "shorten it", warm, plan.traceSpanNanos() / 1e9, plan.label()));
                    break;
                }
            }
        }
    }

    /** The trace file as a workload of the sweep's seed, API kind and output setting. */
    private static TraceWorkload read(Sweep s) {
        var b = Workloads.trace(s.traceFile).blockSize(s.traceBlockSize).seed(s.seed)
                .output(SweepPlan.outputControl(s)).api(SweepPlan.promptApi(s));
        return (s.calibration != null ? b.calibrator(s.calibration.calibrator()) : b).build();
    }

    /** Warm-up of a trace step: the sweep's when set, else none (the trace's first requests count). */
    static Duration warmup(Sweep s) {
        return s.warmupSet ? s.warmup : Duration.ZERO;
    }

    /** One plan per step: the trace at the time scale, or time-scaled to each rate. */
    private static List<ArrivalPlan> plans(Sweep s, TraceWorkload w) {
        ArrivalPlan base = ArrivalPlan.trace(w.trace().offsetsNanos(), s.timeScale);
        return s.rates.isEmpty() ? List.of(base) : s.rates.stream().map(base::withRate).toList();
    }

    /** The trace's steps, each with the trace workload indexed by plan position. */
    static StepSequence ladder(Sweep s, TraceWorkload w) {
        Duration warm = warmup(s);
        List<ArrivalPlan> plans = plans(s, w);
        List<OpenLoopStep> steps = new ArrayList<>();
        for (int k = 0; k < plans.size(); k++) {
            ArrivalPlan plan = plans.get(k);
            Duration duration = s.stepDurationSet ? s.stepDuration
                    : Duration.ofNanos(Math.max(1, plan.traceSpanNanos() + TAIL_NANOS - warm.toNanos()));
            // Each step of a ladder its own text (salt + k): no step finds the previous one's prompts in the cache.
            TraceWorkload stepWorkload = k == 0 ? w : w.withSalt(w.salt() + k);
            OpenLoopStep.Builder b = SweepPlan.openStepBuilder(s).arrival(plan).workload(stepWorkload).warmup(warm)
                    .duration(duration);
            if (!s.rates.isEmpty()) {
                b.label("rate=" + plain(s.rates.get(k)));
            }
            steps.add(b.build());
        }
        return StepSequence.of(steps);
    }

    private static String plain(double v) {
        return java.math.BigDecimal.valueOf(v).stripTrailingZeros().toPlainString();
    }
}
