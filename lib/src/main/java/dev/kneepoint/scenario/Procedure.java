package dev.kneepoint.scenario;

import dev.kneepoint.analysis.Knee;
import dev.kneepoint.analysis.KneeOptions;
import dev.kneepoint.analysis.KneeReport;
import dev.kneepoint.analysis.Tables;
import dev.kneepoint.client.TargetConfig;
import dev.kneepoint.io.RunLoader;
import dev.kneepoint.metrics.RequestRecord;
import dev.kneepoint.metrics.RunResult;
import dev.kneepoint.metrics.StepResult;
import dev.kneepoint.request.Workload;
import dev.kneepoint.sweep.Sweep;
import dev.kneepoint.workload.Calibration;
import dev.kneepoint.workload.Workloads;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.net.InetAddress;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.time.Instant;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

/**
 * The reusable measurement procedure, as one call:
 *
 * <ol>
 *   <li><b>Environment</b>: host, JVM and target facts (each run's manifest holds them too).</li>
 *   <li><b>Warm-up</b>: a fixed set of small requests (16-token prompts, 8-token answers, 2 users), excluded.</li>
 *   <li><b>Baseline</b>: one user, the main prompt and output lengths.</li>
 *   <li><b>Ladder</b>: the concurrency ladder with the main lengths.</li>
 *   <li><b>Longer prompts</b>: the ladder again, prompts × {@code longFactor}.</li>
 *   <li><b>Longer outputs</b>: the ladder again, outputs × {@code longFactor}.</li>
 *   <li><b>Soak</b>: one long step at the operating point, analysed for drift and failure bursts ({@link SoakDrift}).</li>
 *   <li><b>Joint analysis</b>: TTFT, ITL, tails and total token throughput of stages 3–6 side by side.</li>
 *   <li><b>Operating zone</b>: the knee and efficient zone of the main ladder under the SLOs.</li>
 * </ol>
 *
 * Blocking; interrupting the thread stops the stage in flight and the procedure with an
 * {@link IllegalStateException} naming the stage (the runs already written stay on disk).
 */
public final class Procedure {
    private Procedure() {}

    /** Runs the nine stages against {@code target}. */
    public static ProcedureResult run(TargetConfig target, ProcedureOptions o) {
        Instant started = Instant.now();
        Calibration cal = Calibration.of(target);
        Map<String, String> env = environment(target, cal, o);
        Path dirs = o.outputDir();

        RunResult warmup = sweep(target, o, "warmup", null, List.of(2), synthetic(cal, o, 16, 8, o.seed() + 1))
                .maxRequestsPerStep(o.warmupRequests()).stepDuration(Duration.ofSeconds(60)).warmup(Duration.ZERO).run();
        check("warm-up", warmup);
        RunResult baseline = stage(target, o, "baseline", dirs, List.of(1), o.promptTokens(), o.outputTokens(), cal);
        RunResult ladder = stage(target, o, "ladder", dirs, o.concurrency(), o.promptTokens(), o.outputTokens(), cal);
        RunResult longPrompts = stage(target, o, "long-prompts", dirs, o.concurrency(),
                o.promptTokens() * o.longFactor(), o.outputTokens(), cal);
        RunResult longOutputs = stage(target, o, "long-outputs", dirs, o.concurrency(), o.promptTokens(),
                o.outputTokens() * o.longFactor(), cal);

        KneeReport knee = Knee.analyze(ladder, KneeOptions.builder().slo(o.slo()).build());
        int soakUsers = o.soakConcurrency() > 0 ? o.soakConcurrency() : operatingPoint(knee, o.concurrency());
        Path soakParent = dirs != null ? dirs : temporaryFolder();
        RunResult soak = sweep(target, o, "soak", soakParent, List.of(soakUsers),
                synthetic(cal, o, o.promptTokens(), o.outputTokens(), o.seed() + 7))
                .stepDuration(o.soakDuration()).run();
        check("soak", soak);
        StepResult soakStep = soak.steps().get(0);
        List<RequestRecord> records = RunLoader.load(soak.directory().orElse(soakParent.resolve(soak.runId()))).records().stream()
                .filter(r -> r.step().equals(soakStep.info().label())).toList();
        DriftReport drift = SoakDrift.analyze(records, soakStep.window(), o.soakInterval(), o.drift());
        var series = Tables.timeSeries(records, o.soakInterval());

        return ProcedureResult.of(env, cal, o, started, warmup, baseline, ladder, longPrompts, longOutputs, soak,
                soakUsers, drift, series, knee);
    }

