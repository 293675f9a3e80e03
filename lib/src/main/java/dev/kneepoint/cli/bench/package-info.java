/**
 * {@code kneepoint bench --all}: runs the client, simulator, kernel and analysis benches one after the other,
 * each in its own process, parses their output into {@link dev.kneepoint.cli.bench.Figure}s judged against the
 * issues' targets, and writes results.md and results.json with the machine described
 * ({@link dev.kneepoint.cli.bench.BenchAll}, {@link dev.kneepoint.cli.bench.BenchOutputs},
 * {@link dev.kneepoint.cli.bench.BenchReport}). Also home of {@link dev.kneepoint.cli.bench.LoadBenchmark}, the
 * analysis part's bench.
 */
package dev.kneepoint.cli.bench;
