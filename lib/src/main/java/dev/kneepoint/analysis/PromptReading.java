package dev.kneepoint.analysis;

import dev.kneepoint.analysis.Reading.Kind;
import dev.kneepoint.analysis.Reading.Status;
import dev.kneepoint.metrics.StepResult;
import tech.tablesaw.api.Table;

/**
 * "Long prompts blow up TTFT: prefill or admission." Two tests: across load (TTFT p99 grows at least
 * x2 and at least x2 more than ITL p99: requests wait to be admitted), and across prompt length when the
 * per-request table is given (TTFT p50 of the longest-prompt quarter at least x2 that of the shortest,
 * when their mean prompt lengths differ at least x2).
 */
final class PromptReading {
    static final int MIN_GROUP = 20;

    private PromptReading() {}

    static Reading of(Ladder l, int lo, int hi, Table requests) {
        StringBuilder ev = new StringBuilder();
        boolean applies = false;
        boolean anyData = false;
        if (lo >= 0) {
            StepResult a = l.steps().get(lo);
            StepResult b = l.steps().get(hi);
            if (a.ttft().count() > 0 && b.ttft().count() > 0) {
                anyData = true;
                double tg = b.ttft().p99() / a.ttft().p99();
                double ig = a.itl().count() > 0 && b.itl().count() > 0 ? b.itl().p99() / a.itl().p99() : 1;
                boolean load = tg >= Readings.BLOWS_UP && tg >= Readings.BLOWS_UP * ig;
                applies |= load;
                ev.append("across load ").append(l.label(lo)).append(" -> ").append(l.label(hi)).append(": ")
                        .append(Readings.span(l, lo, hi, "ttft", a.ttft(), b.ttft())).append(" vs itl p99 ")
                        .append(Format.ratio(ig)).append(" (blow-up means ttft >= ").append(Format.ratio(Readings.BLOWS_UP))
                        .append(" and >= ").append(Format.ratio(Readings.BLOWS_UP)).append(" the itl growth)")
                        .append(load ? ": met" : ": not met").append(". ");
            }
        }
        if (requests == null) {
            ev.append("Across prompt length: no per-request table given (KneeOptions.requests).");
        } else {
            Table ok = Query.ok(Query.measured(requests)).where(t -> t.intColumn("prompt_tokens").isNotMissing()
                    .and(t.doubleColumn("ttft_ms").isNotMissing()));
            double q25 = Query.percentile(ok, "prompt_tokens", 25);
            double q75 = Query.percentile(ok, "prompt_tokens", 75);
            Table shortP = ok.where(ok.intColumn("prompt_tokens").isLessThanOrEqualTo(q25));
            Table longP = ok.where(ok.intColumn("prompt_tokens").isGreaterThanOrEqualTo(q75));
            double shortMean = shortP.rowCount() == 0 ? Double.NaN : shortP.intColumn("prompt_tokens").mean();
            double longMean = longP.rowCount() == 0 ? Double.NaN : longP.intColumn("prompt_tokens").mean();
            if (shortP.rowCount() < MIN_GROUP || longP.rowCount() < MIN_GROUP || !(longMean >= 2 * shortMean)) {
                ev.append("Across prompt length: prompts do not vary enough (shortest quarter mean ")
                        .append(Format.num(shortMean)).append(", longest ").append(Format.num(longMean))
                        .append(" tokens; need x2 and ").append(MIN_GROUP).append(" requests each).");
            } else {
                anyData = true;
                double s50 = Query.percentile(shortP, "ttft_ms", 50);
                double l50 = Query.percentile(longP, "ttft_ms", 50);
                boolean prompt = l50 >= Readings.BLOWS_UP * s50;
                applies |= prompt;
                ev.append("Across prompt length: ttft p50 ").append(Format.num(s50)).append(" ms for prompts <= ")
                        .append(Format.num(q25)).append(" tokens (mean ").append(Format.num(shortMean)).append(") vs ")
                        .append(Format.num(l50)).append(" ms for prompts >= ").append(Format.num(q75))
                        .append(" tokens (mean ").append(Format.num(longMean)).append("), ")
                        .append(Format.ratio(l50 / s50)).append(prompt ? ": blow-up." : ": no blow-up.");
            }
        }
        if (!anyData) {
            return new Reading(Kind.PREFILL_OR_ADMISSION_BOUND, Status.INSUFFICIENT_DATA,
                    "Cannot tell whether prefill or admission limits TTFT.", ev.toString().trim());
        }
        return new Reading(Kind.PREFILL_OR_ADMISSION_BOUND, applies ? Status.APPLIES : Status.DOES_NOT_APPLY,
                applies ? "TTFT blows up with load or prompt length: prefill or queueing/admission is the limit."
                        : "TTFT does not blow up with load or prompt length.", ev.toString().trim());
    }
}
