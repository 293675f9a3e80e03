/**
 * Telemetry beside the load, on the run's clock: {@link dev.kneepoint.telemetry.Telemetry} (settings, from
 * {@code Sweep.telemetry(...)}), {@link dev.kneepoint.telemetry.TelemetryRecorder} (the samplers on one
 * scheduler thread, writing {@code telemetry.jsonl}), {@link dev.kneepoint.telemetry.PromText} (a pure Prometheus
 * text parser), {@link dev.kneepoint.telemetry.ServerMetrics} (vLLM, SGLang, TGI, llama.cpp names onto common
 * ones), {@link dev.kneepoint.telemetry.GpuMetrics} (nvidia-smi CSV, DCGM), and
 * {@link dev.kneepoint.telemetry.TelemetryLoader} / {@link dev.kneepoint.telemetry.TelemetryData} to read it
 * back. Tables and the step join are in {@code analysis.TelemetryTables}; overlays in
 * {@code plot.TelemetryOverlays}. See docs/TELEMETRY.md.
 */
package dev.kneepoint.telemetry;
