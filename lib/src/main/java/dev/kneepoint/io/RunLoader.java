package dev.kneepoint.io;

import com.fasterxml.jackson.databind.JsonNode;
import dev.kneepoint.metrics.BackgroundReadBack;
import dev.kneepoint.metrics.BackgroundResult;
import dev.kneepoint.metrics.ClientHealth;
import dev.kneepoint.metrics.ClientThresholds;
import dev.kneepoint.metrics.RequestRecord;
import dev.kneepoint.metrics.RunResult;
import dev.kneepoint.metrics.Slo;
import dev.kneepoint.metrics.StepAggregator;
import dev.kneepoint.metrics.StepInfo;
import dev.kneepoint.metrics.StepResult;
import dev.kneepoint.metrics.StepWindow;
import java.io.BufferedReader;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Instant;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Objects;
import java.util.Optional;
import java.util.function.Consumer;

/**
 * Reads a {@link RunDirectory} back and re-aggregates it from {@code requests.jsonl}: the numbers are
 * recomputed from the raw records with the step descriptions (and the client health) of {@code steps.jsonl}
 * and the SLO and client-check thresholds of the manifest, not copied from {@code summary.json}.
 *
 * <p>Two ways in: {@link #load} keeps every record in memory; {@link #stream} hands each record to a
 * consumer and keeps none (one pass, for runs of millions of requests).
 *
 * <p>The background stream named by the manifest's {@code config.background} (records with its tag, outside every
 * step of {@code steps.jsonl}) is measured apart, as the records stream past, by the live path's aggregation
 * ({@link BackgroundReadBack}): no background record is kept, and the {@link BackgroundResult} equals the one the
 * live run reported. A step whose window is known only once the file is read (a step that never finished, one
 * that {@code steps.jsonl} lacks) has its background measured by a second read of {@code requests.jsonl}, which
 * starts where the first background record that may touch such a step is (within 1 MiB): for a run that crashed
 * in its last step, that step's part of the file.
 *
 * <p>A crashed run loads too: it is marked incomplete; a truncated last line is tolerated
 * ({@link LoadedRun#truncatedLastLine()}); other malformed lines are reported with their line number in
 * {@link LoadedRun#problems()}, never silently skipped. A step that started but never finished gets a window
 * from its warm-up end to its last request's end, marked not completed. Records naming a step that
 * {@code steps.jsonl} lacks get a step of mode {@code unknown} spanning their own time range.
 */
public final class RunLoader {
    private RunLoader() {}

    /**
     * Loads the run in {@code dir}, keeping every record in memory ({@link LoadedRun#records()}). For a large
     * run prefer {@link #stream}, which hands each record to a consumer and keeps none.
     *
     * @throws UncheckedIOException when {@code manifest.json} or {@code requests.jsonl} cannot be read
     */
    public static LoadedRun load(Path dir) {
        List<RequestRecord> records = new ArrayList<>();
        StreamedRun s = stream(dir, records::add);
        return new LoadedRun(s.path(), s.manifest(), records, s.problems(), s.truncatedLastLine(), s.result(),
                s.summary());
    }

    /**
     * Reads the run in {@code dir} in one pass over {@code requests.jsonl}: each well-formed record is
     * re-aggregated into its step and then handed to {@code sink}, in file order, on the calling thread;
     * no record is kept. Lines are parsed straight into records (no tree, no per-line String), so the pass
     * costs one short-lived {@link RequestRecord} per line. Problems and truncation are reported as by
     * {@link #load}.
     *
     * <p>Threading: for a {@code requests.jsonl} of 4 MiB or more on a machine with two or more processors,
     * the file is read and parsed on a second platform thread ({@code kneepoint-parse}, started and ended by
     * this call) while the calling thread aggregates and runs {@code sink}; the records, their order, the
     * problems and every aggregated number are the same as on one thread. If the calling thread is
     * interrupted, the parsing thread is stopped and an {@link UncheckedIOException} is thrown (the
     * interrupt flag stays set).
     *
     * @throws UncheckedIOException when {@code manifest.json} or {@code requests.jsonl} cannot be read
     */
    public static StreamedRun stream(Path dir, Consumer<? super RequestRecord> sink) {
        return stream(dir, sink, RequestLines::readAuto);
    }

    /**
     * The manifest's {@code config.server} object: who the server said it was (docs/SERVERS.md "Server identity"),
     * with the GPUs telemetry sampled. Empty when {@code dir} has no readable {@code manifest.json}, or its manifest
     * has no such object (a run without preflight, or from before the identity was recorded). Reads only the manifest.
     */
    public static Optional<JsonNode> server(Path dir) {
        try {
            JsonNode s = Json.MAPPER.readTree(dir.resolve("manifest.json").toFile()).path("config").path("server");
            return s.isObject() ? Optional.of(s) : Optional.empty();
        } catch (IOException e) {
            return Optional.empty();
        }
    }

