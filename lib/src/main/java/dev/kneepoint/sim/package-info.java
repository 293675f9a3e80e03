/**
 * The embedded OpenAI-compatible LLM server simulator: {@link dev.kneepoint.sim.Simulator} (start, url,
 * stats, close), {@link dev.kneepoint.sim.SimConfig} (validated builder and presets),
 * {@link dev.kneepoint.sim.FaultConfig} / {@link dev.kneepoint.sim.FaultKind} (injected failures),
 * {@link dev.kneepoint.sim.Tokenizer} and {@link dev.kneepoint.sim.ChatTemplate} (exact token counts),
 * {@link dev.kneepoint.sim.StepCost} (the step-duration model). Everything else is internal.
 * See docs/SIMULATOR.md.
 */
package dev.kneepoint.sim;
