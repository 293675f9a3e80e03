/**
 * Sweeps: a ladder of load steps against one target, configured, checked, run and recorded.
 *
 * <p>The flow is {@code Sweep -> SweepSpec -> execution}. {@link dev.kneepoint.sweep.Sweep} is the fluent builder;
 * its setters only record raw settings. {@link dev.kneepoint.sweep.Sweep#validate()} checks them all (every problem
 * at once, in one {@link IllegalArgumentException}) into an immutable {@link dev.kneepoint.sweep.SweepSpec}: the
 * resolved target, every setting, and a sealed {@link dev.kneepoint.sweep.SweepSpec.Mode} ({@code Closed},
 * {@code Open}, {@code Trace} or {@code RateSweep}) holding what only that mode needs. Validation sends nothing and
 * reads no file, and leaves the builder as it was. {@link dev.kneepoint.sweep.Sweep#run()} and
 * {@link dev.kneepoint.sweep.Sweep#start()} make the same checks, then the execution does the I/O before the first
 * step (it measures the target's tokenizer for {@code calibrate} and reads a trace file, reporting what they get
 * wrong in the same list of problems), plans the ladder from the spec, writes the manifest and runs it; a
 * {@link dev.kneepoint.sweep.SweepHandle} follows a started sweep. The plan, the manifest and the execution each
 * switch on the spec's mode once. {@link dev.kneepoint.sweep.SweepDefaults} holds the defaults the builder, the
 * command line and the notebooks share.
 */
package dev.kneepoint.sweep;
