package dev.kneepoint.serve;

/** Why one configuration of a server-config sweep was not measured; the message names the problem and the fix. */
public final class ServeException extends RuntimeException {
    public ServeException(String message) {
        super(message);
    }
}
