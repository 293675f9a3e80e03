package dev.kneepoint.io;

import dev.kneepoint.metrics.Outcome;
import dev.kneepoint.metrics.RequestRecord;

/**
 * A {@code requests.jsonl} record being read, which each {@link RequestField} puts its value into: the record's
 * builder (which starts with every field's absent value), and the outcome's detail, which joins the outcome when
 * the record is built. Used by the three readers.
 */
final class RequestDraft {
    final RequestRecord.Builder builder = new RequestRecord.Builder();
    String detail = "";

    /** The record read: the outcome with its detail restored. */
    RequestRecord build() {
        builder.outcome = withDetail(builder.outcome, detail);
        return builder.build();
    }

    /** Restores the detail text that {@link Outcome#label()} leaves out. */
    private static Outcome withDetail(Outcome o, String detail) {
        return switch (o) {
            case Outcome.HttpError h -> new Outcome.HttpError(h.status(), detail);
            case Outcome.ConnectionError c -> new Outcome.ConnectionError(detail);
            case Outcome.StreamError s -> new Outcome.StreamError(detail);
            case Outcome.Truncated t -> new Outcome.Truncated(detail);
            default -> o;
        };
    }
}
