/**
 * Server-config sweeps: one run per combination of server settings, each against a server started for it.
 *
 * <p>{@link dev.kneepoint.serve.ServeSweep#run} takes a {@link dev.kneepoint.serve.ServeSweep.Plan} (the swept
 * {@link dev.kneepoint.serve.ServeParam}s, whose cartesian product gives the {@link dev.kneepoint.serve.ServeConfig}s),
 * a {@link dev.kneepoint.serve.ServerLauncher} (child processes of a {@link dev.kneepoint.serve.ServeCommandLine}, or
 * in-process servers in tests) and a {@link dev.kneepoint.serve.ConfigRunner} (the command line's {@code run}). It
 * writes the sweep folder: {@code serve-sweep.json} ({@link dev.kneepoint.serve.ServeSweepIndex}), one folder per
 * configuration with the server's log and its run directory, and the comparison across configurations
 * ({@link dev.kneepoint.serve.ServeSweepTable}: {@code serve-sweep.csv}, {@code serve-sweep.png}). It sits above
 * {@code sweep}, beside {@code scenario}; only {@code cli} uses it.
 */
package dev.kneepoint.serve;
