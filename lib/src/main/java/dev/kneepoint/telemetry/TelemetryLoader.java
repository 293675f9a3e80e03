package dev.kneepoint.telemetry;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import java.io.BufferedReader;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.TreeMap;

/** Reads {@code telemetry.jsonl} (see {@link TelemetryLog} for the format) back into {@link TelemetryData}. */
public final class TelemetryLoader {
    /** The file's name in a run directory. */
    public static final String FILE = "telemetry.jsonl";
    private static final ObjectMapper MAPPER = new ObjectMapper();

    private TelemetryLoader() {}

    /**
     * Reads {@code runDirectory/telemetry.jsonl}; a run without it (telemetry off, or an older run) gives
     * {@link TelemetryData#empty()}. Unreadable lines are reported in {@link TelemetryData#problems()}.
     *
     * @throws UncheckedIOException when the file exists but cannot be read
     */
    public static TelemetryData load(Path runDirectory) {
        return read(runDirectory, true);
    }

    /**
     * Only the status lines of {@code runDirectory/telemetry.jsonl} (sample lines are skipped unparsed): what a
     * check of the sources' states needs, without holding a long run's samples.
     *
     * @throws UncheckedIOException when the file exists but cannot be read
     */
    public static List<TelemetryStatus> statuses(Path runDirectory) {
        return read(runDirectory, false).statuses();
    }

    private static TelemetryData read(Path runDirectory, boolean withSamples) {
        Path file = runDirectory.resolve(FILE);
        if (!Files.exists(file)) {
            return TelemetryData.empty();
        }
        List<TelemetrySample> samples = new ArrayList<>();
        List<TelemetryStatus> statuses = new ArrayList<>();
        List<String> problems = new ArrayList<>();
        try (BufferedReader r = Files.newBufferedReader(file)) {
            String line;
            long n = 0;
            while ((line = r.readLine()) != null) {
                n++;
                if (line.isBlank() || !withSamples && !line.contains("\"status\"")) {
                    continue;
                }
                try {
                    JsonNode j = MAPPER.readTree(line);
                    if (j.has("telemetry_format_version")) {
                        int v = j.get("telemetry_format_version").asInt();
                        if (v > TelemetryLog.FORMAT_VERSION) {
                            problems.add("line " + n + ": format version " + v + " is newer than this reader's "
                                    + TelemetryLog.FORMAT_VERSION);
                        }
                    } else if (j.has("status")) {
                        statuses.add(new TelemetryStatus(j.get("t_ns").asLong(), j.get("src").asText(),
                                j.get("status").asText(), j.path("reason").asText("")));
                    } else {
                        samples.add(sample(j));
                    }
                } catch (IOException | RuntimeException e) {
                    problems.add("line " + n + ": " + e.getMessage());
                }
            }
        } catch (IOException e) {
            throw new UncheckedIOException("Cannot read " + file + ": " + e.getMessage(), e);
        }
        return new TelemetryData(samples, statuses, problems);
    }

    private static TelemetrySample sample(JsonNode j) {
        for (String f : List.of("t_ns", "src", "name", "kind", "value")) {
            if (!j.has(f)) {
                throw new IllegalArgumentException("missing field '" + f + "'");
            }
        }
        JsonNode v = j.get("value");
        double value = v.isNumber() ? v.asDouble() : switch (v.asText()) {
            case "NaN" -> Double.NaN;
            case "+Inf" -> Double.POSITIVE_INFINITY;
            case "-Inf" -> Double.NEGATIVE_INFINITY;
            default -> throw new IllegalArgumentException("bad value '" + v.asText() + "'");
        };
        Map<String, String> labels = new TreeMap<>();
        j.path("labels").fields().forEachRemaining(e -> labels.put(e.getKey(), e.getValue().asText()));
        TelemetrySample.Kind kind = j.get("kind").asText().equals("counter")
                ? TelemetrySample.Kind.COUNTER : TelemetrySample.Kind.GAUGE;
        return new TelemetrySample(j.get("t_ns").asLong(), j.get("src").asText(), j.get("name").asText(), labels,
                kind, value, j.path("raw").asText(""));
    }
}
