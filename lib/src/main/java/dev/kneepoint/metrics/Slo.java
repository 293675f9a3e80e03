package dev.kneepoint.metrics;

import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.Locale;

/**
 * Service-level objectives that decide whether one request was "good" for goodput
 * (METRICS.md "goodput_rps"). Each bound is optional (NaN = not given); a request is good when it
 * is {@code OK} and meets every bound given. Failures are never good.
 *
 * <ul>
 *   <li>{@code ttftMs}: time to first token ≤ bound. On the sched basis {@code ttft_sched}
 *       ({@code t_first_token − t_intended}), else {@code ttft} ({@code t_first_token − t_dispatch}).</li>
 *   <li>{@code tpotMs}: {@code tpot} ≤ bound; met vacuously when {@code tpot} is undefined ({@code N_out < 2}).</li>
 *   <li>{@code itlMs} at {@code itlPercentile}: the request's own per-token ITL samples (each gap {@code g}
 *       before a chunk of {@code k} tokens counts as {@code k} samples of {@code g/k}, METRICS.md "itl") are
 *       ranked and the nearest-rank percentile (the smallest sample with at least {@code p}% of the samples
 *       ≤ it) must be ≤ bound; met vacuously when the request has fewer than two token-carrying events.</li>
 *   <li>{@code e2eMs}: {@code e2e_sched} on the sched basis, else {@code e2e}, ≤ bound.</li>
 * </ul>
 *
 * <p>The basis: {@link Basis#AUTO} (default) judges open-loop steps on the sched basis (the user's view,
 * free of coordinated omission) and closed-loop steps on the service basis.
 *
 * @param ttftMs        bound on time to first token, ms, or NaN
 * @param tpotMs        bound on time per output token, ms, or NaN
 * @param itlMs         bound on the request's ITL percentile, ms, or NaN
 * @param itlPercentile which percentile of the request's ITL samples {@code itlMs} bounds, in (0, 100]
 * @param e2eMs         bound on end-to-end latency, ms, or NaN
 * @param basis         which timestamps TTFT and E2E are judged from
 */
public record Slo(double ttftMs, double tpotMs, double itlMs, double itlPercentile, double e2eMs, Basis basis) {

    /** Which start timestamp latency bounds are measured from. */
    public enum Basis {
        /** Sched basis for open-loop steps, service basis for closed-loop steps. */
        AUTO,
        /** Always from {@code t_intended}. */
        SCHED,
        /** Always from {@code t_dispatch}. */
        SERVICE
    }

    /** Validates, reporting every problem at once. */
    public Slo {
        Problems problems = new Problems();
        bound("ttft_ms", ttftMs, problems);
        bound("tpot_ms", tpotMs, problems);
        bound("itl_ms", itlMs, problems);
        bound("e2e_ms", e2eMs, problems);
        problems.check(itlPercentile > 0 && itlPercentile <= 100,
                        "itl percentile must be in (0, 100], got " + itlPercentile)
                .check(basis != null, "basis must not be null (AUTO, SCHED or SERVICE)")
                .throwPlainIfAny("Invalid SLO");
    }

    private static void bound(String name, double v, Problems problems) {
        problems.check(Double.isNaN(v) || (v > 0 && Double.isFinite(v)),
                name + " must be a positive finite number of milliseconds, got " + v);
    }

    /** No bounds: every OK request is good. */
    public static Slo none() {
        return builder().build();
    }

    public static Builder builder() {
        return new Builder();
    }

    /** True when no bound is given. */
    public boolean isEmpty() {
        return Double.isNaN(ttftMs) && Double.isNaN(tpotMs) && Double.isNaN(itlMs) && Double.isNaN(e2eMs);
    }

    /** True when {@code openLoop} steps are judged on the sched basis under this SLO. */
    public boolean schedBasis(boolean openLoop) {
        return basis == Basis.SCHED || (basis == Basis.AUTO && openLoop);
    }

    /** Whether {@code r} is OK and meets every bound; {@code openLoop} selects the basis under {@link Basis#AUTO}. */
    public boolean isGood(RequestRecord r, boolean openLoop) {
        if (!r.isOk()) {
            return false;
        }
        boolean sched = schedBasis(openLoop);
        if (!Double.isNaN(ttftMs) && !within(sched ? r.ttftSchedNanos() : r.ttftNanos(), ttftMs)) {
            return false;
        }
        if (!Double.isNaN(e2eMs) && !within(sched ? r.e2eSchedNanos() : r.e2eNanos(), e2eMs)) {
            return false;
        }
        if (!Double.isNaN(tpotMs) && r.tpotNanos() >= 0 && r.tpotNanos() > tpotMs * 1e6) {
            return false;
        }
        if (!Double.isNaN(itlMs)) {
            long itl = itlPercentileNanos(r, itlPercentile);
            return itl < 0 || itl <= itlMs * 1e6;
        }
        return true;
    }

