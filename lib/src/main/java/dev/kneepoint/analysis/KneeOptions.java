package dev.kneepoint.analysis;

import dev.kneepoint.metrics.Problems;
import dev.kneepoint.metrics.RunResult;
import dev.kneepoint.metrics.Slo;
import dev.kneepoint.telemetry.TelemetryData;
import tech.tablesaw.api.Table;

/**
 * How {@link Knee#analyze(RunResult, KneeOptions)} reads a ladder. Build with {@link #builder()};
 * {@link Builder#build()} reports every invalid setting at once.
 *
 * @param throughput      the throughput T(x) of each step
 * @param latency         the latency distribution behind L(x); null = the default, {@code e2e_sched}
 *                        for every ladder, so that open- and closed-loop knees compare (docs/ANALYSIS.md)
 * @param percentile      which percentile of {@code latency} is L(x), in (0, 100]; default 99
 * @param persistence     how many consecutive inelastic segments make a knee; default 2
 * @param slo             SLO set a step must meet to be in the efficient zone; null = the run's own SLO
 *                        (the SLO its goodput was judged against)
 * @param maxFailureRate  a step meets the SLO set only when its failure rate is at most this; default 0.01
 * @param requests        the run's per-request table ({@link Tables#requests}), optional: enables the
 *                        prompt-length and sustained-failure readings
 * @param sloSearch       the SLO capacity search the run made ({@code Sweep.sloSearch}), or null: its answer
 *                        ({@link SloCapacity}) replaces the capacity sentence of the answer
 * @param telemetry       the run's telemetry ({@link RunTables#telemetry()}); empty when not given: enables the
 *                        server-limit reading (batch slots, KV cache or admission, from the server's gauges)
 */
public record KneeOptions(Throughput throughput, LatencyMetric latency, double percentile, int persistence,
                          Slo slo, double maxFailureRate, Table requests, TelemetryData telemetry,
                          SloCapacity.Goal sloSearch) {

    public KneeOptions {
        telemetry = telemetry == null ? TelemetryData.empty() : telemetry;
    }

    /** Which step rate is the throughput T(x). */
    public enum Throughput {
        /**
         * {@code output_tokens_per_s}: system token throughput (default; a run of pooling requests, which generate
         * nothing, is analysed by {@link #ITEMS} instead: {@link KneeOptions#forRun}).
         */
        OUTPUT_TOKENS("output_tokens_per_s", "output throughput", "tok/s"),
        /** {@code items_per_s}: embedding vectors, rerank or score results a pooling server returned per second. */
        ITEMS("items_per_s", "throughput", "items/s"),
        /** {@code requests_per_s}: only meaningful with fixed token budgets. */
        REQUESTS("requests_per_s", "request throughput", "req/s"),
        /** {@code goodput_rps} under the run's SLO. */
        GOODPUT("goodput_rps", "goodput", "req/s");

        private final String column;
        private final String phrase;
        private final String unit;

        Throughput(String column, String phrase, String unit) {
            this.column = column;
            this.phrase = phrase;
            this.unit = unit;
        }

        public String column() {
            return column;
        }

        /** How a sentence names it ({@code output throughput}). */
        String phrase() {
            return phrase;
        }

        /** Its unit ({@code tok/s}). */
        String unit() {
            return unit;
        }

        double of(dev.kneepoint.metrics.StepResult s) {
            return switch (this) {
                case OUTPUT_TOKENS -> s.rates().outputTokensPerS();
                case REQUESTS -> s.rates().requestsPerS();
                case ITEMS -> s.rates().itemsPerS();
                case GOODPUT -> s.rates().goodputRps();
            };
        }
    }

    /**
     * L(x) unless set: the user's whole wait from the intended start, one measure for open and closed loops alike,
     * so the knees of a concurrency and a rate ladder of one server compare.
     */
    public static final LatencyMetric DEFAULT_LATENCY = LatencyMetric.E2E_SCHED;

    /** Defaults: output tokens/s, default latency at p99, persistence 2, the run's SLO, 1% failures. */
    public static KneeOptions defaults() {
        return builder().build();
    }

    public static Builder builder() {
        return new Builder();
    }

    /** The latency metric used for {@code run}: {@link #latency()} or the documented default. */
    public LatencyMetric latencyFor(RunResult run) {
        if (latency != null) {
            return latency;
        }
        return DEFAULT_LATENCY;
    }

    /**
     * These options as {@code run} is analysed: the default {@link Throughput#OUTPUT_TOKENS} becomes
     * {@link Throughput#ITEMS} for a run of pooling requests (items returned and no output token in any step), whose
     * output-token throughput is zero by construction; otherwise these options.
     */
    public KneeOptions forRun(RunResult run) {
        return throughput == Throughput.OUTPUT_TOKENS && Tables.pooling(run.steps()) ? new KneeOptions(Throughput.ITEMS, latency, percentile,
                persistence, slo, maxFailureRate, requests, telemetry, sloSearch) : this;
    }

    /** The SLO used for {@code run}: {@link #slo()} or the SLO of its first step, or none. */
    public Slo sloFor(RunResult run) {
        if (slo != null) {
            return slo;
        }
        return run.steps().isEmpty() ? Slo.none() : run.steps().get(0).slo();
    }

    /** Builder of {@link KneeOptions}. */
    public static final class Builder {
        private Throughput throughput = Throughput.OUTPUT_TOKENS;
        private LatencyMetric latency;
        private double percentile = 99;
        private int persistence = 2;
        private Slo slo;
        private double maxFailureRate = 0.01;
        private Table requests;
        private TelemetryData telemetry;
        private SloCapacity.Goal sloSearch;

        private Builder() {}

        public Builder throughput(Throughput t) { this.throughput = t; return this; }

        /** The latency metric; null restores the default (see {@link KneeOptions#latency()}). */
        public Builder latency(LatencyMetric m) { this.latency = m; return this; }

        public Builder percentile(double p) { this.percentile = p; return this; }

        public Builder persistence(int segments) { this.persistence = segments; return this; }

        public Builder slo(Slo slo) { this.slo = slo; return this; }

        public Builder maxFailureRate(double rate) { this.maxFailureRate = rate; return this; }

        public Builder requests(Table requests) { this.requests = requests; return this; }

        /** The run's telemetry, for the server-limit reading; null or empty: that reading has no data. */
        public Builder telemetry(TelemetryData telemetry) { this.telemetry = telemetry; return this; }

        /** The SLO capacity search the run made, or null (default): see {@link KneeOptions#sloSearch()}. */
        public Builder sloSearch(SloCapacity.Goal goal) { this.sloSearch = goal; return this; }

        public KneeOptions build() {
            new Problems()
                    .check(throughput != null, "throughput must not be null (OUTPUT_TOKENS, ITEMS, REQUESTS or GOODPUT)")
                    .check(percentile > 0 && percentile <= 100, "percentile must be in (0, 100], got " + percentile)
                    .check(persistence >= 1, "persistence must be at least 1 segment, got " + persistence)
                    .check(maxFailureRate >= 0 && maxFailureRate <= 1,
                            "maxFailureRate must be in [0, 1], got " + maxFailureRate)
                    .throwPlainIfAny("Invalid knee options");
            return new KneeOptions(throughput, latency, percentile, persistence, slo, maxFailureRate, requests, telemetry, sloSearch);
        }
    }
}
