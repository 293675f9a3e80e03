/**
 * What is measured and how it is aggregated (METRICS.md): request records and outcomes, the
 * {@link dev.kneepoint.metrics.StepAggregator} that turns a step's records into a
 * {@link dev.kneepoint.metrics.StepResult} of {@link dev.kneepoint.metrics.Distribution}s and windowed rates,
 * {@link dev.kneepoint.metrics.Slo}s for goodput, and {@link dev.kneepoint.metrics.RunAggregator} as the
 * {@link dev.kneepoint.metrics.RunListener} that does it for a whole run.
 */
package dev.kneepoint.metrics;
