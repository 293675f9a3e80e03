package dev.kneepoint.io;

import com.fasterxml.jackson.databind.JsonNode;
import dev.kneepoint.metrics.RequestRecord;
import dev.kneepoint.metrics.RunResult;
import java.nio.file.Path;
import java.util.List;
import java.util.Optional;

/**
 * A run directory read back by {@link RunLoader}.
 *
 * @param path              the run's folder
 * @param manifest          {@code manifest.json} as a tree
 * @param records           every well-formed line of {@code requests.jsonl}, in file order
 * @param problems          malformed lines (not the truncated last line), with their 1-based line numbers
 * @param truncatedLastLine true when the file ended in an unterminated, unparsable line (a crash mid-write)
 * @param result            the run re-aggregated from {@code records} and {@code steps.jsonl};
 *                          {@code complete} is false unless the manifest says the run closed cleanly
 * @param summary           {@code summary.json} as written by the run, when present
 */
public record LoadedRun(Path path, JsonNode manifest, List<RequestRecord> records, List<LineProblem> problems,
                        boolean truncatedLastLine, RunResult result, Optional<JsonNode> summary) {

    public LoadedRun {
        records = List.copyOf(records);
        problems = List.copyOf(problems);
    }

    /**
     * The run's telemetry (server /metrics, host, GPU samples on the run clock), read from
     * {@code telemetry.jsonl} on each call; empty for a run without it.
     */
    public dev.kneepoint.telemetry.TelemetryData telemetry() {
        return dev.kneepoint.telemetry.TelemetryLoader.load(path);
    }

    /** True when the run closed cleanly. */
    public boolean complete() {
        return result.complete();
    }

    /**
     * A line of {@code requests.jsonl} that could not be read.
     *
     * @param lineNumber 1-based line number
     * @param message    what was wrong
     */
    public record LineProblem(long lineNumber, String message) {}
}
