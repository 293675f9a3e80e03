package dev.kneepoint.sweep;

import dev.kneepoint.client.TargetConfig;
import dev.kneepoint.workload.Calibration;
import dev.kneepoint.workload.DescribedWorkload;
import dev.kneepoint.workload.MixWorkload;
import dev.kneepoint.workload.MultiTurnWorkload;
import dev.kneepoint.workload.SyntheticWorkload;
import dev.kneepoint.workload.Workloads;
import java.util.List;

/**
 * {@link Sweep#calibrate(boolean)}: the setting is checked with the others ({@link #check}); the target's tokenizer
 * is measured once by the run, before anything is timed ({@link #measure}), and the sweep's synthetic prompts are
 * built with it ({@link #synthetic}; a trace file is read with the same calibrator, in {@link SweepTrace}).
 */
final class SweepCalibration {
    private SweepCalibration() {
    }

    /** Adds a problem when calibration is asked for a workload of the user's own. */
    static void check(SweepSettings s, List<String> problems) {
        if (s.calibrate == Calibrate.ON && s.workload != null) {
            problems.add("calibrate applies to the synthetic prompts and trace files: calibrate your own workload "
                    + "when you build it (e.g. Workloads.synthetic().calibrate(target)) and drop calibrate(true)");
        }
    }

    /**
     * Measures the target's tokenizer (network). When it cannot make lengths exact: under {@link Calibrate#ON} a
     * problem is added and null returned; under {@link Calibrate#AUTO} the inexact calibration is returned, which the
     * run records but does not cut prompts with.
     */
    static Calibration measure(TargetConfig target, Calibrate mode, List<String> problems) {
        Calibration c = Calibration.of(target);
        if (!c.exact() && mode == Calibrate.ON) {
            problems.add("calibrate: no tokenizer of the target could be used, so prompt lengths cannot be exact ("
                    + c.description() + "). Drop calibrate / --calibrate to send synthetic prompts of inputTokens "
                    + "words, or point the sweep at a server with a tokenize endpoint");
            return null;
        }
        return c;
    }

    /**
     * The synthetic prompts of the spec's lengths, shared prefix, turns or mix and seed, cut to the server's tokens with
     * {@code c} (null: words of the synthetic vocabulary, uncut).
     */
    static DescribedWorkload synthetic(SweepSpec spec, Calibration c) {
        SweepSpec.Prompts p = spec.prompts();
        if (!p.mix().isEmpty()) {
            MixWorkload.Builder mix = Workloads.mix().seed(spec.seed());
            int k = 0;
            for (SweepSpec.MixClass m : p.mix()) {
                SyntheticWorkload.Builder b = Workloads.synthetic().inputTokens(m.inputTokens())
                        .outputTokens(m.outputTokens()).output(SweepPlan.outputControl(p))
                        .api(SweepPlan.promptApi(spec.target())).seed(spec.seed() + ++k).warmCache().tag(m.tag());
                mix.add(m.weight(), m.tag(), (c == null ? b : b.calibrator(c.calibrator())).build());
            }
            return mix.build();
        }
        if (p.turns() > 1) {
            MultiTurnWorkload.Builder m = Workloads.multiTurn().turns(p.turns()).userTokens(p.inputTokens())
                    .outputTokens(p.outputTokens()).output(SweepPlan.outputControl(p)).seed(spec.seed()).warmCache()
                    .tag("default");
            return (c == null ? m : m.calibrator(c.calibrator())).build();
        }
        SyntheticWorkload.Builder b = Workloads.synthetic().inputTokens(p.inputTokens()).outputTokens(p.outputTokens())
                .output(SweepPlan.outputControl(p)).api(SweepPlan.promptApi(spec.target()))
                .seed(spec.seed()).warmCache().tag("default");
        if (p.sharedPrefix() != null) {
            b.sharedPrefix(p.sharedPrefix().tokens(), p.sharedPrefix().groups());
        }
        return (c == null ? b : b.calibrator(c.calibrator())).build();
    }
}
