package dev.kneepoint.cli.peers;

import dev.kneepoint.io.PeerPoint;
import dev.kneepoint.io.PeerResults;
import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Properties;
import java.util.stream.Stream;

/**
 * Reads one run directory written by {@code bench/peers.sh}: {@code run.properties} (tool, kind, load, rc,
 * loadavg), {@code time.txt} ({@code /usr/bin/time -f "%U %S %e"}) and the tool's own output ({@link PeerResults}):
 * Kneepoint's run directory ({@code summary.json}, {@code requests.jsonl}), AIPerf's
 * {@code out/profile_export_aiperf.json} and {@code out/profile_export.jsonl} (checked with AIPerf 0.13.0),
 * GuideLLM's {@code benchmarks.json} (checked with GuideLLM 0.8.1), {@code vllm bench serve}'s
 * {@code --save-result --save-detailed} file {@code vllm.json} (checked with vLLM 0.33.0). A missing or unreadable output gives a
 * run without points and with {@link PeerRun#error()} set, never an exception.
 */
public final class PeerOutputs {
    private PeerOutputs() {}

    /** Every run directory under {@code resultsDir/runs}, in name order. */
    public static List<PeerRun> readAll(Path resultsDir) throws IOException {
        Path runs = resultsDir.resolve("runs");
        if (!Files.isDirectory(runs)) {
            throw new IOException("no runs/ folder in " + resultsDir + "; run bin/kneepoint bench --peers first");
        }
        try (Stream<Path> s = Files.list(runs)) {
            List<Path> dirs = s.filter(Files::isDirectory).sorted().toList();
            List<PeerRun> out = new ArrayList<>();
            for (Path d : dirs) {
                out.add(read(d));
            }
            return out;
        }
    }

    /** One run directory. */
    public static PeerRun read(Path dir) throws IOException {
        Properties p = new Properties();
        try (var r = Files.newBufferedReader(dir.resolve("run.properties"), StandardCharsets.UTF_8)) {
            p.load(r);
        }
        String tool = p.getProperty("tool", "?");
        String kind = p.getProperty("kind", "?");
        String load = p.getProperty("load", "");
        int rc = Integer.parseInt(p.getProperty("rc", "-1").strip());
        double[] time = readTime(dir.resolve("time.txt"));
        List<PeerPoint> points = List.of();
        String error = null;
        try {
            points = switch (tool) {
                case "kneepoint" -> PeerResults.kneepoint(dir);
                case "aiperf" -> List.of(PeerResults.aiperf(dir.resolve("out"), kind, load));
                case "guidellm" -> PeerResults.guidellm(dir.resolve("benchmarks.json"));
                case "vllm" -> List.of(PeerResults.vllm(dir.resolve("vllm.json"), kind, load));
                default -> throw new IOException("unknown tool '" + tool + "'");
            };
        } catch (IOException | RuntimeException e) {
            error = e.getClass().getSimpleName() + ": " + e.getMessage();
        }
        return new PeerRun(dir.getFileName().toString(), tool, kind, load, rc, time[0], time[1], time[2],
                p.getProperty("loadavg", ""), points, error, LoadPhase.read(dir.resolve("cpu_samples.tsv")));
    }

    /** user, sys, wall seconds from the last line of {@code /usr/bin/time -f "%U %S %e"} output; NaN if absent. */
    static double[] readTime(Path file) throws IOException {
        double[] nan = {Double.NaN, Double.NaN, Double.NaN};
        if (!Files.exists(file)) {
            return nan;
        }
        List<String> lines = Files.readAllLines(file, StandardCharsets.UTF_8).stream()
                .filter(l -> l.matches("\\s*[0-9.]+ [0-9.]+ [0-9.]+\\s*")).toList();
        if (lines.isEmpty()) {
            return nan;
        }
        String[] f = lines.get(lines.size() - 1).strip().split(" ");
        return new double[] {Double.parseDouble(f[0]), Double.parseDouble(f[1]), Double.parseDouble(f[2])};
    }
}
