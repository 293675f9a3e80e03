package dev.kneepoint.analysis;

import dev.kneepoint.metrics.ClientCheck;
import dev.kneepoint.metrics.ClientHealth;
import dev.kneepoint.metrics.ClientThresholds;
import dev.kneepoint.metrics.Distribution;
import dev.kneepoint.metrics.LatencyTrend;
import dev.kneepoint.metrics.RunResult;
import dev.kneepoint.metrics.Slo;
import dev.kneepoint.metrics.StepInfo;
import dev.kneepoint.metrics.StepResult;
import dev.kneepoint.metrics.StepWindow;
import java.time.Instant;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import org.HdrHistogram.Histogram;

/** Synthetic step results with exactly known numbers, for knee and comparison tests. */
public final class Ladders {
    private Ladders() {}

    /** A distribution of 1000 samples, all equal to {@code ms} (empty when NaN). */
    static Distribution constant(double ms) {
        Histogram h = Distribution.newHistogram();
        if (!Double.isNaN(ms)) {
            h.recordValueWithCount(Math.round(ms * 1e6), 1000);
        }
        return Distribution.of(h);
    }

    /** 980 samples at {@code p50Ms} and 20 at {@code p99Ms}: p50 and p99 are those values (HdrHistogram precision). */
    static Distribution tail(double p50Ms, double p99Ms) {
        Histogram h = Distribution.newHistogram();
        h.recordValueWithCount(Math.round(p50Ms * 1e6), 980);
        h.recordValueWithCount(Math.round(p99Ms * 1e6), 20);
        return Distribution.of(h);
    }

    /** Spec of one synthetic step. */
    public static final class Spec {
        double load;
        boolean open;
        double tokensPerS;
        double latencyMs = 100;   // every latency distribution unless overridden
        double ttftMs = Double.NaN;
        double itlMs = Double.NaN;
        double itlP99Ms = Double.NaN; // NaN: ITL is constant at itlMs
        double lagMs = 0.5;
        long ok = 1000;
        long failed;
        long cancelled;
        double achievedRps = Double.NaN; // OK req/s; NaN: ok / 60 s
        Map<String, Long> failures = Map.of();
        Slo slo = Slo.none();
        ClientHealth client = ClientHealth.NOT_MEASURED;
        LatencyTrend trend = LatencyTrend.NONE;
        double goodFraction = 1; // of the OK requests (no failures): what met the SLO set
        String label; // null: c=N or rate=R

        Spec(double load, double tokensPerS, double latencyMs) {
            this.load = load;
            this.tokensPerS = tokensPerS;
            this.latencyMs = latencyMs;
        }

        public Spec ttft(double ms) { ttftMs = ms; return this; }
        public Spec itl(double ms) { itlMs = ms; return this; }
        /** ITL p50 {@code p50Ms} with a tail at {@code p99Ms}; TPOT stays at the p50. */
        public Spec itlTail(double p50Ms, double p99Ms) { itlMs = p50Ms; itlP99Ms = p99Ms; return this; }
        public Spec lag(double ms) { lagMs = ms; return this; }
        public Spec open() { open = true; return this; }
        public Spec failed(long n, String label) { failed = n; failures = Map.of(label, n); return this; }
        public Spec ok(long n) { ok = n; return this; }
        public Spec cancelled(long n) { cancelled = n; return this; }
        public Spec achieved(double rps) { achievedRps = rps; return this; }
        public Spec slo(Slo s) { slo = s; return this; }
        public Spec client(ClientHealth h) { client = h; return this; }
        public Spec trend(LatencyTrend t) { trend = t; return this; }
        /** This fraction of the OK requests met the SLO set (the others did not): goodput and good fraction. */
        public Spec good(double fraction) { goodFraction = fraction; return this; }
        public Spec label(String l) { label = l; return this; }
    }

    static StepResult step(int index, Spec s) {
        String label = s.label != null ? s.label : s.open ? "rate=" + Format.num(s.load) : "c=" + (int) s.load;
        StepInfo info = s.open
                ? new StepInfo(index, label, StepInfo.OPEN, -1, s.load, "poisson", -1, "", 0, -1, -1)
                : new StepInfo(index, label, StepInfo.CLOSED, (int) s.load, Double.NaN, "", -1, "", 0, -1, -1);
        long start = index * 100_000_000_000L;
        StepWindow w = new StepWindow(start, start + 10_000_000_000L, start + 70_000_000_000L, true);
        Distribution lat = s.ok == 0 ? constant(Double.NaN) : constant(s.latencyMs);
        Distribution ttft = s.ok == 0 ? lat : constant(Double.isNaN(s.ttftMs) ? s.latencyMs : s.ttftMs);
        Distribution tpot = s.ok == 0 ? lat : constant(Double.isNaN(s.itlMs) ? 20 : s.itlMs);
        Distribution itl = s.ok == 0 || Double.isNaN(s.itlP99Ms) ? tpot : tail(s.itlMs, s.itlP99Ms);
        double rps = Double.isNaN(s.achievedRps) ? s.ok / 60.0 : s.achievedRps;
        double fr = s.ok + s.failed == 0 ? Double.NaN : (double) s.failed / (s.ok + s.failed);
        Distribution lag = constant(s.lagMs);
        return StepResult.builder().info(info).window(w).windowS(60).requestsOk(s.ok).requestsFailed(s.failed)
                .cancelled(s.cancelled)                .failuresByClass(s.failures).ttft(ttft).ttftSched(ttft).itl(itl).chunkGap(itl).tpot(tpot).e2e(lat)
                .e2eSched(lat).scheduleLag(lag).outputTokensPerS(s.tokensPerS).inputTokensPerS(rps * 100)
                .requestsPerS(rps).goodputRps(rps * s.goodFraction)
                .goodFraction(s.ok + s.failed == 0 ? Double.NaN : s.ok * s.goodFraction / (s.ok + s.failed)).failureRate(fr).concurrencyMean(s.load)
                .tokenSources(Map.of("server_usage", s.ok)).meanPromptTokens(100)
                .meanOutputTokens(rps == 0 ? Double.NaN : s.tokensPerS / rps).slo(s.slo).trend(s.trend)
                .clientCheck(ClientCheck.evaluate(info, 60, s.ok + s.failed, lag, s.client, ClientThresholds.defaults()))
                .build();
    }

    public static RunResult run(String id, Spec... specs) {
        List<StepResult> steps = new ArrayList<>();
        for (int i = 0; i < specs.length; i++) {
            steps.add(step(i, specs[i]));
        }
        return new RunResult(id, steps, true, Instant.EPOCH, "synthetic");
    }

    /** Client health over 60 s on 4 processors with this much CPU (fraction of the cores), 0.1% GC, probe p99 0.5 ms. */
    public static ClientHealth cpu(double fraction) {
        long span = 60_000_000_000L;
        return new ClientHealth(span, 4, (long) (fraction * span * 4), 60_000_000L, 10, 6000, 100_000, 500_000,
                900_000, 10_000_000L);
    }

    public static Spec s(double load, double tokensPerS, double latencyMs) {
        return new Spec(load, tokensPerS, latencyMs);
    }
}
