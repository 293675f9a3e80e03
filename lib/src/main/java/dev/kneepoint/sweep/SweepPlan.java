package dev.kneepoint.sweep;

import dev.kneepoint.client.ApiKind;
import dev.kneepoint.client.TargetConfig;
import dev.kneepoint.load.ArrivalPlan;
import dev.kneepoint.load.ClosedLoopStep;
import dev.kneepoint.load.OpenLoopStep;
import dev.kneepoint.load.StepSequence;
import dev.kneepoint.request.RequestSpec;
import dev.kneepoint.request.Workload;
import dev.kneepoint.sweep.SweepSpec.Mode;
import dev.kneepoint.workload.LengthDistribution;
import dev.kneepoint.workload.OutputControl;
import dev.kneepoint.workload.PoolingBatch;
import dev.kneepoint.workload.SyntheticPrompts;
import dev.kneepoint.workload.StructuredOutput;
import dev.kneepoint.workload.ToolUse;
import dev.kneepoint.workload.TraceWorkload;
import java.time.Duration;
import java.util.List;
import java.util.Map;
import java.util.Objects;

/** What a {@link SweepSpec} will run: its ladder of steps and the workload each request comes from. */
final class SweepPlan {
    private SweepPlan() {
    }

    /**
     * The ladder: one closed-loop step per concurrency level, one open-loop step per rate, the trace's steps (each
     * level {@link SweepSpec.Steps#repeat() repeated}, trial after trial), or a
     * rate sweep's two probes (its open steps are planned during the run, by {@link SweepRates#plan}), or an SLO
     * search's first probe (the others planned by {@link SweepSloSearch#plan}).
     *
     * @param trace the trace being replayed (read by the run, or the one given); null unless the mode is a trace
     */
    static StepSequence ladder(SweepSpec spec, TraceWorkload trace) {
        // Trials come after the baseline, which is measured once and made from the first level as planned.
        int trials = spec.steps().repeat();
        StepSequence l = switch (spec.mode()) {
            case Mode.Closed c -> baseline(c.baseline(), spec.prompts().shape().batchLadder() ? batchLadder(spec, c)
                    : StepSequence.concurrency(c.concurrency(), closedStep(spec, c.concurrency().get(0), c.thinkTime(),
                    c.rampUp()))).withTrials(trials);
            case Mode.Open o -> baseline(o.baseline(),
                    StepSequence.rates(o.ratesRps(), openStep(spec, o.ratesRps().get(0), o.arrival(), o.cap())))
                    .withTrials(trials);
            case Mode.Trace t -> baseline(t.baseline(), SweepTrace.ladder(spec, t, Objects.requireNonNull(trace, "trace")))
                    .withTrials(trials);
            case Mode.RateSweep r -> SweepRates.probes(spec, r);
            case Mode.SloSearch s -> SweepSloSearch.probes(spec, s);
        };
        return l.withPause(spec.steps().pause());
    }

    /**
     * A batch-size ladder: one closed-loop step per size at the one concurrency level, labelled {@code b=N}, each
     * sending batches of its size made from the run's workload.
     */
    private static StepSequence batchLadder(SweepSpec spec, Mode.Closed c) {
        boolean query = spec.target().apiKind().takesQuery();
        ClosedLoopStep template = closedStep(spec, c.concurrency().get(0), c.thinkTime(), c.rampUp());
        return StepSequence.of(spec.prompts().shape().batch().stream().map(size -> template.toBuilder()
                .label("b=" + size).requests(w -> PoolingBatch.of(w, size, query)).build()).toList());
    }

    private static StepSequence baseline(boolean on, StepSequence l) {
        return on ? l.withBaseline() : l;
    }

    /** A closed-loop step of {@code users} with the spec's warm-up, duration, drain and count bound. */
    static ClosedLoopStep closedStep(SweepSpec spec, int users, Duration thinkTime, Duration rampUp) {
        SweepSpec.Steps s = spec.steps();
        ClosedLoopStep.Builder b = ClosedLoopStep.builder().concurrency(users)
                .warmup(s.warmup()).duration(s.duration()).thinkTime(thinkTime).rampUp(rampUp).drainTimeout(s.drainTimeout());
        if (s.maxRequests() > 0) {
            b.maxRequests(s.maxRequests());
        }
        return b.build();
    }

