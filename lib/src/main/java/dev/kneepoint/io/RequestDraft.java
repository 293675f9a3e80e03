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

    /** The record read: the outcome with its detail restored (the text that {@link Outcome#label()} leaves out). */
    RequestRecord build() {
        builder.outcome = builder.outcome.withDetail(detail);
        return builder.build();
    }
}
