package dev.kneepoint.io;

import com.fasterxml.jackson.core.JsonGenerator;
import dev.kneepoint.metrics.ClientHealth;
import dev.kneepoint.metrics.ClientThresholds;
import dev.kneepoint.metrics.RequestRecord;
import dev.kneepoint.metrics.RunAggregator;
import dev.kneepoint.metrics.RunListener;
import dev.kneepoint.metrics.RunResult;
import dev.kneepoint.metrics.Slo;
import dev.kneepoint.metrics.StepInfo;
import dev.kneepoint.metrics.StepResult;
import dev.kneepoint.metrics.StepWindow;
import dev.kneepoint.metrics.WindowPlan;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.io.Writer;
import java.nio.file.FileAlreadyExistsException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Clock;
import java.time.Instant;
import java.time.ZoneOffset;
import java.time.format.DateTimeFormatter;
import java.util.List;
import java.util.Map;
import java.util.concurrent.atomic.AtomicLong;

/**
 * The on-disk record of one run, {@code <parent>/<yyyyMMdd-HHmmss>-<slug>[-n]/} (parent is e.g. {@code runs}) (UTC time; {@code -2},
 * {@code -3}... when two runs start in the same second), as a {@link RunListener}:
 *
 * <ul>
 *   <li>{@code manifest.json}: configuration, target, SLO, machine and JVM facts, start time; written at
 *       open with {@code "complete": false} and rewritten with {@code true} (and {@code end_time}) by a clean
 *       {@link #close()}. Always replaced atomically.</li>
 *   <li>{@code requests.jsonl}: one line per finished request ({@link RequestJson}), appended by a writer
 *       thread and flushed at least every {@link Builder#flushIntervalMillis} (default 200 ms), at each step
 *       end and at close: a killed process loses at most about that much of its finished requests.</li>
 *   <li>{@code steps.jsonl}: one line when each step starts (its {@link StepInfo}) and one when it finishes
 *       (its {@link StepWindow} and, under {@code client}, the load generator's {@link ClientHealth}), so that
 *       {@link RunLoader} can re-aggregate a run that crashed.</li>
 *   <li>{@code summary.json}: {@link SummaryJson} of the finished steps, rewritten atomically at each step end
 *       and at close.</li>
 *   <li>{@code *.hlog}: HdrHistogram interval logs, one interval per step (see {@link HlogFiles}).</li>
 *   <li>{@code telemetry.jsonl}: server, host and GPU samples on the run clock, written beside the run by
 *       {@link dev.kneepoint.telemetry.TelemetryRecorder} when the sweep samples telemetry (docs/TELEMETRY.md).</li>
 * </ul>
 *
 * Threading as {@link RunListener}: {@link #requestFinished} is concurrent and never blocks on disk;
 * step events come from the driving thread. It aggregates the steps itself through {@link #aggregator()},
 * which a caller may use for live progress instead of aggregating a second time.
 */
public final class RunDirectory implements RunListener, AutoCloseable {
    private static final DateTimeFormatter DIR_TIME = DateTimeFormatter.ofPattern("yyyyMMdd-HHmmss").withZone(ZoneOffset.UTC);
    private static final long STEP_SYNC_TIMEOUT_MILLIS = 30_000;

    private final Path path;
    private final Builder config;
    private final Instant startTime;
    private final RunAggregator aggregator;
    private final RequestLog requests;
    private final Writer steps;
    private final HlogFiles hlogs;
    private boolean closed;
    private volatile boolean refusing;
    private final AtomicLong recordsAfterClose = new AtomicLong();
    private String ending;

    private RunDirectory(Builder b) throws IOException {
        this.config = b;
        this.startTime = b.clock.instant();
        this.path = createUnique(b.parent, DIR_TIME.format(startTime) + "-" + slug(b.slug));
        this.aggregator = new RunAggregator(b.slo).clientThresholds(b.clientThresholds);
        writeManifest(false, null);
        this.steps = Files.newBufferedWriter(path.resolve("steps.jsonl"));
        this.requests = new RequestLog(path.resolve("requests.jsonl"), b.flushIntervalMillis);
        this.hlogs = new HlogFiles(path, startTime.toEpochMilli());
        SummaryJson.write(path.resolve("summary.json"), result(false));
    }

    /** A builder for a run directory under {@code parent} (created if missing). */
    public static Builder builder(Path parent) {
        return new Builder(parent);
    }

    private static Path createUnique(Path runs, String base) throws IOException {
        Files.createDirectories(runs);
        for (int n = 1; ; n++) {
            Path p = runs.resolve(n == 1 ? base : base + "-" + n);
            try {
                return Files.createDirectory(p);
            } catch (FileAlreadyExistsException e) {
                // another run started in the same second: try the next suffix
            }
        }
    }

