package dev.kneepoint.cli.peers;

import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;

/**
 * A tool's CPU while the server generated tokens for it, from {@code bench/cpu_sampler.py}'s samples of the
 * tool's process-tree CPU beside the simulator's {@code vllm:generation_tokens_total}, on one clock.
 *
 * <p>The window runs from the first sample at which the counter has risen above its starting value to the
 * last sample before it reached its final value: strictly inside the load, so start-up, dataset preparation,
 * the drain and report writing are left out whatever their size, which a difference of two runs of
 * different lengths (the marginal method) only cancels when they are the same in both runs.
 *
 * @param cpuS CPU of the tool's process tree inside the window, s
 * @param tokens tokens the server generated inside the window
 * @param seconds the window's length, s
 * @param samples samples read
 */
record LoadPhase(double cpuS, long tokens, double seconds, int samples) {
    /** Fewer tokens than this in the window give no figure: one tick of CPU (10 ms) would be too large a share. */
    static final long MIN_TOKENS = 2_000;

    /** CPU per generated token inside the window, ns; NaN when the window is too short to say. */
    public double cpuNsPerToken() {
        return tokens < MIN_TOKENS ? Double.NaN : cpuS * 1e9 / tokens;
    }

    /**
     * Reads {@code cpu_samples.tsv} (header, then {@code t_s cpu_s generated_tokens} per line); null when the
     * file is absent or holds no window in which the counter rose.
     */
    public static LoadPhase read(Path file) throws IOException {
        if (!Files.exists(file)) {
            return null;
        }
        List<double[]> rows = new ArrayList<>();
        for (String line : Files.readAllLines(file, StandardCharsets.UTF_8)) {
            String[] f = line.strip().split("\t");
            if (f.length != 3 || !Character.isDigit(f[0].charAt(0)) || f[2].equals("nan")) {
                continue; // header, or a sample taken while /metrics did not answer
            }
            rows.add(new double[] {Double.parseDouble(f[0]), Double.parseDouble(f[1]), Double.parseDouble(f[2])});
        }
        return of(rows);
    }

    /** The window over {@code rows} ({t, cpu, tokens} in time order); null when the counter never rose twice. */
    static LoadPhase of(List<double[]> rows) {
        if (rows.size() < 3) {
            return null;
        }
        double startTokens = rows.get(0)[2];
        double endTokens = rows.get(rows.size() - 1)[2];
        int first = -1;
        int last = -1;
        for (int i = 0; i < rows.size(); i++) {
            if (first < 0 && rows.get(i)[2] > startTokens) {
                first = i;
            }
            if (rows.get(i)[2] < endTokens) {
                last = i;
            }
        }
        if (first < 0 || last <= first) {
            return null;
        }
        double[] a = rows.get(first);
        double[] b = rows.get(last);
        return new LoadPhase(b[1] - a[1], Math.round(b[2] - a[2]), b[0] - a[0], rows.size());
    }
}
