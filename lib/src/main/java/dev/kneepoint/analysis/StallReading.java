package dev.kneepoint.analysis;

import dev.kneepoint.analysis.Reading.Kind;
import dev.kneepoint.analysis.Reading.Status;
import dev.kneepoint.metrics.Distribution;
import java.util.ArrayList;
import java.util.List;

/**
 * "Prefill stalls decode": a step whose ITL p99 is far above its ITL p50, by more than the lowest step's own
 * spread, has streams that stop for a while mid-answer, which is what a new prompt's prefill does when the engine
 * runs it between the decode steps of streams in flight. Chunked prefill (a smaller {@code max_num_batched_tokens})
 * or prefill/decode disaggregation are the remedies; TPOT and ITL p50 hide it.
 */
final class StallReading {
    /** ITL p99 / p50 at or above this is a stall ... */
    static final double STALLS = 3.0;
    /** ... when it is also at least this multiple of the lowest step's ratio (inherent jitter grows no worse). */
    static final double GROWS = 2.0;

    private StallReading() {}

    static Reading of(LoadCurve l, List<Integer> data) {
        List<Integer> withItl = new ArrayList<>();
        for (int i : data) {
            Distribution itl = l.steps().get(i).latency().itl();
            if (itl.count() > 0 && itl.p50() > 0) {
                withItl.add(i);
            }
        }
        if (withItl.size() < 2) {
            return new Reading(Kind.PREFILL_STALLS_DECODE, Status.INSUFFICIENT_DATA,
                    "Cannot compare the ITL tail across load.", "fewer than 2 steps with ITL samples (streamed, "
                    + "at least 2 output tokens)");
        }
        int lo = withItl.get(0);
        int worst = lo;
        StringBuilder ev = new StringBuilder("itl p99 / p50 per step:");
        for (int i : withItl) {
            ev.append(' ').append(l.label(i)).append(' ').append(Format.num(ratio(l, i))).append(" (")
                    .append(Format.num(itl(l, i).p99())).append('/').append(Format.num(itl(l, i).p50())).append(" ms)");
            if (ratio(l, i) > ratio(l, worst)) {
                worst = i;
            }
        }
        ev.append("; a stall means >= ").append(Format.ratio(STALLS)).append(" and >= ").append(Format.ratio(GROWS))
                .append(" the lowest step's ratio (").append(Format.num(ratio(l, lo))).append(").");
        boolean applies = worst != lo && ratio(l, worst) >= STALLS && ratio(l, worst) >= GROWS * ratio(l, lo);
        if (!applies) {
            return new Reading(Kind.PREFILL_STALLS_DECODE, Status.DOES_NOT_APPLY,
                    "Streams do not stall mid-answer: the ITL tail stays close to its median as load rises.",
                    ev.toString());
        }
        return new Reading(Kind.PREFILL_STALLS_DECODE, Status.APPLIES,
                "Prefill stalls decode at " + l.label(worst) + ": ITL p99 is " + Format.ratio(ratio(l, worst))
                        + " its p50 (" + Format.num(itl(l, worst).p99()) + " vs " + Format.num(itl(l, worst).p50())
                        + " ms), so streams in flight stop while new prompts are prefilled. Chunked prefill (a smaller "
                        + "max_num_batched_tokens) or prefill/decode disaggregation smooth it.", ev.toString());
    }

    private static Distribution itl(LoadCurve l, int i) {
        return l.steps().get(i).latency().itl();
    }

    private static double ratio(LoadCurve l, int i) {
        return itl(l, i).p99() / itl(l, i).p50();
    }
}
