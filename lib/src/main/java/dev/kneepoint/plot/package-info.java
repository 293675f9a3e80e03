/**
 * XChart charts of runs in three tiers: one-liners ({@link dev.kneepoint.plot.Plots}), builders
 * ({@link dev.kneepoint.plot.KneePlot}, {@link dev.kneepoint.plot.LoadPlot}, ...), and encoders to PNG/SVG
 * ({@link dev.kneepoint.plot.ChartFiles}).
 */
package dev.kneepoint.plot;
