package dev.kneepoint.cli.bench;

/** How a figure compares with its target. */
public enum Verdict {
    /** The figure meets its target. */
    MET,
    /** The figure misses its target (or could not be measured). */
    MISSED,
    /** The figure has a target, but this run does not decide it (e.g. a {@code --quick} size); the note says why. */
    NOT_JUDGED,
    /** The issue asks for the figure without a target. */
    NO_TARGET;

    /** The lower-case word the report uses. */
    public String word() {
        return name().toLowerCase(java.util.Locale.ROOT).replace('_', ' ');
    }
}