    /** As {@link #stream}, always on the calling thread alone: the reference the two-thread path must match. */
    static StreamedRun streamOnOneThread(Path dir, Consumer<? super RequestRecord> sink) {
        return stream(dir, sink, RequestLines::read);
    }

    /** As {@link #stream}, always with a parsing thread (even for a small file). */
    static StreamedRun streamReadingAhead(Path dir, Consumer<? super RequestRecord> sink) {
        return stream(dir, sink, RequestLines::readAhead);
    }

    /** How {@code requests.jsonl} is turned into records, from a byte offset: {@link RequestLines#read} or a variant. */
    @FunctionalInterface
    interface LineReader {
        boolean read(Path file, long from, RequestLines.Sink out, List<LoadedRun.LineProblem> problems)
                throws IOException;
    }

    /** As {@link #stream}, turning {@code requests.jsonl} into records with {@code reader} (tests watch the passes). */
    static StreamedRun stream(Path dir, Consumer<? super RequestRecord> sink, LineReader reader) {
        Objects.requireNonNull(sink, "sink");
        try {
            JsonNode manifest = Json.MAPPER.readTree(dir.resolve("manifest.json").toFile());
            Optional<JsonNode> summary = Files.exists(dir.resolve("summary.json"))
                    ? Optional.of(Json.MAPPER.readTree(dir.resolve("summary.json").toFile())) : Optional.empty();
            Map<String, StepPlan> plans = readSteps(dir.resolve("steps.jsonl"));
            JsonNode bg = manifest.path("config").path("background");
            Slo slo = StepJson.readSlo(manifest.get("slo"));
            BackgroundReadBack background = bg.isObject() ? new BackgroundReadBack(bg.path("tag").asText("bg"),
                    bg.path("rate_rps").isNumber() ? bg.path("rate_rps").asDouble() : Double.NaN,
                    bg.path("arrival").asText(""), stepRates(bg.path("step_rates_rps")), slo) : null;
            Aggregation agg = new Aggregation(plans, slo, StepJson.readThresholds(manifest.get("client_check")),
                    background);
            List<LoadedRun.LineProblem> problems = new ArrayList<>();
            long[] count = {0};
            Path requests = dir.resolve("requests.jsonl");
            boolean truncated = reader.read(requests, 0, (r, offset) -> {
                count[0]++;
                agg.accept(r, offset);
                sink.accept(r);
            }, problems);
            String target = manifest.path("target_url").asText("");
            String model = manifest.path("model").asText("");
            List<StepResult> steps = agg.finish();
            boolean complete = manifest.path("complete").asBoolean(false);
            Optional<BackgroundResult> backgroundResult = background == null ? Optional.empty()
                    : Optional.of(background.result(steps,
                            plans.values().stream().mapToLong(StepPlan::stepStartNanos).min().orElse(-1), complete,
                            (BackgroundReadBack.Resume) (from, again) -> readAgain(reader, requests, from, r -> {
                                if (agg.isBackground(r)) {
                                    again.accept(r);
                                }
                            })));
            RunResult result = new RunResult(manifest.path("run_id").asText(dir.getFileName().toString()),
                    steps, complete, Instant.parse(manifest.path("start_time").asText("1970-01-01T00:00:00Z")),
                    model.isEmpty() ? target : target + " " + model, backgroundResult, Optional.of(dir));
            return new StreamedRun(dir, manifest, count[0], problems, truncated, result, summary);
        } catch (IOException e) {
            throw new UncheckedIOException("Cannot load run " + dir + ": " + e.getMessage(), e);
        }
    }

    /**
     * The second pass over {@code requests.jsonl} for background steps whose windows only the end told, from the
     * line at byte {@code from} ({@link BackgroundReadBack#FIRST}: the start).
     */
    private static void readAgain(LineReader reader, Path file, long from, Consumer<RequestRecord> out) {
        try {
            // its problems were reported by the first pass
            reader.read(file, Math.max(0, from), (r, offset) -> out.accept(r), new ArrayList<>());
        } catch (IOException e) {
            throw new UncheckedIOException("Cannot read " + file + " again: " + e.getMessage(), e);
        }
    }

    private record StepPlan(StepInfo info, long stepStartNanos, StepWindow window, ClientHealth client) {}