    static String slug(String s) {
        String t = s == null ? "" : s.toLowerCase(java.util.Locale.ROOT).replaceAll("[^a-z0-9]+", "-")
                .replaceAll("^-+|-+$", "");
        t = t.length() > 40 ? t.substring(0, 40) : t;
        return t.isEmpty() ? "run" : t;
    }

    /** The run's folder. */
    public Path path() {
        return path;
    }

    /** The run id: the folder's name. */
    public String runId() {
        return path.getFileName().toString();
    }

    public Instant startTime() {
        return startTime;
    }

    /** The aggregator fed by this directory's events (results and live progress). */
    public RunAggregator aggregator() {
        return aggregator;
    }

    /** The run result so far ({@code complete} as given); its {@link RunResult#directory()} is {@link #path()}. */
    public RunResult result(boolean complete) {
        return aggregator.result(runId(), complete, startTime, target()).withDirectory(path);
    }

    private String target() {
        return config.model.isEmpty() ? config.targetUrl : config.targetUrl + " " + config.model;
    }

    @Override
    public void stepStarted(StepInfo step, long stepStartNanos, WindowPlan plan) {
        aggregator.stepStarted(step, stepStartNanos, plan);
        writeStepLine(g -> {
            g.writeStringField("event", "step_started");
            g.writeNumberField("step_start_ns", stepStartNanos);
            g.writeFieldName("step");
            StepJson.writeInfo(g, step);
        });
    }

    @Override
    public void stepLoadStopping(StepInfo step) {
        aggregator.stepLoadStopping(step);
    }

    @Override
    public void requestFinished(RequestRecord record) {
        if (refusing) { // the writer has stopped: counted, never written (the load layer sends none; see recordsAfterClose)
            recordsAfterClose.incrementAndGet();
            return;
        }
        requests.append(record);
        aggregator.requestFinished(record);
    }

    @Override
    public void stepFinished(StepInfo step, StepWindow window, ClientHealth client) {
        aggregator.stepFinished(step, window, client);
        writeStepLine(g -> {
            g.writeStringField("event", "step_finished");
            g.writeStringField("label", step.label());
            g.writeFieldName("window");
            StepJson.writeWindow(g, window);
            if (client.measured()) {
                g.writeFieldName("client");
                StepJson.writeHealth(g, client);
            }
        });
        List<StepResult> done = aggregator.results();
        done.stream().filter(r -> r.info().label().equals(step.label())).reduce((a, b) -> b).ifPresent(hlogs::append);
        SummaryJson.write(path.resolve("summary.json"), result(false));
        flush();
    }

    /**
     * Records handed in after {@link #close()} began: not written to {@code requests.jsonl} nor aggregated. Zero
     * when the run was driven by a {@link dev.kneepoint.load.LoadRun}, which hands over no record after it
     * returned (docs/RELIABILITY.md "Every dispatched request has exactly one record"); a custom driver's late
     * records show here instead of vanishing.
     */
    public long recordsAfterClose() {
        return recordsAfterClose.get();
    }

    /** Waits (interruptibly, bounded) until every record handed in so far is written and flushed. */
    public void flush() {
        try {
            requests.sync(STEP_SYNC_TIMEOUT_MILLIS);
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
        }
    }

    private synchronized void writeStepLine(Json.Body body) {
        try {
            JsonGenerator g = Json.MAPPER.getFactory().createGenerator(steps);
            g.writeStartObject();
            body.write(g);
            g.writeEndObject();
            g.flush();
            steps.write('\n');
            steps.flush();
        } catch (IOException e) {
            throw new UncheckedIOException("Cannot write steps.jsonl: " + e.getMessage(), e);
        }
    }

    private void writeManifest(boolean complete, Instant endTime) {
        Json.writeAtomically(path.resolve("manifest.json"), g -> {
            g.writeStartObject();
            g.writeNumberField("format_version", SummaryJson.FORMAT_VERSION);
            g.writeStringField("run_id", runId());
            g.writeBooleanField("complete", complete);
            g.writeStringField("start_time", DateTimeFormatter.ISO_INSTANT.format(startTime));
            if (config.clockOrigin != null) {
                g.writeStringField("clock_origin", DateTimeFormatter.ISO_INSTANT.format(config.clockOrigin));
            }
            g.writeStringField("end_time", endTime == null ? null : DateTimeFormatter.ISO_INSTANT.format(endTime));
            g.writeStringField("ending", ending);
            g.writeStringField("target_url", config.targetUrl);
            g.writeStringField("model", config.model);
            g.writeFieldName("slo");
            StepJson.writeSlo(g, config.slo);
            g.writeFieldName("client_check");
            StepJson.writeThresholds(g, config.clientThresholds);
            Environment.write(g);
            g.writeFieldName("config");
            Json.MAPPER.writeValue(g, config.config);
            g.writeEndObject();
        });
    }

