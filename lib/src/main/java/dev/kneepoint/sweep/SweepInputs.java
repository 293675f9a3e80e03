package dev.kneepoint.sweep;

import dev.kneepoint.client.Preflight;
import dev.kneepoint.workload.Calibration;
import dev.kneepoint.workload.DescribedWorkload;
import dev.kneepoint.workload.TraceWorkload;

/**
 * What a run measured and read before its first step ({@link SweepExecution#prepare}), beside its {@link SweepSpec}.
 *
 * @param calibration         the target's tokenizer as measured unless {@code calibrate} is off (inexact: none was
 *                            found, and prompts were not cut), else null
 * @param calibratedSynthetic the synthetic prompts cut with it (null for a trace, the user's workload, or no calibration)
 * @param trace               the trace replayed (read from its file, or the one given), else null
 * @param preflight           what the check before the first step saw, null when it was off
 * @param server              who the server said it is ({@code ServerIdentity}), null when the preflight was off
 * @param prefixCacheReset    the server's prefix-cache reset endpoint when the sweep resets it, else null
 */
record SweepInputs(Calibration calibration, DescribedWorkload calibratedSynthetic, TraceWorkload trace,
                   Preflight.Result preflight, java.util.Map<String, Object> server, String prefixCacheReset) {
}
