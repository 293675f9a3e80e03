package dev.kneepoint.io;

import dev.kneepoint.metrics.Distribution;
import dev.kneepoint.metrics.StepResult;
import java.io.BufferedOutputStream;
import java.io.IOException;
import java.io.PrintStream;
import java.io.UncheckedIOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardOpenOption;
import java.util.LinkedHashMap;
import java.util.Map;
import org.HdrHistogram.Histogram;
import org.HdrHistogram.HistogramLogWriter;

/**
 * HdrHistogram interval logs, one file per distribution ({@code ttft.hlog}, {@code ttft_sched.hlog},
 * {@code itl.hlog}, {@code chunk_gap.hlog}, {@code tpot.hlog}, {@code e2e.hlog}, {@code e2e_sched.hlog},
 * {@code schedule_lag.hlog}). Each step adds one interval: its whole-step histogram of nanoseconds, tagged with
 * the step label (whitespace and commas replaced by {@code _}), timed by the step's measurement window in
 * seconds since the run start ({@code #[StartTime]} is the run's wall-clock start); the max column is in ms.
 * Read them with {@code HistogramLogReader} or HdrHistogram's log analyzers.
 */
final class HlogFiles implements AutoCloseable {
    private final Map<String, PrintStream> streams = new LinkedHashMap<>();
    private final Map<String, HistogramLogWriter> writers = new LinkedHashMap<>();
    private final Path dir;
    private final long startEpochMillis;

    HlogFiles(Path dir, long startEpochMillis) {
        this.dir = dir;
        this.startEpochMillis = startEpochMillis;
    }

    void append(StepResult step) {
        for (Map.Entry<String, Distribution> e : step.distributions().entrySet()) {
            String name = e.getKey().substring(0, e.getKey().length() - "_ms".length());
            HistogramLogWriter w = writer(name);
            Histogram h = e.getValue().histogram().copy();
            h.setTag(step.info().label().replaceAll("[\\s,]", "_"));
            w.outputIntervalHistogram(step.window().startNanos() / 1e9, step.window().endNanos() / 1e9, h, 1e6);
            streams.get(name).flush();
        }
    }

    private HistogramLogWriter writer(String name) {
        return writers.computeIfAbsent(name, n -> {
            try {
                PrintStream ps = new PrintStream(new BufferedOutputStream(Files.newOutputStream(dir.resolve(n + ".hlog"),
                        StandardOpenOption.CREATE, StandardOpenOption.TRUNCATE_EXISTING)), false,
                        java.nio.charset.StandardCharsets.US_ASCII);
                streams.put(n, ps);
                HistogramLogWriter w = new HistogramLogWriter(ps);
                w.outputComment("Kneepoint " + n + " latency in nanoseconds, one interval per step");
                w.outputLogFormatVersion();
                w.outputStartTime(startEpochMillis);
                w.setBaseTime(startEpochMillis);
                w.outputLegend();
                ps.flush();
                return w;
            } catch (IOException ex) {
                throw new UncheckedIOException("Cannot create " + n + ".hlog: " + ex.getMessage(), ex);
            }
        });
    }

    @Override
    public void close() {
        streams.values().forEach(PrintStream::close);
    }
}
