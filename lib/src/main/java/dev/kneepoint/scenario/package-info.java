/**
 * Scenarios and procedures built on the sweep facade: the test matrix A–E ({@link dev.kneepoint.scenario.Scenarios}),
 * the nine-stage measurement procedure ({@link dev.kneepoint.scenario.Procedure}) and the soak drift analysis
 * ({@link dev.kneepoint.scenario.SoakDrift}). See {@code docs/SCENARIOS.md} for the numbers and the tests used.
 */
package dev.kneepoint.scenario;
