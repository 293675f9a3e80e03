package dev.kneepoint.telemetry;

import java.util.Objects;

/**
 * What a sampler reported about itself: that it started, that its source is absent or unavailable, the
 * first error of each kind, and a closing count. Written to {@code telemetry.jsonl} beside the samples.
 *
 * @param tNanos  run-clock nanoseconds
 * @param source  {@code server}, {@code host} or {@code gpu}
 * @param status  {@code started}, {@code absent} (nothing to sample, e.g. no GPU), {@code unavailable} (the
 *                endpoint answered that it has no metrics, e.g. HTTP 404), {@code error} (first failure of a
 *                kind; later ones are only counted) or {@code stopped}
 * @param reason  a sentence for people (the URL, the error, counts)
 */
public record TelemetryStatus(long tNanos, String source, String status, String reason) {
    public TelemetryStatus {
        Objects.requireNonNull(source, "source");
        Objects.requireNonNull(status, "status");
        reason = reason == null ? "" : reason;
    }
}