    /** An open-loop step at {@code rate} with the arrival, cap and the spec's warm-up, duration, drain and bound. */
    static OpenLoopStep openStep(SweepSpec spec, double rate, SweepSpec.Arrival arrival, SweepSpec.InFlightCap cap) {
        return openStepBuilder(spec, cap).arrival(arrivalPlan(arrival, spec.seed(), rate))
                .warmup(spec.steps().warmup()).duration(spec.steps().duration()).build();
    }

    /** An open-loop step builder with the spec's drain timeout and request bound, and the in-flight cap. */
    static OpenLoopStep.Builder openStepBuilder(SweepSpec spec, SweepSpec.InFlightCap cap) {
        OpenLoopStep.Builder b = OpenLoopStep.builder().drainTimeout(spec.steps().drainTimeout());
        if (spec.steps().maxRequests() > 0) {
            b.maxRequests(spec.steps().maxRequests());
        }
        if (cap.bounded()) {
            b.maxInFlight(cap.max(), cap.policy());
        }
        return b;
    }

    /** How generated prompts ask for their output length: exact ({@code ignore_eos}) unless the sweep says not. */
    static OutputControl outputControl(SweepSpec.Prompts prompts) {
        return OutputControl.forIgnoreEos(prompts.ignoreEos());
    }

    /** How generated prompts are counted and sent for the target: as chat messages or a plain prompt. */
    static ApiKind promptApi(TargetConfig target) {
        return target.apiKind().isChat() ? ApiKind.CHAT : ApiKind.COMPLETIONS;
    }

    static ArrivalPlan arrivalPlan(SweepSpec.Arrival arrival, long seed, double rate) {
        return switch (arrival.process()) {
            case "constant" -> ArrivalPlan.constant(rate);
            case "gamma" -> ArrivalPlan.gamma(rate, arrival.burstinessCv(), seed);
            default -> ArrivalPlan.poisson(rate, seed);
        };
    }

    /**
     * The user's workload, the calibrated synthetic prompts, or synthetic prompts of the spec's lengths and seed;
     * with the spec's tools on every request.
     */
    static Workload workload(SweepSpec spec, Workload calibratedSynthetic) {
        SweepSpec.Prompts p = spec.prompts();
        return withTools(spec, p.workload() != null ? p.workload()
                : calibratedSynthetic != null ? calibratedSynthetic : synthetic(spec));
    }

    /**
     * {@code workload} with the spec's tools, structured output and media on every request, or for a pooling API in
     * batches of the spec's one size (a batch-size ladder's steps batch it each their own way); itself when none.
     */
    static Workload withTools(SweepSpec spec, Workload workload) {
        SweepSpec.Shape shape = spec.prompts().shape();
        return shape.models() == null ? shaped(spec, workload) : shape.models().applyTo(shaped(spec, workload));
    }

    private static Workload shaped(SweepSpec spec, Workload workload) {
        SweepSpec.Shape shape = spec.prompts().shape();
        if (spec.target().apiKind().isPooling()) {
            return shape.batchLadder() ? workload
                    : PoolingBatch.of(workload, shape.batch().get(0), spec.target().apiKind().takesQuery());
        }
        ToolUse tools = shape.tools();
        StructuredOutput structured = shape.structured();
        Workload w = tools == null ? workload : tools.applyTo(workload);
        w = structured == null ? w : structured.applyTo(w);
        return shape.media() == null ? w : shape.media().seed(spec.seed()).applyTo(w);
    }

    private static Workload synthetic(SweepSpec spec) {
        SweepSpec.Prompts p = spec.prompts();
        if (p.sharedPrefix() != null || p.turns() > 1 || !p.mix().isEmpty()) {
            return SweepCalibration.synthetic(spec, null);
        }
        SyntheticPrompts prompts = new SyntheticPrompts(spec.seed());
        Map<String, Object> extra = p.ignoreEos() ? Map.of("ignore_eos", true) : Map.of();
        LengthDistribution in = p.inputTokens();
        LengthDistribution out = p.outputTokens();
        long seed = spec.seed();
        return index -> {
            int words = in.sample(seed, index);
            return new RequestSpec(prompts.prompt(index, words), List.of(), out.sample(seed ^ LengthDistribution.OUTPUT_STREAM, index),
                    words, extra, "default");
        };
    }
}
