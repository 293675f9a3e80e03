package dev.kneepoint.cli;

import dev.kneepoint.Kneepoint;
import dev.kneepoint.client.TargetConfig;
import dev.kneepoint.metrics.ClientHealth;
import dev.kneepoint.metrics.RunResult;
import dev.kneepoint.metrics.StepResult;
import dev.kneepoint.sweep.Sweep;
import dev.kneepoint.telemetry.Telemetry;
import java.nio.file.Path;
import java.time.Duration;
import java.util.Locale;

/**
 * Closed and open loop, one after another in <b>one JVM</b>, so that their client CPU per token can be compared
 * without the load of a shared machine drifting between processes (docs/PERFORMANCE.md "Closed-loop client CPU").
 * Each variant is one sweep with the CLI's defaults (transport, telemetry on, run directory written, no warm-up
 * requests); the figure is the step's own client self-check, process CPU over the window
 * ({@link ClientHealth#cpuNanos()}), divided by the tokens that arrived in the window, and the CPU of the
 * process's threads by group over the whole sweep.
 *
 * <p>Usage: {@code LoopCpuBench URL ROUNDS VARIANT[,VARIANT...] [OUT_DIR=/tmp/kneepoint-loopcpu] [MODEL=sim-fast]}, where
 * a variant is {@code cUSERS:REQUESTS} (closed loop, e.g. {@code c8:400}), {@code nUSERS:REQUESTS} (the same
 * without telemetry) or {@code rRATE:SECONDS} (open loop, constant arrivals, e.g. {@code r28:14}); 128 prompt
 * and 128 output tokens. Round 0 is the JVM's first: it carries the JIT.
 */
public final class LoopCpuBench {
    private LoopCpuBench() {
    }

    public static void main(String[] args) {
        if (args.length < 3) {
            System.err.println("usage: LoopCpuBench URL ROUNDS VARIANT[,VARIANT...] [OUT_DIR] [MODEL]   "
                    + "(variants: c8:400 closed, n8:400 closed without telemetry, r28:14 open)");
            System.exit(2);
        }
        TargetConfig target = Kneepoint.target(args[0], args.length > 4 ? args[4] : "sim-fast");
        int rounds = Integer.parseInt(args[1]);
        String[] variants = args[2].split(",");
        Path out = Path.of(args.length > 3 ? args[3] : "/tmp/kneepoint-loopcpu");
        for (int r = 0; r < rounds; r++) {
            for (String v : variants) {
                Sweep sweep = sweep(target, v, out);
                ThreadCpu before = ThreadCpu.snapshot();
                long wall0 = System.nanoTime();
                RunResult result = sweep.run();
                ThreadCpu after = ThreadCpu.snapshot();
                double wallS = (System.nanoTime() - wall0) / 1e9;
                for (StepResult step : result.steps()) {
                    ClientHealth h = step.clientCheck().health();
                    double tokens = step.rates().outputTokensPerS() * step.windowS();
                    System.out.printf(Locale.ROOT, "round=%d variant=%s window_s=%.1f tokens_per_s=%.0f"
                                    + " client_cpu_us_per_token=%.2f gc=%d | sweep threads: %s%n", r, v, step.windowS(),
                            step.rates().outputTokensPerS(), h.cpuNanos() / 1e3 / tokens, h.gcCount(),
                            after.since(before, wallS));
                }
            }
        }
        System.exit(0); // the telemetry scraper's HTTP client keeps idle threads for a minute
    }

    private static Sweep sweep(TargetConfig target, String variant, Path out) {
        String[] p = variant.substring(1).split(":");
        if (p.length != 2) {
            throw new IllegalArgumentException("variant '" + variant + "': expected c8:400, n8:400 or r28:14");
        }
        Sweep s = Kneepoint.sweep(target).seed(42).inputTokens(128).outputTokens(128).warmup(Duration.ZERO)
                .outputDir(out).name("loopcpu-" + variant.replace(':', '_'));
        switch (variant.charAt(0)) {
            case 'c', 'n' -> s.concurrency(Integer.parseInt(p[0])).maxRequestsPerStep(Long.parseLong(p[1]))
                    .stepDuration(Duration.ofSeconds(600));
            case 'r' -> s.rates(Double.parseDouble(p[0])).arrival("constant")
                    .stepDuration(Duration.ofSeconds(Long.parseLong(p[1])));
            default -> throw new IllegalArgumentException("variant '" + variant + "': starts with c, n or r");
        }
        if (variant.charAt(0) == 'n') {
            s.telemetry(Telemetry.off());
        }
        return s;
    }
}
