/**
 * What each request sends: {@link dev.kneepoint.workload.Workloads} (synthetic, shared-prefix,
 * multi-turn, dataset and mixed workloads), {@link dev.kneepoint.workload.Lengths} (input and output
 * length distributions), {@link dev.kneepoint.workload.TokenCounter} and
 * {@link dev.kneepoint.workload.PromptCalibrator} (exact prompt lengths against the server's own
 * tokenizer, achieved vs requested in a {@link dev.kneepoint.workload.CalibrationReport}),
 * {@link dev.kneepoint.workload.OutputControl} (exact output lengths per server kind) and
 * {@link dev.kneepoint.workload.LengthCheck} (did the server do what was asked). Every workload is
 * deterministic by request index; text is salted per run unless a warm prefix cache is wanted.
 */
package dev.kneepoint.workload;
