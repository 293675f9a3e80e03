package dev.kneepoint.plot;

import dev.kneepoint.analysis.Knee;
import dev.kneepoint.analysis.KneeReport;
import dev.kneepoint.analysis.LatencyMetric;
import dev.kneepoint.analysis.SloCapacity;
import dev.kneepoint.metrics.RunResult;
import java.util.ArrayList;
import java.util.List;
import org.knowm.xchart.XYChart;
import tech.tablesaw.api.Table;

/**
 * One-liners for the standard charts (tier 1). The builders draw only what analysis computed (a
 * {@link KneeReport}, a table, a run's distributions); the one-liners over a {@link RunResult} that need its knee
 * analyse it first with {@link Knee#analyze(RunResult) default options} — for other options analyse yourself and
 * pass the report. Each returns an XChart {@link XYChart} that a notebook
 * renders and {@link ChartFiles} encodes; for control use the builders ({@link KneePlot}, {@link LoadPlot},
 * {@link InteractivityPlot}, {@link DistributionPlot}, {@link TimeSeriesPlot}, {@link PromptLengthPlot}, {@link ComparePlot}).
 */
public final class Plots {
    private Plots() {}

    /** Throughput vs latency with the knee, efficient zone and recommended point, by {@link Knee#analyze(RunResult)}. */
    public static XYChart knee(RunResult run) {
        return KneePlot.of(Knee.analyze(run)).title(ChartStyle.title("Throughput vs latency", run.runId(), run.target()))
                .build();
    }

    /** Throughput vs latency for an existing report. */
    public static XYChart knee(KneeReport report) {
        return KneePlot.of(report).build();
    }

    /**
     * Throughput vs interactivity: x = per-user tok/s, y = system output tok/s, one point per step, knee and both
     * operating points marked, by {@link Knee#analyze(RunResult)}.
     */
    public static XYChart interactivity(RunResult run) {
        return interactivity(run, Knee.analyze(run));
    }

    /**
     * The Pareto view of {@code run} on a deployment of {@code gpus}: output tok/s per GPU against one user's tok/s,
     * the frontier marked ({@link InteractivityPlot#perGpu}).
     */
    public static XYChart pareto(RunResult run, KneeReport report, int gpus) {
        return InteractivityPlot.of(run, report).perGpu(gpus).build();
    }

    /** Throughput vs interactivity for {@code run} with an existing report of it. */
    public static XYChart interactivity(RunResult run, KneeReport report) {
        return InteractivityPlot.of(run, report).build();
    }

    /** An SLO capacity search's probes: attainment vs load with 95 % intervals and the target ({@link SloSearchPlot}). */
    public static XYChart sloSearch(SloCapacity capacity) {
        return SloSearchPlot.of(capacity).build();
    }

    /** p50/p90/p99 of the default latency (TTFT sched for open loop, TTFT for closed) vs load, knee marked. */
    public static XYChart percentilesVsLoad(RunResult run) {
        return LoadPlot.of(run).knee(Knee.analyze(run).kneeLoad()).build();
    }

    /** p50/p90/p99 of {@code metric} vs load, knee marked. */
    public static XYChart percentilesVsLoad(RunResult run, LatencyMetric metric) {
        return LoadPlot.of(run).metric(metric).knee(Knee.analyze(run).kneeLoad()).build();
    }

    /** CDF of {@code metric}, one line per step. */
    public static XYChart cdf(RunResult run, LatencyMetric metric) {
        return DistributionPlot.cdf().steps(run, metric).build();
    }

    /** Percentile spectrum (log-scaled tail) of {@code metric}, one line per step. */
    public static XYChart spectrum(RunResult run, LatencyMetric metric) {
        return DistributionPlot.spectrum().steps(run, metric).build();
    }

    /** Tokens/s, in-flight and p99 TTFT/ITL of a {@link dev.kneepoint.analysis.Tables#timeSeries} table. */
    public static XYChart timeSeries(Table timeSeries) {
        return TimeSeriesPlot.of(timeSeries).build();
    }

    /** The same with telemetry overlays on their own axes. */
    public static XYChart timeSeries(Table timeSeries, Overlay... overlays) {
        TimeSeriesPlot p = TimeSeriesPlot.of(timeSeries);
        for (Overlay o : overlays) {
            p.overlay(o);
        }
        return p.build();
    }

    /**
     * The time series with telemetry overlays, one right-hand axis each, e.g.
     * {@code Plots.timeSeries(rt.timeSeries(), rt.telemetry(), "server:running", "server:waiting")}.
     *
     * @throws IllegalArgumentException when a key names no series of the telemetry
     */
    public static XYChart timeSeries(Table timeSeries, dev.kneepoint.telemetry.TelemetryData telemetry, String... keys) {
        Overlay[] o = new Overlay[keys.length];
        for (int i = 0; i < keys.length; i++) {
            o[i] = TelemetryOverlays.of(telemetry, keys[i]);
        }
        return timeSeries(timeSeries, o);
    }

    /** p99 TTFT vs load, one line per prompt length, from the per-request table. */
    public static XYChart promptLengthCurves(Table requests, RunResult run) {
        return PromptLengthPlot.of(requests, run).build();
    }

    /** Throughput–latency curves of two or more runs overlaid, knees marked. */
    public static XYChart compare(RunResult a, RunResult b, RunResult... more) {
        List<KneeReport> all = new ArrayList<>(List.of(Knee.analyze(a), Knee.analyze(b)));
        for (RunResult r : more) {
            all.add(Knee.analyze(r));
        }
        return ComparePlot.of(all).build();
    }

    /** Goodput and request rate vs load from a {@link dev.kneepoint.analysis.Goodput} table. */
    public static XYChart goodput(Table goodput, boolean openLoop) {
        XYChart c = ChartStyle.chart("Goodput vs load", Units.load(openLoop), "requests/s", ChartStyle.WIDTH,
                ChartStyle.HEIGHT);
        double[] x = goodput.doubleColumn("load").asDoubleArray();
        for (String col : new String[] {"goodput_rps", "requests_per_s"}) {
            ChartStyle.finiteLine(c, col, x, goodput.doubleColumn(col).asDoubleArray());
        }
        ChartStyle.noDataIfEmpty(c);
        return c;
    }
}
