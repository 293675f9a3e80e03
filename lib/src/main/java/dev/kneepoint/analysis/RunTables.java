package dev.kneepoint.analysis;

import dev.kneepoint.telemetry.TelemetryData;
import dev.kneepoint.telemetry.TelemetryLoader;
import dev.kneepoint.io.LoadedRun;
import dev.kneepoint.io.RunLoader;
import dev.kneepoint.io.StreamedRun;
import dev.kneepoint.metrics.RunResult;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.List;
import java.util.Objects;
import tech.tablesaw.api.Table;

/**
 * A run directory read in one streaming pass straight into what the analysis needs, without keeping any
 * {@code RequestRecord}: the re-aggregated {@link RunResult} (step HdrHistograms), the per-request table
 * of {@link Tables#requests} (primitive columns, about 120 bytes per request) and the time series of
 * {@link Tables#timeSeries} (token arrivals binned while streaming, so chunk timestamps are never held).
 *
 * <p>The time-series interval adapts to the run's length: it starts at {@code baseInterval} and doubles
 * whenever the run would need more than {@code maxIntervals} intervals ({@link #interval()} says what it
 * became). The defaults, 250 ms and 200, give 100 to 200 intervals for runs longer than 25 s.
 *
 * <p>Malformed lines, a truncated last line and an incomplete run are reported as by
 * {@link RunLoader#load}: see {@link #source()}.
 */
public final class RunTables {
    /** Default starting interval of the time series. */
    public static final Duration BASE_INTERVAL = Duration.ofMillis(250);
    /** Default largest number of time-series intervals. */
    public static final int MAX_INTERVALS = 200;

    private final StreamedRun source;
    private final Table requests;
    private final Table timeSeries;
    private final Duration interval;
    private TelemetryData telemetry;

    private RunTables(StreamedRun source, Table requests, Table timeSeries, Duration interval) {
        this.source = source;
        this.requests = requests;
        this.timeSeries = timeSeries;
        this.interval = interval;
    }

    /** Reads {@code runDirectory} with the default time-series resolution. */
    public static RunTables load(Path runDirectory) {
        return load(runDirectory, BASE_INTERVAL, MAX_INTERVALS);
    }

    /**
     * Reads {@code runDirectory} in one pass. A large {@code requests.jsonl} is read and parsed on a second
     * thread of this call's own while the calling thread builds the tables ({@link RunLoader#stream}).
     *
     * @param baseInterval the finest time-series interval
     * @param maxIntervals the most time-series intervals to keep (the interval doubles to stay within)
     * @throws UncheckedIOException when the directory cannot be read
     * @throws IllegalArgumentException when {@code baseInterval} is not positive or {@code maxIntervals} < 1
     */
    public static RunTables load(Path runDirectory, Duration baseInterval, int maxIntervals) {
        Objects.requireNonNull(runDirectory, "runDirectory");
        TimeSeriesColumns ts = new TimeSeriesColumns(baseInterval, maxIntervals);
        RequestColumns rc = new RequestColumns(expectedRequests(runDirectory.resolve("requests.jsonl")));
        StreamedRun source = RunLoader.stream(runDirectory, r -> {
            rc.add(r);
            ts.add(r);
        });
        return new RunTables(source, rc.toTable(), ts.toTable(), ts.interval());
    }

    /**
     * Sizes the columns from the file: its size over the mean length of the lines in its first 256 KiB, plus
     * 5%. A low guess costs a copy (the columns grow by half), a high one memory that is touched and zeroed
     * for nothing (dividing by a fixed short line length over-allocated 3x for typical runs).
     */
    private static int expectedRequests(Path file) {
        try {
            if (!Files.exists(file)) {
                return 1024;
            }
            long size = Files.size(file);
            byte[] head = new byte[(int) Math.min(size, 256 << 10)];
            int read;
            try (var in = Files.newInputStream(file)) {
                read = in.readNBytes(head, 0, head.length);
            }
            long lines = 0;
            long lastNewline = -1;
            for (int i = 0; i < read; i++) {
                if (head[i] == '\n') {
                    lines++;
                    lastNewline = i;
                }
            }
            double bytesPerLine = lines == 0 ? Math.max(1, read) : (lastNewline + 1.0) / lines;
            return (int) Math.min(1 << 24, 1024 + 1.05 * size / bytesPerLine);
        } catch (IOException e) {
            return 1024;
        }
    }

    /** The run as read: manifest, line problems, truncation, the re-aggregated result. */
    public StreamedRun source() {
        return source;
    }

    /** The re-aggregated run (from {@code requests.jsonl} and {@code steps.jsonl}). */
    public RunResult run() {
        return source.result();
    }

    /** True when the run closed cleanly. */
    public boolean complete() {
        return source.complete();
    }

    /** Malformed lines of {@code requests.jsonl}, with their line numbers. */
    public List<LoadedRun.LineProblem> problems() {
        return source.problems();
    }

    /** One row per request, as {@link Tables#requests(Iterable)} builds it. */
    public Table requests() {
        return requests;
    }

    /** The time series, as {@link Tables#timeSeries} builds it, at {@link #interval()}. */
    public Table timeSeries() {
        return timeSeries;
    }

    /** The time-series interval the run's length led to. */
    public Duration interval() {
        return interval;
    }

    /** The step summary table ({@link Tables#steps}). */
    public Table steps() {
        return Tables.steps(run());
    }

    /**
     * The run's telemetry from {@code telemetry.jsonl} (read once, on first use); empty for a run without it.
     */
    public synchronized TelemetryData telemetry() {
        if (telemetry == null) {
            telemetry = TelemetryLoader.load(source.path());
        }
        return telemetry;
    }

    /** One row per telemetry sample ({@link TelemetryTables#samples}); no rows without telemetry. */
    public Table telemetrySamples() {
        return TelemetryTables.samples(telemetry());
    }

    /** Telemetry per interval of {@link #interval()} ({@link TelemetryTables#wide}). */
    public Table telemetryWide() {
        return TelemetryTables.wide(telemetry(), interval);
    }

    /**
     * The step table with each step window's telemetry: gauge {@code _mean}/{@code _max}, counter
     * {@code _per_s}, histogram {@code _mean} ({@link TelemetryTables#joinSteps}); the plain step table when the
     * run has no telemetry.
     */
    public Table stepsWithTelemetry() {
        return TelemetryTables.joinSteps(steps(), run(), telemetry());
    }
}