    /** A background stream's per-step rates from the manifest (empty when it had one steady rate). */
    private static List<Double> stepRates(JsonNode n) {
        List<Double> rates = new ArrayList<>();
        if (n.isArray()) {
            n.forEach(r -> rates.add(r.isNumber() ? r.asDouble() : Double.NaN));
        }
        return rates;
    }

    private static Map<String, StepPlan> readSteps(Path file) throws IOException {
        Map<String, StepPlan> plans = new LinkedHashMap<>();
        if (!Files.exists(file)) {
            return plans;
        }
        try (BufferedReader r = Files.newBufferedReader(file)) {
            for (String line; (line = r.readLine()) != null; ) {
                JsonNode n;
                try {
                    n = Json.MAPPER.readTree(line);
                } catch (IOException e) {
                    continue; // only a crash-truncated last line can be malformed here
                }
                switch (n.path("event").asText()) {
                    case "step_started" -> {
                        StepInfo info = StepJson.readInfo(n.path("step"));
                        plans.put(info.label(), new StepPlan(info, n.path("step_start_ns").asLong(), null,
                                ClientHealth.NOT_MEASURED));
                    }
                    case "step_finished" -> plans.computeIfPresent(n.path("label").asText(),
                            (k, p) -> new StepPlan(p.info(), p.stepStartNanos(), StepJson.readWindow(n.path("window")),
                                    StepJson.readHealth(n.get("client"))));
                    default -> { }
                }
            }
        }
        return plans;
    }

    /** Re-aggregates records one at a time into their steps; the background apart, as it streams in. */
    private static final class Aggregation {
        private final Map<String, StepPlan> plans;
        private final Slo slo;
        private final ClientThresholds clientThresholds;
        private final BackgroundReadBack background;
        private final Map<String, StepAggregator> aggregators = new LinkedHashMap<>();
        private final Map<String, long[]> extents = new HashMap<>(); // label -> {first start, last end}

        Aggregation(Map<String, StepPlan> plans, Slo slo, ClientThresholds clientThresholds,
                    BackgroundReadBack background) {
            this.plans = plans;
            this.slo = slo;
            this.clientThresholds = clientThresholds;
            this.background = background;
            plans.forEach((label, p) -> aggregators.put(label, p.window() != null
                    ? StepAggregator.forKnownWindow(p.info(), slo, clientThresholds, p.window()) // counts, keeps no tokens
                    : StepAggregator.forUnknownWindow(p.info(), slo, clientThresholds)));
            if (background != null) {
                plans.values().stream().filter(p -> p.window() != null)
                        .forEach(p -> background.step(p.info(), p.stepStartNanos(), p.window()));
            }
        }

        /** A record of the run's background stream: its tag, outside every step of {@code steps.jsonl}. */
        boolean isBackground(RequestRecord r) {
            return background != null && !plans.containsKey(r.step()) && background.tag().equals(r.tag());
        }

        /** A record, with the byte offset of its line. */
        void accept(RequestRecord r, long offset) {
            if (isBackground(r)) {
                background.add(r, offset); // the run's background stream: measured apart, as live, and not kept
                return;
            }
            StepAggregator a = aggregators.get(r.step());
            if (a == null) {
                StepInfo info = new StepInfo(aggregators.size(), r.step(), "unknown", -1, Double.NaN, "", -1, "", 0, -1,
                        -1);
                a = StepAggregator.forUnknownWindow(info, slo, clientThresholds);
                aggregators.put(r.step(), a);
            }
            a.accept(r);
            RequestRecord.Timing t = r.timing();
            long start = t.dispatchNanos() >= 0 ? t.dispatchNanos() : Math.max(0, t.endNanos());
            long[] e = extents.get(r.step());
            if (e == null) {
                e = new long[] {Long.MAX_VALUE, 0};
                extents.put(r.step(), e);
            }
            e[0] = Math.min(e[0], start);
            e[1] = Math.max(e[1], Math.max(start, r.timing().endNanos()));
        }

        List<StepResult> finish() {
            List<StepResult> results = new ArrayList<>();
            aggregators.forEach((label, a) -> {
                StepPlan p = plans.get(label);
                long[] e = extents.getOrDefault(label, new long[] {0, 0});
                StepWindow w;
                if (p != null && p.window() != null) {
                    w = p.window();
                } else if (p != null) {
                    long start = p.stepStartNanos() + p.info().warmupNanos();
                    w = new StepWindow(p.stepStartNanos(), start, Math.max(start, e[1]), false);
                } else {
                    w = new StepWindow(e[0], e[0], Math.max(e[0], e[1]), false);
                }
                results.add(a.finish(w, p != null && p.client() != null ? p.client() : ClientHealth.NOT_MEASURED));
            });
            return results;
        }
    }
}
