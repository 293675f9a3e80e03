package dev.kneepoint.metrics;

import java.util.Locale;
import java.util.Objects;

/**
 * How one request ended. Every dispatched or scheduled request ends as exactly one outcome
 * (see METRICS.md "Outcomes"); failures are data, never exceptions.
 *
 * <p>{@link #label()} is the stable text form written to {@code requests.jsonl} and
 * {@code summary.json}; {@link #parse(String)} reads it back.
 */
public sealed interface Outcome {

    /** Stable label, e.g. {@code OK}, {@code HTTP_ERROR(429)}, {@code TIMEOUT(idle)}. */
    String label();

    /** The failure class without parameters, e.g. {@code HTTP_ERROR}; {@code OK} for success. */
    default String kind() {
        String l = label();
        int p = l.indexOf('(');
        return p < 0 ? l : l.substring(0, p);
    }

    default boolean isOk() {
        return this instanceof Ok;
    }

    /**
     * True for the outcomes the client chose, which are neither successes nor failures and stay out of the failure
     * rate: {@link Cancelled} (the user stopped the run) and {@link Abandoned} (the workload gave the request up).
     */
    default boolean neutral() {
        return this instanceof Cancelled || this instanceof Abandoned;
    }

    /** Short human-readable detail (server message, exception text); empty when none. */
    default String detail() {
        return "";
    }

    /**
     * This outcome with {@code detail} in place of its own; an outcome that carries no detail
     * ({@link Ok}, {@link Timeout}, {@link Empty}, ...) is returned as it is.
     */
    default Outcome withDetail(String detail) {
        return switch (this) {
            case HttpError h -> new HttpError(h.status(), detail);
            case ConnectionError c -> new ConnectionError(detail);
            case StreamError s -> new StreamError(detail);
            case Truncated t -> new Truncated(detail);
            case Abandoned a -> new Abandoned(detail);
            default -> this;
        };
    }

    /** Which timeout fired. */
    enum TimeoutKind {
        CONNECT, FIRST_TOKEN, IDLE, TOTAL;

        public String label() {
            return name().toLowerCase(Locale.ROOT);
        }
    }

    record Ok() implements Outcome {
        public String label() { return "OK"; }
    }

    record HttpError(int status, String detail) implements Outcome {
        public HttpError {
            detail = Objects.requireNonNullElse(detail, "");
        }
        public String label() { return "HTTP_ERROR(" + status + ")"; }
    }

    record Timeout(TimeoutKind timeoutKind) implements Outcome {
        public Timeout {
            Objects.requireNonNull(timeoutKind, "timeoutKind");
        }
        public String label() { return "TIMEOUT(" + timeoutKind.label() + ")"; }
    }

    record ConnectionError(String detail) implements Outcome {
        public ConnectionError {
            detail = Objects.requireNonNullElse(detail, "");
        }
        public String label() { return "CONNECTION_ERROR"; }
    }

    /** An error object inside the stream, or a malformed event. */
    record StreamError(String detail) implements Outcome {
        public StreamError {
            detail = Objects.requireNonNullElse(detail, "");
        }
        public String label() { return "STREAM_ERROR"; }
    }

    /** The stream ended normally with zero tokens. */
    record Empty() implements Outcome {
        public String label() { return "EMPTY"; }
    }

    /**
     * The stream ended without a finish reason or {@code [DONE]}; {@code detail} says why when the client knows
     * (e.g. a 200 answer that was not an event stream: its content type and first bytes).
     */
    record Truncated(String detail) implements Outcome {
        public Truncated {
            detail = Objects.requireNonNullElse(detail, "");
        }

        /** Truncated with no detail. */
        public Truncated() {
            this("");
        }

        public String label() { return "TRUNCATED"; }
    }

    /**
     * Stopped on the user's word while scheduled or in flight (an interrupt, {@code stop()}, {@code close()}): neutral,
     * reported apart from failures.
     */
    record Cancelled() implements Outcome {
        public String label() { return "CANCELLED"; }
    }

    /**
     * Still in flight when its step's drain timeout ran out after the step stopped issuing: the server never finished
     * it (a hung or stalled server, or a timeout longer than the drain). A failure, unlike {@link Cancelled}.
     */
    record Unfinished() implements Outcome {
        public String label() { return "UNFINISHED"; }
    }

    /**
     * Closed by the client mid-request on the workload's word, as a user who gives up would
     * ({@code Sweep.abandon}, {@code --cancel-rate}): not a failure, reported apart with what it received; the server
     * freeing its slot shows in the other requests. {@code detail} says when it was given up.
     */
    record Abandoned(String detail) implements Outcome {
        public Abandoned {
            detail = Objects.requireNonNullElse(detail, "");
        }
        public String label() { return "ABANDONED"; }
    }

    /** Open loop with an in-flight cap and the drop policy: never sent, always counted. */
    record Dropped() implements Outcome {
        public String label() { return "DROPPED"; }
    }

    Ok OK = new Ok();
    Empty EMPTY = new Empty();
    Truncated TRUNCATED = new Truncated();
    Cancelled CANCELLED = new Cancelled();
    Unfinished UNFINISHED = new Unfinished();
    Dropped DROPPED = new Dropped();

    /**
     * Parses a label written by {@link #label()}; the detail text is not part of the label.
     *
     * @throws IllegalArgumentException naming the label when it is not one of the known forms
     */
    static Outcome parse(String label) {
        Objects.requireNonNull(label, "label");
        String kind = label;
        String arg = null;
        int p = label.indexOf('(');
        if (p >= 0 && label.endsWith(")")) {
            kind = label.substring(0, p);
            arg = label.substring(p + 1, label.length() - 1);
        }
        try {
            return switch (kind) {
                case "OK" -> OK;
                case "HTTP_ERROR" -> new HttpError(Integer.parseInt(arg), "");
                case "TIMEOUT" -> new Timeout(TimeoutKind.valueOf(arg.toUpperCase(Locale.ROOT)));
                case "CONNECTION_ERROR" -> new ConnectionError("");
                case "STREAM_ERROR" -> new StreamError("");
                case "EMPTY" -> EMPTY;
                case "TRUNCATED" -> TRUNCATED;
                case "CANCELLED" -> CANCELLED;
                case "ABANDONED" -> new Abandoned("");
                case "UNFINISHED" -> UNFINISHED;
                case "DROPPED" -> DROPPED;
                default -> throw new IllegalArgumentException("unknown outcome label");
            };
        } catch (RuntimeException e) {
            throw new IllegalArgumentException("Unknown outcome label '" + label
                    + "': expected OK, HTTP_ERROR(status), TIMEOUT(connect|first_token|idle|total), CONNECTION_ERROR,"
                    + " STREAM_ERROR, EMPTY, TRUNCATED, CANCELLED, ABANDONED, UNFINISHED or DROPPED", e);
        }
    }
}
