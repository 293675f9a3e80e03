package dev.kneepoint.cli;

import dev.kneepoint.metrics.RunResult;

/** What the exit code of a command says (README "Exit codes"); scripts and notebooks may rely on them. */
final class ExitCodes {
    /** Measured: every step completed requests (failures, if any, are in the results). */
    static final int MEASURED = 0;
    /** A check or SLO gate failed ({@code check}: a requirement does not hold; the measurement itself is fine). */
    static final int GATE_FAILED = 1;
    /** Bad input, or a target that failed the preflight: nothing was measured. */
    static final int BAD_INPUT = 2;
    /** Incomplete: interrupted or stopped early; the run directory holds what was measured. */
    static final int INCOMPLETE = 3;
    /** Measured, but some step had no successful request. */
    static final int NO_SUCCESS = 4;

    /** The footer of a command's help that lists them. */
    static final String HELP = "%nExit codes: 0 measured; 1 a check or SLO gate failed; 2 bad input or a target that "
            + "failed the preflight; 3 incomplete (interrupted, stopped early); 4 measured, but some step had no "
            + "successful request.";

    private ExitCodes() {}

    /** The exit code of a finished (or stopped) run. */
    static int of(RunResult run) {
        if (!run.complete()) {
            return INCOMPLETE;
        }
        return run.steps().stream().anyMatch(s -> s.counts().requestsOk() == 0) ? NO_SUCCESS : MEASURED;
    }
}
