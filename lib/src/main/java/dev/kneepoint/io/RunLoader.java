package dev.kneepoint.io;

import com.fasterxml.jackson.databind.JsonNode;
import dev.kneepoint.metrics.RequestRecord;
import dev.kneepoint.metrics.Slo;
import dev.kneepoint.metrics.StepAggregator;
import dev.kneepoint.metrics.StepInfo;
import dev.kneepoint.metrics.StepResult;
import dev.kneepoint.metrics.StepWindow;
import java.io.BufferedReader;
import java.io.IOException;
import java.io.RandomAccessFile;
import java.io.UncheckedIOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Instant;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;

/**
 * Reads a {@link RunDirectory} back and re-aggregates it from {@code requests.jsonl}: the numbers are
 * recomputed from the raw records with the step descriptions of {@code steps.jsonl} and the SLO of the
 * manifest, not copied from {@code summary.json}.
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
     * Loads the run in {@code dir}.
     *
     * @throws UncheckedIOException when {@code manifest.json} or {@code requests.jsonl} cannot be read
     */
    public static LoadedRun load(Path dir) {
        try {
            JsonNode manifest = Json.MAPPER.readTree(dir.resolve("manifest.json").toFile());
            Optional<JsonNode> summary = Files.exists(dir.resolve("summary.json"))
                    ? Optional.of(Json.MAPPER.readTree(dir.resolve("summary.json").toFile())) : Optional.empty();
            List<RequestRecord> records = new ArrayList<>();
            List<LoadedRun.LineProblem> problems = new ArrayList<>();
            boolean truncated = readRecords(dir.resolve("requests.jsonl"), records, problems);
            Map<String, StepPlan> plans = readSteps(dir.resolve("steps.jsonl"));
            Slo slo = StepJson.readSlo(manifest.get("slo"));
            List<StepResult> steps = aggregate(plans, records, slo);
            String target = manifest.path("target_url").asText("");
            String model = manifest.path("model").asText("");
            var result = new dev.kneepoint.metrics.RunResult(manifest.path("run_id").asText(dir.getFileName().toString()),
                    steps, manifest.path("complete").asBoolean(false),
                    Instant.parse(manifest.path("start_time").asText("1970-01-01T00:00:00Z")),
                    model.isEmpty() ? target : target + " " + model);
            return new LoadedRun(dir, manifest, records, problems, truncated, result, summary);
        } catch (IOException e) {
            throw new UncheckedIOException("Cannot load run " + dir + ": " + e.getMessage(), e);
        }
    }

    /** Streams the records of {@code requests.jsonl}; returns whether the last line was truncated. */
    static boolean readRecords(Path file, List<RequestRecord> out, List<LoadedRun.LineProblem> problems)
            throws IOException {
        if (!Files.exists(file)) {
            return false;
        }
        boolean endsWithNewline = endsWithNewline(file);
        long lineNumber = 0;
        String pending = null;
        long pendingNumber = 0;
        try (BufferedReader r = Files.newBufferedReader(file)) {
            for (String line; (line = r.readLine()) != null; ) {
                if (pending != null) {
                    parse(pending, pendingNumber, out, problems);
                }
                pending = line;
                pendingNumber = ++lineNumber;
            }
        }
        if (pending == null) {
            return false;
        }
        if (endsWithNewline) {
            parse(pending, pendingNumber, out, problems);
            return false;
        }
        List<LoadedRun.LineProblem> last = new ArrayList<>();
        parse(pending, pendingNumber, out, last);
        return !last.isEmpty(); // an unterminated line that parses is a complete record
    }

    private static void parse(String line, long number, List<RequestRecord> out, List<LoadedRun.LineProblem> problems) {
        if (line.isBlank()) {
            return;
        }
        try {
            out.add(RequestJson.read(Json.MAPPER.readTree(line)));
        } catch (IOException | RuntimeException e) {
            problems.add(new LoadedRun.LineProblem(number, e.getClass().getSimpleName() + ": "
                    + String.valueOf(e.getMessage()).lines().findFirst().orElse("")));
        }
    }

    private static boolean endsWithNewline(Path file) throws IOException {
        try (RandomAccessFile f = new RandomAccessFile(file.toFile(), "r")) {
            if (f.length() == 0) {
                return true;
            }
            f.seek(f.length() - 1);
            return f.read() == '\n';
        }
    }

    /** A step as steps.jsonl describes it: always its info and start, its window once it finished. */
    private record StepPlan(StepInfo info, long stepStartNanos, StepWindow window) {}

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
                        plans.put(info.label(), new StepPlan(info, n.path("step_start_ns").asLong(), null));
                    }
                    case "step_finished" -> plans.computeIfPresent(n.path("label").asText(),
                            (k, p) -> new StepPlan(p.info(), p.stepStartNanos(), StepJson.readWindow(n.path("window"))));
                    default -> { }
                }
            }
        }
        return plans;
    }

    private static List<StepResult> aggregate(Map<String, StepPlan> plans, List<RequestRecord> records, Slo slo) {
        Map<String, StepAggregator> aggregators = new LinkedHashMap<>();
        plans.forEach((label, p) -> aggregators.put(label, new StepAggregator(p.info(), slo)));
        Map<String, long[]> extents = new LinkedHashMap<>(); // label -> {first start, last end}
        for (RequestRecord r : records) {
            StepAggregator a = aggregators.computeIfAbsent(r.step(), label -> new StepAggregator(
                    new StepInfo(aggregators.size(), label, "unknown", -1, Double.NaN, "", -1, "", 0, -1, -1), slo));
            a.accept(r);
            long start = r.dispatchNanos() >= 0 ? r.dispatchNanos() : Math.max(0, r.endNanos());
            long[] e = extents.computeIfAbsent(r.step(), k -> new long[] {Long.MAX_VALUE, 0});
            e[0] = Math.min(e[0], start);
            e[1] = Math.max(e[1], Math.max(start, r.endNanos()));
        }
        List<StepResult> results = new ArrayList<>();
        aggregators.forEach((label, a) -> {
            StepPlan p = plans.get(label);
            long[] e = extents.getOrDefault(label, new long[] {0, 0});
            StepWindow w;
            if (p != null && p.window() != null) {
                w = p.window();
            } else if (p != null) {
                long start = p.stepStartNanos() + p.info().warmupNanos();
                long stepStart = p.stepStartNanos();
                w = new StepWindow(stepStart, start, Math.max(start, e[1]), false);
            } else {
                w = new StepWindow(e[0], e[0], Math.max(e[0], e[1]), false);
            }
            results.add(a.finish(w));
        });
        return results;
    }
}
