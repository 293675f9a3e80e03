package dev.kneepoint.telemetry;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.time.Instant;
import java.time.LocalDateTime;
import java.time.ZoneId;
import java.time.format.DateTimeParseException;
import java.util.ArrayList;
import java.util.List;
import java.util.Optional;

/**
 * Adds a GPU log written on another machine to a run's telemetry, on the run's clock. When the GPU sits on the
 * server host and no DCGM exporter is reachable, log it there during the run:
 *
 * <pre>
 * nvidia-smi --query-gpu=timestamp,index,utilization.gpu,memory.used,memory.total,power.draw,temperature.gpu,clocks.sm \
 *     --format=csv -lms 500 -f gpu.csv
 * </pre>
 *
 * then {@code Kneepoint} / {@code bin/kneepoint import-gpu RUN_DIR gpu.csv --zone ZONE} appends its rows to the run's
 * {@code telemetry.jsonl} as {@code gpu} samples, as the local sampler writes them plus a {@code host} label (default
 * {@code server}, so they never mix with a local GPU's series), and the per-step join and the overlays show them. nvidia-smi's {@code timestamp} is the GPU host's
 * local time without a zone ({@code zone} says which) and has millisecond resolution; the run clock's zero is the
 * manifest's {@code clock_origin} (runs written before it was recorded: {@code start_time}, a few ms later). The
 * two hosts' clocks must agree (NTP): a skew of S ms shifts every GPU reading by S ms against the requests.
 * Rows before the run's zero or after its end are counted, not imported. A file is imported once: a second import
 * of the same file (same name and size) is refused, so samples are never doubled.
 */
public final class GpuLogImport {
    private static final ObjectMapper MAPPER = new ObjectMapper();
    private static final String STATUS = "imported";
    /** The {@code host} label of imported samples unless another is given. */
    public static final String DEFAULT_HOST = "server";

    /**
     * What an import did.
     *
     * @param rows       data rows read from the file
     * @param imported   rows within the run, whose samples were added
     * @param samples    samples added
     * @param outsideRun rows before the run's zero or after its end, left out
     * @param problems   rows that did not parse or had no timestamp, as {@code "line N: reason"} (left out)
     * @param alignedOn  {@code clock_origin} or {@code start_time}: the manifest field the timestamps were aligned on
     */
    public record Result(int rows, int imported, long samples, int outsideRun, List<String> problems, String alignedOn) {
        public Result {
            problems = List.copyOf(problems);
        }
    }

    private GpuLogImport() {}

    /**
     * Imports {@code csv} (nvidia-smi {@code --format=csv} with its header and a {@code timestamp} column) into the
     * run directory's telemetry, reading the timestamps as local time in {@code zone}.
     *
     * @throws IllegalArgumentException when the directory is not a run, the file has no header or no timestamp or
     *         index column, or it was imported already; nothing is written then
     * @throws UncheckedIOException     when a file cannot be read or written
     */
    public static Result into(Path runDirectory, Path csv, ZoneId zone) {
        return into(runDirectory, csv, zone, DEFAULT_HOST);
    }

