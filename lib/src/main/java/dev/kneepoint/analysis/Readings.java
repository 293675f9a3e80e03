package dev.kneepoint.analysis;

import dev.kneepoint.analysis.Reading.Kind;
import dev.kneepoint.analysis.Reading.Status;
import dev.kneepoint.metrics.ClientCheck;
import dev.kneepoint.metrics.Distribution;
import dev.kneepoint.metrics.StepResult;
import dev.kneepoint.telemetry.TelemetryData;
import java.util.ArrayList;
import java.util.List;
import tech.tablesaw.api.Table;

/**
 * The source article's heuristics for reading a ladder, each with a stated, numeric criterion
 * (thresholds are the constants below; docs/ANALYSIS.md explains them).
 */
final class Readings {
    /** "Stable" TTFT: p99 grows by at most this factor across the efficient zone. */
    static final double STABLE = 1.5;
    /** "Growing" decode time: TPOT p50 grows by at least this factor across the efficient zone. */
    static final double GROWS = 1.5;
    /** TTFT "blows up": grows by at least this factor, and by this factor more than ITL. */
    static final double BLOWS_UP = 2.0;
    /** p99 "explodes" beyond the knee: at least this factor over the knee's. */
    static final double EXPLODES = 2.0;
    /** Client-side lag worth a warning: p99 schedule lag above this many ms ... */
    static final double LAG_FLOOR_MS = 10;
    /** ... and above this fraction of the step's TTFT p50. */
    static final double LAG_FRACTION = 0.1;
    /** A failing step: at least this failure rate. */
    static final double FAILING = 0.01;
    /** Failures "under sustained load": at least this share in the later half of their step's window. */
    static final double LATE_SHARE = 0.75;

    private Readings() {}

    static List<Reading> of(LoadCurve l, int knee, Table requests, TelemetryData telemetry) {
        List<Integer> data = new ArrayList<>();
        for (int i = 0; i < l.size(); i++) {
            if (l.steps().get(i).counts().requestsOk() > 0) {
                data.add(i);
            }
        }
        List<Reading> out = new ArrayList<>();
        if (data.size() < 2) {
            String why = "fewer than 2 steps with OK requests";
            out.add(new Reading(Kind.DECODE_BOUND, Status.INSUFFICIENT_DATA, "Cannot compare across load.", why));
            out.add(PromptReading.of(l, -1, -1, requests));
        } else {
            int lo = data.get(0);
            int top = zoneTop(data, knee);
            out.add(decode(l, lo, top));
            out.add(PromptReading.of(l, lo, top, requests));
        }
        out.add(StallReading.of(l, data));
        out.add(ServerLimitReading.of(l, data, telemetry));
        out.add(pastUsable(l, knee));
        out.add(clientPath(l, telemetry));
        out.add(StabilityReading.of(l, knee, requests));
        out.add(ClientReading.of(l));
        return out;
    }

    /** {@code "name pP a -> b ms (xR)"}. */
    static String span(String name, double percentile, Distribution a, Distribution b) {
        double x = a.percentile(percentile);
        double y = b.percentile(percentile);
        return name + " p" + Format.percentile(percentile) + " " + Format.num(x) + " -> " + Format.num(y) + " ms ("
                + Format.ratio(y / x) + ")";
    }

    /**
     * The top of the range the load-shape readings compare: the highest step with data at or below the knee (past
     * it, queueing grows every latency and says nothing about the engine), every step when there is no knee, and
     * at least the second step with data.
     */
    static int zoneTop(List<Integer> data, int knee) {
        int top = data.get(data.size() - 1);
        if (knee >= 0) {
            for (int i : data) {
                if (i <= knee) {
                    top = i;
                }
            }
        }
        return Math.max(top, data.get(1));
    }

    /** "Where the zone ends" in evidence: the knee, or the ladder's top when there is none. */
    static String range(LoadCurve l, int lo, int top) {
        return "within the efficient range " + l.label(lo) + " -> " + l.label(top);
    }

