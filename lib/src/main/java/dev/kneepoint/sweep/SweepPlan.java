package dev.kneepoint.sweep;

import dev.kneepoint.client.ApiKind;
import dev.kneepoint.load.ArrivalPlan;
import dev.kneepoint.load.ClosedLoopStep;
import dev.kneepoint.load.OpenLoopStep;
import dev.kneepoint.load.StepSequence;
import dev.kneepoint.request.RequestSpec;
import dev.kneepoint.request.Workload;
import dev.kneepoint.workload.OutputControl;
import dev.kneepoint.workload.SyntheticPrompts;
import java.util.List;
import java.util.Map;

/** What a {@link Sweep} will run: its ladder of steps and the workload each request comes from. */
final class SweepPlan {
    private SweepPlan() {
    }

    /** The ladder: one closed-loop step per concurrency level, or one open-loop step per rate. */
    static StepSequence ladder(Sweep s) {
        StepSequence l;
        if (s.sweepsRates()) {
            return SweepRates.probes(s).withPause(s.pause);
        }
        if (s.replaysTrace()) {
            if (s.trace == null) {
                throw new IllegalArgumentException("the trace could not be read");
            }
            l = SweepTrace.ladder(s, s.trace);
        } else if (!s.concurrency.isEmpty()) {
            l = StepSequence.concurrency(s.concurrency, closedStep(s, s.concurrency.get(0)));
        } else {
            l = StepSequence.rates(s.rates, openStep(s, s.rates.get(0)));
        }
        if (s.baseline) {
            l = l.withBaseline();
        }
        return l.withPause(s.pause);
    }

    /** A closed-loop step of {@code users} with the sweep's warm-up, duration, think time, drain and count bound. */
    static ClosedLoopStep closedStep(Sweep s, int users) {
        ClosedLoopStep.Builder b = ClosedLoopStep.builder().concurrency(users)
                .warmup(s.warmup).duration(s.stepDuration).thinkTime(s.thinkTime).drainTimeout(s.drainTimeout);
        if (s.maxRequestsPerStep > 0) {
            b.maxRequests(s.maxRequestsPerStep);
        }
        return b.build();
    }

    /** An open-loop step at {@code rate} with the sweep's arrival, warm-up, duration, drain, bound and cap. */
    static OpenLoopStep openStep(Sweep s, double rate) {
        return openStepBuilder(s).arrival(arrivalPlan(s, rate)).warmup(s.warmup).duration(s.stepDuration).build();
    }

    /** An open-loop step builder with the sweep's drain timeout, request bound and in-flight cap. */
    static OpenLoopStep.Builder openStepBuilder(Sweep s) {
        OpenLoopStep.Builder b = OpenLoopStep.builder().drainTimeout(s.drainTimeout);
        if (s.maxRequestsPerStep > 0) {
            b.maxRequests(s.maxRequestsPerStep);
        }
        if (s.maxInFlight > 0) {
            b.maxInFlight(s.maxInFlight, s.capPolicy);
        }
        return b;
    }

    /** How generated prompts ask for their output length: exact ({@code ignore_eos}) unless the sweep says not. */
    static OutputControl outputControl(Sweep s) {
        return s.ignoreEos ? OutputControl.exact(OutputControl.Server.VLLM) : OutputControl.upTo(OutputControl.Server.GENERIC);
    }

    /** How generated prompts are counted and sent for the sweep's target: as chat messages or a plain prompt. */
    static ApiKind promptApi(Sweep s) {
        return s.target.apiKind().isChat() ? ApiKind.CHAT : ApiKind.COMPLETIONS;
    }

    static ArrivalPlan arrivalPlan(Sweep s, double rate) {
        return switch (s.arrival) {
            case "constant" -> ArrivalPlan.constant(rate);
            case "gamma" -> ArrivalPlan.gamma(rate, s.burstCv, s.seed);
            default -> ArrivalPlan.poisson(rate, s.seed);
        };
    }

    /** The user's workload, or synthetic prompts of the sweep's input/output lengths and seed. */
    static Workload workload(Sweep s) {
        if (s.workload != null) {
            return s.workload;
        }
        if (s.calibratedSynthetic != null) {
            return s.calibratedSynthetic;
        }
        SyntheticPrompts prompts = new SyntheticPrompts(s.seed);
        Map<String, Object> extra = s.ignoreEos ? Map.of("ignore_eos", true) : Map.of();
        int in = s.inputTokens;
        int out = s.outputTokens;
        return index -> new RequestSpec(prompts.prompt(index, in), List.of(), out, in, extra, "default");
    }
}
