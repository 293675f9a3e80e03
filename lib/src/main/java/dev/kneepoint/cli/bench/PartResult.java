package dev.kneepoint.cli.bench;

import java.util.List;

/**
 * What one part of {@code kneepoint bench --all} gave.
 *
 * @param part       the part
 * @param status     ran and parsed, failed, or skipped
 * @param reason     why it failed or was skipped (the fix included); empty when it ran
 * @param settings   the sizes it ran with, in words (e.g. {@code "10 s per scenario after 3 s warm-up"})
 * @param figures    its figures (those parsed before a failure, too)
 * @param loadBefore load average just before the part started
 * @param loadAfter  load average just after it ended
 * @param wallS      wall seconds the part took (its JVM start-ups included)
 * @param commands   the command lines it ran, one per child process
 * @param logs       the files (relative to the results folder) holding the children's output
 */
record PartResult(Part part, Status status, String reason, String settings, List<Figure> figures, LoadAverage loadBefore,
        LoadAverage loadAfter, double wallS, List<String> commands, List<String> logs) {
    /** Outcome of a part. */
    public enum Status {
        /** Ran, exited 0 and its output parsed. */
        OK,
        /** Ran but exited non-zero, timed out, or printed something the parser did not understand. */
        FAILED,
        /** Not run; {@link #reason} says why and how to make it run. */
        SKIPPED
    }

    public PartResult {
        figures = List.copyOf(figures);
        commands = List.copyOf(commands);
        logs = List.copyOf(logs);
        if (settings == null) {
            throw new IllegalArgumentException("a part's settings may be empty, not null");
        }
        if (reason == null || (status != Status.OK && reason.isBlank())) {
            throw new IllegalArgumentException("a " + status + " part needs a reason");
        }
    }

    /** A part that was not run. */
    public static PartResult skipped(Part part, String reason, String settings, LoadAverage now) {
        return new PartResult(part, Status.SKIPPED, reason, settings, List.of(), now, now, 0, List.of(), List.of());
    }
}
