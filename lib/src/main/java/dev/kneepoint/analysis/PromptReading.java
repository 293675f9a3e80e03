package dev.kneepoint.analysis;

import dev.kneepoint.analysis.Reading.Kind;
import dev.kneepoint.analysis.Reading.Status;
import dev.kneepoint.metrics.StepResult;
import tech.tablesaw.api.BooleanColumn;
import tech.tablesaw.api.DoubleColumn;
import tech.tablesaw.api.IntColumn;
import tech.tablesaw.api.StringColumn;
import tech.tablesaw.api.Table;

/**
 * "Long prompts blow up TTFT: prefill or admission." Two tests: across load within the efficient range (TTFT p99
 * grows at least x2 and at least x2 more than ITL p99 up to the knee: requests wait to be admitted before the
 * server saturates; past it every latency grows by queueing), and across prompt length when the
 * per-request table is given (TTFT p50 of the longest-prompt quarter at least x2 that of the shortest,
 * when their mean prompt lengths differ at least x2).
 */
final class PromptReading {
    static final int MIN_GROUP = 20;

    private PromptReading() {}

    static Reading of(LoadCurve l, int lo, int hi, Table requests) {
        StringBuilder ev = new StringBuilder();
        boolean applies = false;
        boolean anyData = false;
        if (lo >= 0) {
            StepResult.Latency a = l.steps().get(lo).latency();
            StepResult.Latency b = l.steps().get(hi).latency();
            if (a.ttft().count() > 0 && b.ttft().count() > 0) {
                anyData = true;
                double tg = b.ttft().p99() / a.ttft().p99();
                double ig = a.itl().count() > 0 && b.itl().count() > 0 ? b.itl().p99() / a.itl().p99() : 1;
                boolean load = tg >= Readings.BLOWS_UP && tg >= Readings.BLOWS_UP * ig;
                applies |= load;
                ev.append("across load ").append(Readings.range(l, lo, hi)).append(": ")
                        .append(Readings.span("ttft", 99, a.ttft(), b.ttft())).append(" vs itl p99 ")
                        .append(Format.ratio(ig)).append(" (blow-up means ttft >= ").append(Format.ratio(Readings.BLOWS_UP))
                        .append(" and >= ").append(Format.ratio(Readings.BLOWS_UP)).append(" the itl growth)")
                        .append(load ? ": met" : ": not met").append(". ");
            }
        }
        if (requests == null) {
            ev.append("Across prompt length: no per-request table given (KneeOptions.requests).");
        } else {
            // One pass over the columns (no filtered table copies: the table may hold millions of rows).
            IntColumn promptCol = requests.intColumn("prompt_tokens");
            DoubleColumn ttftCol = requests.doubleColumn("ttft_ms");
            StringColumn outcomeCol = requests.stringColumn("outcome");
            BooleanColumn warmupCol = requests.booleanColumn("warmup");
            int rows = requests.rowCount();
            int[] prompt = new int[rows];
            double[] ttft = new double[rows];
            int m = 0;
            for (int i = 0; i < rows; i++) {
                if (Boolean.FALSE.equals(warmupCol.get(i)) && "OK".equals(outcomeCol.get(i))
                        && !promptCol.isMissing(i) && !ttftCol.isMissing(i)) {
                    prompt[m] = promptCol.getInt(i);
                    ttft[m++] = ttftCol.getDouble(i);
                }
            }
            double[] sortedPrompt = new double[m];
            for (int i = 0; i < m; i++) {
                sortedPrompt[i] = prompt[i];
            }
            java.util.Arrays.sort(sortedPrompt);
            double q25 = m == 0 ? Double.NaN : Query.nearestRank(sortedPrompt, 25);
            double q75 = m == 0 ? Double.NaN : Query.nearestRank(sortedPrompt, 75);
            Group shortP = new Group(m);
            Group longP = new Group(m);
            for (int i = 0; i < m; i++) {
                if (prompt[i] <= q25) {
                    shortP.add(prompt[i], ttft[i]);
                }
                if (prompt[i] >= q75) {
                    longP.add(prompt[i], ttft[i]);
                }
            }
            double shortMean = shortP.meanPrompt();
            double longMean = longP.meanPrompt();
            if (shortP.n < MIN_GROUP || longP.n < MIN_GROUP || !(longMean >= 2 * shortMean)) {
                ev.append("Across prompt length: prompts do not vary enough (shortest quarter mean ")
                        .append(Format.num(shortMean)).append(", longest ").append(Format.num(longMean))
                        .append(" tokens; need x2 and ").append(MIN_GROUP).append(" requests each).");
            } else {
                anyData = true;
                double s50 = shortP.ttftMedian();
                double l50 = longP.ttftMedian();
                boolean promptBlowUp = l50 >= Readings.BLOWS_UP * s50;
                applies |= promptBlowUp;
                ev.append("Across prompt length: ttft p50 ").append(Format.num(s50)).append(" ms for prompts <= ")
                        .append(Format.num(q25)).append(" tokens (mean ").append(Format.num(shortMean)).append(") vs ")
                        .append(Format.num(l50)).append(" ms for prompts >= ").append(Format.num(q75))
                        .append(" tokens (mean ").append(Format.num(longMean)).append("), ")
                        .append(Format.ratio(l50 / s50)).append(promptBlowUp ? ": blow-up." : ": no blow-up.");
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

    /** The prompt lengths and TTFTs of one prompt-length group. */
    private static final class Group {
        final double[] ttft;
        long promptSum;
        int n;

        Group(int capacity) {
            ttft = new double[capacity];
        }

        void add(int prompt, double ttftMs) {
            promptSum += prompt;
            ttft[n++] = ttftMs;
        }

        double meanPrompt() {
            return n == 0 ? Double.NaN : (double) promptSum / n;
        }

        double ttftMedian() {
            double[] sorted = java.util.Arrays.copyOf(ttft, n);
            java.util.Arrays.sort(sorted);
            return Query.nearestRank(sorted, 50);
        }
    }
}