    /**
     * Writes what is queued, the final summary and the manifest with {@code complete: true}; idempotent.
     *
     * @throws UncheckedIOException when a file could not be written
     */
    @Override
    public void close() {
        close(true, "closed");
    }

    /**
     * Like {@link #close()}, but says whether the run completed (a stopped or interrupted run is not)
     * and why it ended; both go into {@code manifest.json} and {@code summary.json}.
     */
    public synchronized void close(boolean complete, String ending) {
        if (closed) {
            return;
        }
        closed = true;
        refusing = true;
        this.ending = ending;
        try {
            requests.close();
        } finally {
            hlogs.close();
            try {
                steps.close();
            } catch (IOException e) {
                throw new UncheckedIOException(e);
            }
            SummaryJson.write(path.resolve("summary.json"), result(complete));
            writeManifest(complete, config.clock.instant());
        }
    }

    /** Settings of a run directory; {@link #open()} validates them all at once and creates the folder. */
    public static final class Builder {
        private final Path parent;
        private String slug = "run";
        private String targetUrl = "";
        private String model = "";
        private Map<String, ?> config = Map.of();
        private Slo slo = Slo.none();
        private ClientThresholds clientThresholds = ClientThresholds.defaults();
        private Clock clock = Clock.systemUTC();
        private Instant clockOrigin;
        private long flushIntervalMillis = 200;

        private Builder(Path parent) {
            this.parent = parent;
        }

        /** Short name appended to the folder name (lower-cased, non-alphanumerics become {@code -}). */
        public Builder slug(String slug) { this.slug = slug; return this; }

        /**
         * The wall-clock instant of the run clock's zero ({@code RunClock} nanoseconds count from it), written to
         * the manifest as {@code clock_origin}: what aligns readings taken elsewhere (a GPU log on the server host)
         * with the requests. Unset, the manifest has none and such readings align on {@code start_time}.
         */
        public Builder clockOrigin(Instant origin) { this.clockOrigin = origin; return this; }

        public Builder targetUrl(String url) { this.targetUrl = url; return this; }

        public Builder model(String model) { this.model = model; return this; }

        /** Free-form configuration written under {@code config} in the manifest (must be JSON-serialisable). */
        public Builder config(Map<String, ?> config) { this.config = config; return this; }

        /** The SLO goodput is judged against (default: none). */
        public Builder slo(Slo slo) { this.slo = slo; return this; }

        /** The limits each step's client health is judged against (default {@link ClientThresholds#defaults()}). */
        public Builder clientThresholds(ClientThresholds thresholds) { this.clientThresholds = thresholds; return this; }

        /** Wall clock for the folder name and manifest times (default UTC system clock). */
        public Builder clock(Clock clock) { this.clock = clock; return this; }

        /** Longest time a finished request stays in memory before being flushed to the file (default 200 ms). */
        public Builder flushIntervalMillis(long millis) { this.flushIntervalMillis = millis; return this; }

        /**
         * Validates and creates the directory with its manifest.
         *
         * @throws IllegalArgumentException listing every invalid setting
         * @throws UncheckedIOException when the folder or its files cannot be created
         */
        public RunDirectory open() {
            List<String> problems = new java.util.ArrayList<>();
            if (parent == null) problems.add("parent folder must not be null");
            if (targetUrl == null) problems.add("target URL must not be null (use \"\" when none)");
            if (model == null) problems.add("model must not be null (use \"\" when none)");
            if (config == null) problems.add("config must not be null (use Map.of())");
            if (slo == null) problems.add("slo must not be null (use Slo.none())");
            if (clock == null) problems.add("clock must not be null");
            if (clientThresholds == null) problems.add("client thresholds must not be null (use ClientThresholds.defaults())");
            if (flushIntervalMillis < 1 || flushIntervalMillis > 1000) {
                problems.add("flush interval must be within 1..1000 ms, got " + flushIntervalMillis);
            }
            if (!problems.isEmpty()) {
                throw new IllegalArgumentException("Invalid run directory settings: " + String.join("; ", problems));
            }
            try {
                return new RunDirectory(this);
            } catch (IOException e) {
                throw new UncheckedIOException("Cannot create a run directory under " + parent + ": " + e.getMessage(), e);
            }
        }
    }
}