    private static Reading decode(LoadCurve l, int lo, int hi) {
        StepResult.Latency a = l.steps().get(lo).latency();
        StepResult.Latency b = l.steps().get(hi).latency();
        if (a.tpot().count() == 0 || b.tpot().count() == 0 || a.ttft().count() == 0 || b.ttft().count() == 0) {
            return new Reading(Kind.DECODE_BOUND, Status.INSUFFICIENT_DATA,
                    "No TPOT samples (non-streamed run, or one-token answers).",
                    "tpot counts " + a.tpot().count() + " and " + b.tpot().count());
        }
        double tg = b.ttft().p99() / a.ttft().p99();
        double dg = b.tpot().p50() / a.tpot().p50();
        String ev = range(l, lo, hi) + ": " + span("ttft", 99, a.ttft(), b.ttft()) + ", stable means <= "
                + Format.ratio(STABLE) + "; " + span("tpot", 50, a.tpot(), b.tpot()) + ", growing means >= "
                + Format.ratio(GROWS) + ".";
        boolean applies = tg <= STABLE && dg >= GROWS;
        return new Reading(Kind.DECODE_BOUND, applies ? Status.APPLIES : Status.DOES_NOT_APPLY,
                applies ? "TTFT stays low while every token takes longer as load rises: decode (token scheduling, "
                        + "memory bandwidth, batching) is the limit."
                        : "Not decode-bound by this test: TTFT does not stay flat while TPOT grows.", ev);
    }

    private static Reading pastUsable(LoadCurve l, int knee) {
        if (l.size() < 3) {
            return new Reading(Kind.PAST_USABLE_ZONE, Status.INSUFFICIENT_DATA,
                    "Too few steps for a knee verdict.", l.size() + " step(s); a knee needs at least 3");
        }
        if (knee < 0) {
            return new Reading(Kind.PAST_USABLE_ZONE, Status.DOES_NOT_APPLY,
                    "No knee: the ladder did not pass the usable zone.", "no persistent e < 1 in the elasticity table");
        }
        int worst = -1;
        double worstRatio = 0;
        for (int j = knee + 1; j < l.size(); j++) {
            double tr = l.throughput()[j] / l.throughput()[knee];
            double lr = l.latency()[j] / l.latency()[knee];
            if (tr > 1 && lr >= EXPLODES && lr > worstRatio) {
                worst = j;
                worstRatio = lr;
            }
        }
        String name = "p" + Format.percentile(l.percentile()) + " " + l.metric().baseName();
        if (worst < 0) {
            return new Reading(Kind.PAST_USABLE_ZONE, Status.DOES_NOT_APPLY,
                    "Beyond the knee throughput does not rise while " + name + " explodes.",
                    "no step above " + l.label(knee) + " has higher throughput and " + name + " >= "
                            + Format.ratio(EXPLODES) + " the knee's");
        }
        return new Reading(Kind.PAST_USABLE_ZONE, Status.APPLIES,
                "Throughput still rises above the knee but the tail explodes: loads above " + l.label(knee)
                        + " are past the usable zone.",
                "from " + l.label(knee) + " to " + l.label(worst) + ": throughput "
                        + Format.num(l.throughput()[knee]) + " -> " + Format.num(l.throughput()[worst]) + " ("
                        + Format.ratio(l.throughput()[worst] / l.throughput()[knee]) + "), " + name + " "
                        + Format.num(l.latency()[knee]) + " -> " + Format.num(l.latency()[worst]) + " ms ("
                        + Format.ratio(worstRatio) + ", exploding means >= " + Format.ratio(EXPLODES) + ").");
    }