    /** The soak's users: the recommended step, else the knee, else the middle of the ladder. */
    static int operatingPoint(KneeReport knee, List<Integer> ladder) {
        String step = knee.recommended().orElse(knee.knee().orElse(null));
        if (step != null && step.startsWith("c=")) {
            return Integer.parseInt(step.substring(2));
        }
        return ladder.get(ladder.size() / 2);
    }

    private static RunResult stage(TargetConfig target, ProcedureOptions o, String name, Path dirs, List<Integer> levels,
                                   int in, int out, Calibration cal) {
        RunResult r = sweep(target, o, name, dirs, levels, synthetic(cal, o, in, out, o.seed())).run();
        check(name, r);
        return r;
    }

    private static Sweep sweep(TargetConfig target, ProcedureOptions o, String name, Path dir, List<Integer> levels,
                               Workload workload) {
        return Sweep.of(target).concurrency(levels.stream().mapToInt(Integer::intValue).toArray()).workload(workload)
                .stepDuration(o.stepDuration()).warmup(o.warmup()).slo(o.slo()).seed(o.seed())
                .name("procedure-" + name).outputDir(dir);
    }

    private static Workload synthetic(Calibration cal, ProcedureOptions o, int in, int out, long seed) {
        return Workloads.synthetic().inputTokens(in).outputTokens(out).output(o.outputControl())
                .calibrator(cal.calibrator()).seed(seed).build();
    }

    private static void check(String stage, RunResult r) {
        if (Thread.currentThread().isInterrupted() || !r.complete()) {
            throw new IllegalStateException("procedure stopped in stage '" + stage + "' (run " + r.runId()
                    + " kept, complete=" + r.complete() + ")");
        }
    }

    private static Path temporaryFolder() {
        try {
            return Files.createTempDirectory("kneepoint-soak");
        } catch (IOException e) {
            throw new UncheckedIOException("cannot create a folder for the soak's records: " + e.getMessage(), e);
        }
    }

    /** Stage 1: what was measured, on what, from where. */
    static Map<String, String> environment(TargetConfig target, Calibration cal, ProcedureOptions o) {
        Runtime rt = Runtime.getRuntime();
        Map<String, String> m = new LinkedHashMap<>();
        m.put("host", hostName());
        m.put("os", System.getProperty("os.name") + " " + System.getProperty("os.version") + " "
                + System.getProperty("os.arch"));
        m.put("cpus", Integer.toString(rt.availableProcessors()));
        m.put("jvm", System.getProperty("java.vm.name") + " " + System.getProperty("java.version") + " ("
                + System.getProperty("java.vendor") + ")");
        m.put("max_heap_mb", Long.toString(rt.maxMemory() >> 20));
        m.put("target_url", target.baseUrl().toString());
        m.put("model", target.model());
        m.put("api", target.apiKind().toString());
        m.put("streaming", Boolean.toString(target.stream()));
        m.put("prompt_lengths", cal.description());
        m.put("output_control", o.outputControl().describe());
        m.put("slo", o.slo().toString());
        return m;
    }

    private static String hostName() {
        try {
            return InetAddress.getLocalHost().getHostName();
        } catch (IOException e) {
            return "unknown";
        }
    }
}
