package dev.kneepoint.client;

/**
 * The target failed the check before the first step ({@link Preflight}): nothing was measured. The message names
 * the cause and the fix. An {@link IllegalArgumentException}: the target given cannot be measured (the CLI exits 2).
 */
public final class PreflightException extends IllegalArgumentException {
    public PreflightException(String message) {
        super("preflight failed: " + message + " (--no-preflight, Sweep.preflight(false), skips this check)");
    }
}
