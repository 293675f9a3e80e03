package dev.kneepoint.workload;

/** A token count could not be obtained (server unreachable, no {@code /tokenize}, unexpected reply). */
public final class TokenizerException extends RuntimeException {
    public TokenizerException(String message) {
        super(message);
    }

    public TokenizerException(String message, Throwable cause) {
        super(message, cause);
    }
}