    private static boolean within(long nanos, double boundMs) {
        return nanos >= 0 && nanos <= boundMs * 1e6;
    }

    /**
     * Nearest-rank percentile of one request's per-token ITL samples, in nanoseconds (integer division
     * {@code g / k}, as recorded in the ITL distribution); -1 when the request has fewer than two
     * token-carrying events.
     */
    public static long itlPercentileNanos(RequestRecord r, double percentile) {
        long[] t = r.timing().chunkNanos();
        int[] k = r.timing().chunkTokens();
        int n = t.length - 1;
        if (n < 1) {
            return -1;
        }
        long[][] samples = new long[n][];
        long total = 0;
        for (int i = 1; i < t.length; i++) {
            int tokens = Math.max(1, k[i]);
            samples[i - 1] = new long[] {Math.max(0, t[i] - t[i - 1]) / tokens, tokens};
            total += tokens;
        }
        Arrays.sort(samples, (a, b) -> Long.compare(a[0], b[0]));
        long rank = Math.max(1, (long) Math.ceil(percentile / 100.0 * total));
        long seen = 0;
        for (long[] s : samples) {
            seen += s[1];
            if (seen >= rank) {
                return s[0];
            }
        }
        return samples[n - 1][0];
    }

    /**
     * The bounds in words, for reports: {@code "TTFT <= 500 ms, TPOT <= 50 ms (p99 ITL <= 80 ms)"}, or
     * {@code "no latency bound"}; {@link #toString()} keeps the compact form that manifests record.
     */
    public String describe() {
        if (isEmpty()) {
            return "no latency bound";
        }
        List<String> parts = new ArrayList<>();
        String basisNote = basis == Basis.AUTO ? "" : " (" + basis.name().toLowerCase(Locale.ROOT) + " basis)";
        if (!Double.isNaN(ttftMs)) parts.add("TTFT <= " + num(ttftMs) + " ms" + basisNote);
        if (!Double.isNaN(tpotMs)) parts.add("TPOT <= " + num(tpotMs) + " ms");
        if (!Double.isNaN(itlMs)) parts.add("ITL p" + num(itlPercentile) + " <= " + num(itlMs) + " ms");
        if (!Double.isNaN(e2eMs)) parts.add("E2E <= " + num(e2eMs) + " ms" + basisNote);
        return String.join(", ", parts);
    }

    private static String num(double v) {
        return v == Math.rint(v) && Math.abs(v) < 1e15 ? Long.toString((long) v) : Double.toString(v);
    }

    @Override
    public String toString() {
        if (isEmpty()) {
            return "Slo[none]";
        }
        StringBuilder sb = new StringBuilder("Slo[");
        if (!Double.isNaN(ttftMs)) sb.append(String.format(Locale.ROOT, "ttft<=%sms ", ttftMs));
        if (!Double.isNaN(tpotMs)) sb.append(String.format(Locale.ROOT, "tpot<=%sms ", tpotMs));
        if (!Double.isNaN(itlMs)) sb.append(String.format(Locale.ROOT, "itl_p%s<=%sms ", itlPercentile, itlMs));
        if (!Double.isNaN(e2eMs)) sb.append(String.format(Locale.ROOT, "e2e<=%sms ", e2eMs));
        return sb.append("basis=").append(basis.name().toLowerCase(Locale.ROOT)).append(']').toString();
    }

    /** Builder of an {@link Slo}; {@link #build()} reports every invalid setting at once. */
    public static final class Builder {
        private double ttftMs = Double.NaN;
        private double tpotMs = Double.NaN;
        private double itlMs = Double.NaN;
        private double itlPercentile = 99;
        private double e2eMs = Double.NaN;
        private Basis basis = Basis.AUTO;

        private Builder() {}

        public Builder ttftMs(double ms) { this.ttftMs = ms; return this; }

        public Builder tpotMs(double ms) { this.tpotMs = ms; return this; }

        /** The request's own {@code percentile}-th ITL sample must be ≤ {@code ms}. */
        public Builder itl(double percentile, double ms) {
            this.itlPercentile = percentile;
            this.itlMs = ms;
            return this;
        }

        public Builder e2eMs(double ms) { this.e2eMs = ms; return this; }

        public Builder basis(Basis basis) { this.basis = basis; return this; }

        public Slo build() {
            return new Slo(ttftMs, tpotMs, itlMs, itlPercentile, e2eMs, basis);
        }
    }
}
