package dev.kneepoint.io;

import com.fasterxml.jackson.databind.JsonNode;
import dev.kneepoint.metrics.RunResult;
import java.nio.file.Path;
import java.util.List;
import java.util.Optional;

/**
 * A run directory read back by {@link RunLoader#stream}: everything {@link LoadedRun} holds except the
 * records, which went to the caller's consumer one at a time.
 *
 * @param path              the run's folder
 * @param manifest          {@code manifest.json} as a tree
 * @param records           how many well-formed records were read (and passed to the consumer)
 * @param problems          malformed lines (not the truncated last line), with their 1-based line numbers
 * @param truncatedLastLine true when the file ended in an unterminated, unparsable line (a crash mid-write)
 * @param result            the run re-aggregated from the records and {@code steps.jsonl};
 *                          {@code complete} is false unless the manifest says the run closed cleanly
 * @param summary           {@code summary.json} as written by the run, when present
 */
public record StreamedRun(Path path, JsonNode manifest, long records, List<LoadedRun.LineProblem> problems,
                          boolean truncatedLastLine, RunResult result, Optional<JsonNode> summary) {

    public StreamedRun {
        problems = List.copyOf(problems);
    }

    /** True when the run closed cleanly. */
    public boolean complete() {
        return result.complete();
    }
}
