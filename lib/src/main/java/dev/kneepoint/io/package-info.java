/**
 * The run directory on disk: {@link dev.kneepoint.io.RunDirectory} writes it while a run goes
 * ({@code manifest.json}, {@code requests.jsonl}, {@code steps.jsonl}, {@code summary.json}, {@code *.hlog}),
 * {@link dev.kneepoint.io.RunLoader} reads it back and re-aggregates (into a list, or streaming one record at a
 * time for large runs: {@link dev.kneepoint.io.RunLoader#stream}), {@link dev.kneepoint.io.SummaryJson} and
 * {@link dev.kneepoint.io.RequestJson} define the two versioned formats.
 */
package dev.kneepoint.io;
