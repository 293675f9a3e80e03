package dev.kneepoint.sim;

import java.util.Arrays;
import java.util.Locale;
import java.util.Optional;

/**
 * The failures the simulator can inject, to rehearse a client's failure accounting.
 * The lowercase {@link #wireName()} is what the {@code X-Sim-Fault} request header takes.
 * Mid-stream faults fire after half of the request's output tokens (at least one) were sent.
 */
public enum FaultKind {
    /** Answer 429 with an OpenAI-style error body, before any streaming. */
    HTTP_429,
    /** Answer 500 with an error body. */
    HTTP_500,
    /** Answer 503 with an error body. */
    HTTP_503,
    /** Send RST (SO_LINGER 0) on the connection mid-stream. */
    CONNECTION_RESET,
    /** One stream pauses for the fault duration mid-stream (tokens pile up, then burst). */
    STREAM_STALL,
    /** The whole engine pauses for the fault duration (added to one step). */
    ENGINE_STALL,
    /** Response headers are held back for the fault duration. */
    SLOW_FIRST_BYTE,
    /** One SSE event mid-stream carries invalid JSON; the stream then continues normally. */
    MALFORMED_EVENT,
    /** Mid-stream an {@code {"error":{...}}} event, then {@code data: [DONE]}, no finish reason. */
    ERROR_IN_STREAM,
    /** Mid-stream the response ends cleanly (terminal chunk) with neither finish reason nor {@code [DONE]}. */
    NO_DONE,
    /** Admission rejected (503) because the waiting queue is full; from {@code maxWaiting}, not injected. */
    QUEUE_FULL;

    /** Lowercase name as used in the {@code X-Sim-Fault} header and in metric labels. */
    public String wireName() {
        return name().toLowerCase(Locale.ROOT);
    }

    /** HTTP status of the pre-stream error faults, 0 for the others. */
    public int httpStatus() {
        return switch (this) {
            case HTTP_429 -> 429;
            case HTTP_500 -> 500;
            case HTTP_503, QUEUE_FULL -> 503;
            default -> 0;
        };
    }

    /** Whether the fault takes a duration (stalls, slow first byte). */
    public boolean hasDuration() {
        return this == STREAM_STALL || this == ENGINE_STALL || this == SLOW_FIRST_BYTE;
    }

    /** Parses a wire name, case-insensitive. */
    public static Optional<FaultKind> fromWireName(String name) {
        return Arrays.stream(values()).filter(k -> k.wireName().equalsIgnoreCase(name.trim())).findFirst();
    }
}
