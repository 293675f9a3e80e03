package dev.kneepoint.plot;

import java.util.List;
import org.knowm.xchart.XYChart;

/**
 * Builder of a server-config sweep's chart: output token throughput against load, one series per configuration
 * (its steps in order of load), so the configurations' curves and plateaus sit side by side.
 */
public final class ServeSweepPlot extends ChartBuilder<ServeSweepPlot> {
    /**
     * One configuration's curve.
     *
     * @param name       the configuration, e.g. {@code parallel-2}
     * @param load       each step's load (users or req/s)
     * @param throughput each step's output tokens/s
     */
    public record Series(String name, double[] load, double[] throughput) {}

    private final List<Series> series;

    private ServeSweepPlot(List<Series> series) {
        this.series = List.copyOf(series);
    }

    /** The curves of {@code series}, in this order. */
    public static ServeSweepPlot of(List<Series> series) {
        return new ServeSweepPlot(series);
    }

    @Override
    public XYChart build() {
        XYChart c = chart("Server-config sweep: output throughput vs load", "load (users, or req/s open loop)",
                Units.axis("output_tokens_per_s"));
        for (Series s : series) {
            ChartStyle.finiteLine(c, s.name(), s.load(), s.throughput());
        }
        ChartStyle.noDataIfEmpty(c);
        return c;
    }
}