    /** The 'low GPU use' half of the client-path reading: GPU utilisation at step {@code i}, when sampled. */
    private static String gpuUse(LoadCurve l, int i, TelemetryData telemetry) {
        if (i < 0 || telemetry.isEmpty()) {
            return "No GPU telemetry in this analysis, so the 'low GPU use' half cannot be checked; ";
        }
        List<String> use = new ArrayList<>();
        TelemetryTables.perStep(l.steps(), telemetry).forEach((name, values) -> {
            if (name.startsWith("gpu:gpu_util_pct") && name.endsWith("_mean") && !Double.isNaN(values[i])) {
                use.add(name.substring(0, name.length() - "_mean".length()) + " " + Format.num(values[i]) + "%");
            }
        });
        return use.isEmpty() ? "No GPU utilisation sampled in the step's window, so the 'low GPU use' half cannot be "
                + "checked; " : "GPU utilisation at " + l.label(i) + ": " + String.join(", ", use) + " (mean); ";
    }

    /**
     * Late dispatch the client self-check did not flag. A step the self-check flagged is the {@link ClientReading}'s
     * ({@code CLIENT_BOUND}) and is not judged again here, so one step is never reported twice.
     */
    private static Reading clientPath(LoadCurve l, TelemetryData telemetry) {
        int worst = -1;
        double worstLag = -1;
        List<String> flagged = new ArrayList<>();
        boolean anyLag = false;
        for (int i = 0; i < l.size(); i++) {
            StepResult s = l.steps().get(i);
            if (s.latency().scheduleLag().count() == 0) {
                continue;
            }
            anyLag = true;
            if (s.clientBound()) {
                flagged.add(l.label(i));
                continue;
            }
            double lag = s.clientCheck().value(ClientCheck.LAG); // a closed loop's first wave left out, as there
            if (lag > worstLag) {
                worst = i;
                worstLag = lag;
            }
        }
        String gpu = gpuUse(l, worst, telemetry);
        String skipped = flagged.isEmpty() ? "" : " Not judged again here: " + String.join(", ", flagged)
                + " (flagged by the client self-check: see the CLIENT_BOUND reading).";
        if (!anyLag) {
            return new Reading(Kind.CLIENT_OR_SCHEDULER_PATH, Status.INSUFFICIENT_DATA,
                    "No schedule-lag samples.", gpu + "no dispatched requests.");
        }
        if (worst < 0) {
            return new Reading(Kind.CLIENT_OR_SCHEDULER_PATH, Status.DOES_NOT_APPLY,
                    "Every step with dispatch lag is already reported as client-bound (CLIENT_BOUND reading); "
                            + "nothing further on the client path.", gpu + "no step left to judge." + skipped);
        }
        StepResult s = l.steps().get(worst);
        double ttft50 = s.latency().ttft().p50();
        double threshold = Math.max(LAG_FLOOR_MS, Double.isNaN(ttft50) ? 0 : LAG_FRACTION * ttft50);
        String ev = gpu + "worst schedule_lag p99 " + Format.num(worstLag) + " ms at " + l.label(worst)
                + (flagged.isEmpty() ? "" : " among the steps the client self-check did not flag")
                + " (ttft p50 there " + Format.num(ttft50) + " ms; threshold max(" + Format.num(LAG_FLOOR_MS)
                + " ms, " + Format.pct(LAG_FRACTION) + " of ttft p50) = " + Format.num(threshold) + " ms)." + skipped;
        boolean applies = worstLag > threshold;
        return new Reading(Kind.CLIENT_OR_SCHEDULER_PATH, applies ? Status.APPLIES : Status.DOES_NOT_APPLY,
                applies ? "The client dispatched late at " + l.label(worst) + " (schedule_lag p99 "
                        + Format.num(worstLag) + " ms > " + Format.num(threshold) + " ms, large next to its TTFT), "
                        + "although the client self-check did not flag the step (its limits scale with the "
                        + "inter-arrival gap): the client host or its scheduling path delays requests, and results "
                        + "there understate what the server can do. See the evidence, and the step's "
                        + "schedule_lag_p99_ms and schedule_lag_limit_ms in Tables.steps (steps.csv)."
                        : flagged.isEmpty()
                                ? "The client kept to its schedule: no sign that the client path is the bottleneck."
                                : "Apart from the client-bound step(s), the client kept to its schedule.", ev);
    }
}