    /**
     * As {@link #into(Path, Path, ZoneId)}, labelling every sample {@code host=}{@code host}, so the series of GPUs
     * on different machines stay apart ({@code gpu:gpu_util_pct{gpu=0,host=server}} next to the local sampler's
     * {@code gpu:gpu_util_pct{gpu=0}}), also when logs of several hosts are imported into one run.
     *
     * @throws IllegalArgumentException also when {@code host} is blank or holds {@code , = { }}
     */
    public static Result into(Path runDirectory, Path csv, ZoneId zone, String host) {
        if (host == null || host.isBlank() || !host.strip().equals(host) || host.matches(".*[,={}].*")) {
            throw new IllegalArgumentException("host label '" + host + "' must be a plain name (no spaces at its ends,"
                    + " no , = { }), e.g. server or gpu-node-1");
        }
        Path manifestFile = runDirectory.resolve("manifest.json");
        if (!Files.isRegularFile(manifestFile)) {
            throw new IllegalArgumentException(runDirectory + " is not a run directory (no manifest.json): give the"
                    + " folder a run or demo wrote");
        }
        JsonNode manifest = read(manifestFile);
        boolean hasOrigin = manifest.hasNonNull("clock_origin");
        Instant origin = parseInstant(manifest.path(hasOrigin ? "clock_origin" : "start_time").asText());
        long endNanos = manifest.hasNonNull("end_time")
                ? Duration.between(origin, parseInstant(manifest.get("end_time").asText())).toNanos() : Long.MAX_VALUE;
        List<String> lines = readLines(csv);
        int first = 0;
        while (first < lines.size() && lines.get(first).isBlank()) {
            first++;
        }
        if (first == lines.size() || !NvidiaSmiCsv.isHeader(lines.get(first))) {
            throw new IllegalArgumentException(csv + " has no header line: log with --format=csv (not noheader), e.g. "
                    + "nvidia-smi --query-gpu=timestamp,index,utilization.gpu,memory.used,power.draw --format=csv -lms 500");
        }
        String header = lines.get(first);
        NvidiaSmiCsv layout = NvidiaSmiCsv.ofHeader(header);
        if (!layout.hasTimestamp()) {
            throw new IllegalArgumentException(csv + " has no timestamp column: put timestamp first in --query-gpu"
                    + " (--query-gpu=timestamp,index,...) so its rows can be placed on the run's clock");
        }
        String mark = csv.getFileName() + " (" + size(csv) + " bytes)";
        if (alreadyImported(runDirectory, mark)) {
            throw new IllegalArgumentException(mark + " was imported into " + runDirectory + " already; importing it"
                    + " again would double its samples");
        }
        int rows = 0;
        int imported = 0;
        int outside = 0;
        long samples = 0;
        List<String> problems = new ArrayList<>();
        try (TelemetryLog log = new TelemetryLog(runDirectory.resolve(TelemetryLoader.FILE))) {
            for (int i = first + 1; i < lines.size(); i++) {
                String line = lines.get(i);
                if (line.isBlank() || line.equals(header)) {
                    continue; // nvidia-smi repeats nothing, but a concatenated log may
                }
                rows++;
                Optional<LocalDateTime> ts = layout.timestamp(line);
                if (ts.isEmpty()) {
                    problems.add("line " + (i + 1) + ": no readable timestamp");
                    continue;
                }
                long t = Duration.between(origin, ts.get().atZone(zone).toInstant()).toNanos();
                if (t < 0 || t > endNanos) {
                    outside++;
                    continue;
                }
                try {
                    List<TelemetrySample> s = withHost(layout.samples(line, t), host);
                    log.write(s);
                    samples += s.size();
                    imported++;
                } catch (IllegalArgumentException e) {
                    problems.add("line " + (i + 1) + ": " + e.getMessage());
                }
            }
            log.write(new TelemetryStatus(0, "gpu", STATUS, mark + ": " + imported + " of " + rows + " rows, zone " + zone
                    + ", host " + host + ", aligned on " + (hasOrigin ? "clock_origin" : "start_time")));
            log.flush();
            if (log.failure() != null) {
                throw new UncheckedIOException("Cannot write " + runDirectory.resolve(TelemetryLoader.FILE) + ": "
                        + log.failure().getMessage(), log.failure());
            }
        }
        return new Result(rows, imported, samples, outside, problems, hasOrigin ? "clock_origin" : "start_time");
    }

    private static List<TelemetrySample> withHost(List<TelemetrySample> samples, String host) {
        List<TelemetrySample> out = new ArrayList<>(samples.size());
        for (TelemetrySample x : samples) {
            java.util.Map<String, String> labels = new java.util.HashMap<>(x.labels());
            labels.put("host", host);
            out.add(new TelemetrySample(x.tNanos(), x.source(), x.name(), labels, x.kind(), x.value(), x.raw()));
        }
        return out;
    }

    private static boolean alreadyImported(Path runDirectory, String mark) {
        return TelemetryLoader.statuses(runDirectory).stream().anyMatch(s -> s.source().equals("gpu") && s.status().equals(STATUS)
                && s.reason().startsWith(mark + ":"));
    }

    private static JsonNode read(Path file) {
        try {
            return MAPPER.readTree(file.toFile());
        } catch (IOException e) {
            throw new UncheckedIOException("Cannot read " + file + ": " + e.getMessage(), e);
        }
    }

    private static List<String> readLines(Path file) {
        try {
            return Files.readAllLines(file);
        } catch (IOException e) {
            throw new UncheckedIOException("Cannot read " + file + ": " + e.getMessage(), e);
        }
    }

    private static long size(Path file) {
        try {
            return Files.size(file);
        } catch (IOException e) {
            throw new UncheckedIOException("Cannot read " + file + ": " + e.getMessage(), e);
        }
    }

    private static Instant parseInstant(String s) {
        try {
            return Instant.parse(s);
        } catch (DateTimeParseException e) {
            throw new IllegalArgumentException("unreadable time '" + s + "' in manifest.json", e);
        }
    }
}
