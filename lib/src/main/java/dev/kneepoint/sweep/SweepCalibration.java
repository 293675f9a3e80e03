package dev.kneepoint.sweep;

import dev.kneepoint.workload.Calibration;
import dev.kneepoint.workload.Workloads;
import java.util.List;

/**
 * {@link Sweep#calibrate(boolean)}: measures the target's tokenizer once, before anything is timed, and builds the
 * sweep's synthetic prompts with it (a trace file is read with the same calibrator, in {@link SweepTrace}).
 */
final class SweepCalibration {
    private SweepCalibration() {
    }

    /** Resolves the calibration when it is asked for; adds a problem when it cannot be exact. */
    static void check(Sweep s, List<String> problems) {
        s.calibration = null;
        s.calibratedSynthetic = null;
        if (!s.calibrate) {
            return;
        }
        if (s.workload != null) {
            problems.add("calibrate applies to the synthetic prompts and trace files: calibrate your own workload "
                    + "when you build it (e.g. Workloads.synthetic().calibrate(target)) and drop calibrate(true)");
            return;
        }
        if (!problems.isEmpty()) {
            return; // no target to measure (an unknown api): that problem is reported already
        }
        Calibration c = Calibration.of(s.target);
        if (!c.exact()) {
            problems.add("calibrate: no tokenizer of the target could be used, so prompt lengths cannot be exact ("
                    + c.description() + "). Drop calibrate / --calibrate to send synthetic prompts of inputTokens "
                    + "words, or point the sweep at a server with a tokenize endpoint");
            return;
        }
        s.calibration = c;
        if (s.replaysTrace() || s.inputTokens < 1 || s.outputTokens < 1) {
            return; // a trace is calibrated as it is read; bad lengths are reported by the sweep's checks
        }
        s.calibratedSynthetic = Workloads.synthetic().inputTokens(s.inputTokens).outputTokens(s.outputTokens)
                .output(SweepPlan.outputControl(s)).api(SweepPlan.promptApi(s))
                .calibrator(c.calibrator()).seed(s.seed).warmCache().tag("default").build();
    }
}
