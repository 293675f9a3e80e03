package dev.kneepoint.metrics;

import java.util.Locale;

/** Where a request's token counts came from, in METRICS.md's order of preference. */
public enum TokenSource {
    /** {@code usage.completion_tokens} reported by the server at the end of the stream. */
    SERVER_USAGE,
    /** Per-chunk counts from cumulative usage or server-native counters. */
    SERVER_CONTINUOUS,
    /** A client-side tokenizer matching the model. */
    TOKENIZER,
    /** One token per content event: last resort, flagged in reports. */
    EVENTS;

    /** The snake_case name used in files. */
    public String label() {
        return name().toLowerCase(Locale.ROOT);
    }

    public static TokenSource parse(String label) {
        return valueOf(label.toUpperCase(Locale.ROOT));
    }
}
