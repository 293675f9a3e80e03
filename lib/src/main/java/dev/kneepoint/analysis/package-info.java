/**
 * Analysis of runs: Tablesaw result tables ({@link dev.kneepoint.analysis.Tables}, query verbs in
 * {@link dev.kneepoint.analysis.Query}), the knee and the efficient zone ({@link dev.kneepoint.analysis.Knee}),
 * goodput under any SLO ({@link dev.kneepoint.analysis.Goodput}) and run comparison with bootstrap
 * confidence intervals ({@link dev.kneepoint.analysis.Compare}). Methods are defined in docs/ANALYSIS.md and, for
 * comparisons, docs/COMPARE.md.
 */
package dev.kneepoint.analysis;
