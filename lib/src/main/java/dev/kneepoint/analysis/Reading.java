package dev.kneepoint.analysis;

import java.util.Objects;

/**
 * One plain-language reading of a ladder, following the source article's heuristics, with the
 * numbers it rests on.
 *
 * @param kind     which heuristic
 * @param status   whether it applies
 * @param finding  the reading in one sentence
 * @param evidence the numbers behind it (or why there are none)
 */
public record Reading(Kind kind, Status status, String finding, String evidence) {

    public Reading {
        Objects.requireNonNull(kind, "kind");
        Objects.requireNonNull(status, "status");
        Objects.requireNonNull(finding, "finding");
        Objects.requireNonNull(evidence, "evidence");
    }

    /** The heuristics. */
    public enum Kind {
        /** TTFT stays low while tokens stutter: decode is the limit. */
        DECODE_BOUND,
        /** Long prompts or queueing blow up TTFT: prefill or admission is the limit. */
        PREFILL_OR_ADMISSION_BOUND,
        /** ITL p99 far above its p50 and growing with load: new prompts' prefill interrupts running decodes. */
        PREFILL_STALLS_DECODE,
        /**
         * From the server's own gauges at the top step: requests queue behind full batch slots, full KV cache
         * (preemptions) or the engine's per-step admission budget; needs telemetry.
         */
        SERVER_LIMIT,
        /** Throughput still rises but p99 explodes: past the usable zone. */
        PAST_USABLE_ZONE,
        /**
         * Poor results without the server being busy: scheduler, CPU or client path. Judges only steps the client
         * self-check did not flag; flagged ones are {@link #CLIENT_BOUND}'s, so a step is never reported twice.
         */
        CLIENT_OR_SCHEDULER_PATH,
        /** Failures only under sustained load: stability, not compute. */
        STABILITY,
        /** The load generator itself (schedule lag, CPU, GC, probe delay) limited some step: its numbers are not the server's. */
        CLIENT_BOUND
    }

    /** Whether a reading applies. */
    public enum Status {
        APPLIES, DOES_NOT_APPLY, INSUFFICIENT_DATA
    }

    @Override
    public String toString() {
        return kind + " [" + status + "] " + finding + " Evidence: " + evidence;
    }
}
