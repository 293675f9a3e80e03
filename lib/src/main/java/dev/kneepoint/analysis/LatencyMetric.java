package dev.kneepoint.analysis;

import dev.kneepoint.metrics.Distribution;
import dev.kneepoint.metrics.StepResult;
import java.util.Locale;

/**
 * The latency distributions of a step, by their METRICS.md name. {@link #column()} is the per-request
 * table column ({@code ttft_ms}), {@link #of(StepResult)} the step's distribution.
 */
public enum LatencyMetric {
    /** {@code t_first_token − t_dispatch}. */
    TTFT("ttft_ms", "TTFT"),
    /** {@code t_first_token − t_intended}: the user's view, free of coordinated omission. */
    TTFT_SCHED("ttft_sched_ms", "TTFT (sched)"),
    /** Per-token inter-token latency. */
    ITL("itl_ms", "ITL"),
    /** Raw gaps between token-carrying events. */
    CHUNK_GAP("chunk_gap_ms", "chunk gap"),
    /** Time per output token. */
    TPOT("tpot_ms", "TPOT"),
    /** {@code t_last_token − t_dispatch}. */
    E2E("e2e_ms", "E2E"),
    /** {@code t_last_token − t_intended}. */
    E2E_SCHED("e2e_sched_ms", "E2E (sched)"),
    /** {@code t_dispatch − t_intended}. */
    SCHEDULE_LAG("schedule_lag_ms", "schedule lag");

    private final String column;
    private final String title;

    LatencyMetric(String column, String title) {
        this.column = column;
        this.title = title;
    }

    /** Column name with unit, e.g. {@code ttft_sched_ms}; also the key in {@link StepResult#distributions()}. */
    public String column() {
        return column;
    }

    /** Name without unit, e.g. {@code ttft_sched}. */
    public String baseName() {
        return column.substring(0, column.length() - 3);
    }

    /** Human title, e.g. {@code TTFT (sched)}. */
    public String title() {
        return title;
    }

    /** Column name of a percentile, e.g. {@code ttft_sched_p99_ms} or {@code itl_p99.9_ms}. */
    public String percentileColumn(double percentile) {
        return baseName() + "_p" + Format.percentile(percentile) + "_ms";
    }

    /** This metric's distribution in {@code step}. */
    public Distribution of(StepResult step) {
        return step.distributions().get(column);
    }

    /** Parses {@code ttft_sched}, {@code ttft_sched_ms} or {@code TTFT_SCHED}. */
    public static LatencyMetric parse(String name) {
        String n = name.toLowerCase(Locale.ROOT).trim();
        for (LatencyMetric m : values()) {
            if (m.column.equals(n) || m.baseName().equals(n)) {
                return m;
            }
        }
        throw new IllegalArgumentException("Unknown latency metric '" + name + "'; expected one of "
                + java.util.Arrays.stream(values()).map(LatencyMetric::baseName).toList());
    }
}
