package dev.kneepoint;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;
import static org.assertj.core.api.Assertions.within;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import dev.kneepoint.io.LoadedRun;
import dev.kneepoint.io.RunLoader;
import dev.kneepoint.metrics.RequestRecord;
import dev.kneepoint.metrics.RunResult;
import dev.kneepoint.metrics.StepResult;
import dev.kneepoint.sim.SimConfig;
import dev.kneepoint.sim.Simulator;
import dev.kneepoint.workload.Trace;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.List;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** A trace replayed against the embedded simulator: instants, no coordinated omission, lengths, prefix cache. */
class TraceReplayTest {
    @TempDir
    Path dir;

    private Path write(List<String> lines) throws Exception {
        Path f = dir.resolve("trace-" + System.nanoTime() + ".jsonl");
        Files.write(f, lines);
        return f;
    }

    private static String line(long ms, int in, int out, String hashIds) {
        return "{\"timestamp\": " + ms + ", \"input_length\": " + in + ", \"output_length\": " + out
                + (hashIds.isEmpty() ? "" : ", \"hash_ids\": [" + hashIds + "]") + "}";
    }

    private static LoadedRun loaded(Path runs) throws Exception {
        try (var list = Files.list(runs)) {
            return RunLoader.load(list.findFirst().orElseThrow());
        }
    }

    /**
     * A burst of 16 requests at 0 ms and 8 more at 200, 300 ... 900 ms, replayed twice as fast against a slow server
     * (2 sequences at a time, 20 ms per decode step, 10 tokens per answer: each pair takes >= 200 ms, the 24 answers
     * >= 2.4 s). Open loop: every request is fired at its scaled instant whatever the server does.
     */
    @Test
    void everyRequestFiresAtItsScaledInstantEvenWhenTheServerIsSlow() throws Exception {
        List<String> lines = new ArrayList<>();
        long[] rawMs = new long[24];
        for (int i = 0; i < 24; i++) {
            rawMs[i] = i < 16 ? 0 : 200 + 100L * (i - 16);
            lines.add(line(rawMs[i], 40, 10, ""));
        }
        Path trace = write(lines);
        SimConfig slow = SimConfig.presetBuilder("fast").maxNumSeqs(2).stepOverheadNanos(20_000_000).build();
        Path runs = dir.resolve("runs");
        RunResult r;
        try (Simulator sim = Simulator.start(slow)) {
            r = Kneepoint.replay(Kneepoint.target(sim), trace).timeScale(2).clientWarmup(false)
                    .telemetry(dev.kneepoint.telemetry.Telemetry.off()).outputDir(runs).name("trace").run();
        }
        assertThat(r.complete()).isTrue();
        StepResult step = r.steps().get(0);
        assertThat(step.info().label()).isEqualTo("trace x2");
        assertThat(step.info().arrival()).isEqualTo("trace(scale=2)");
        // Nominal rate: 24 requests over the scaled span of 450 ms.
        assertThat(step.info().rateRps()).isCloseTo(24 / 0.45, within(1e-9));
        assertThat(step.window().startNanos()).isEqualTo(step.window().stepStartNanos()); // no warm-up

        List<RequestRecord> rs = loaded(runs).records().stream()
                .sorted(Comparator.comparingLong(RequestRecord::id)).toList();
        assertThat(rs).hasSize(24).allMatch(RequestRecord::isOk);
        long start = step.window().stepStartNanos();
        long firstEnd = Long.MAX_VALUE;
        for (int i = 0; i < 24; i++) {
            RequestRecord rec = rs.get(i);
            // t_intended is the trace instant, exactly: stepStart + raw / 2, in nanoseconds.
            assertThat(rec.timing().intendedNanos() - start).as("t_intended of record " + i)
                    .isEqualTo(rawMs[i] * 500_000L);
            // Schedule lag: 30-50 µs on a quiet machine, tens of ms under load (OpenLoopTest); 250 ms is far below
            // the >= 200 ms per answer a scheduler that waited for answers would add per pair.
            assertThat(rec.scheduleLagNanos()).as("schedule lag of record " + i).isBetween(0L, 250_000_000L);
            assertThat(rec.tokens().outputTokens()).isEqualTo(10);
            firstEnd = Math.min(firstEnd, rec.timing().endNanos());
        }
        // No coordinated omission: the first answer takes >= 200 ms (10 steps of 20 ms), and by then the whole burst
        // of 16 has been sent; allow 2 delayed by a stalled scheduler on a loaded machine.
        long finalFirstEnd = firstEnd;
        assertThat(rs.subList(0, 16).stream().filter(x -> x.timing().dispatchNanos() < finalFirstEnd).count())
                .isGreaterThanOrEqualTo(14);
        // The server really was slow: its queue shows in the user-view latency of the last answers (2.4 s of work).
        long worstE2eSched = rs.stream().mapToLong(x -> x.timing().lastTokenNanos() - x.timing().intendedNanos()).max()
                .orElseThrow();
        assertThat(worstE2eSched).isGreaterThan(1_500_000_000L);

        JsonNode summary = new ObjectMapper().readTree(loaded(runs).path().resolve("summary.json").toFile());
        JsonNode s0 = summary.get("steps").get(0);
        assertThat(s0.get("label").asText()).isEqualTo("trace x2");
        assertThat(s0.get("arrival").asText()).isEqualTo("trace(scale=2)");
        JsonNode manifest = loaded(runs).manifest().get("config");
        assertThat(manifest.get("arrival").asText()).isEqualTo("trace");
        assertThat(manifest.get("trace").get("records").asInt()).isEqualTo(24);
        assertThat(manifest.get("warmup_s").asDouble()).isZero();
    }

    /**
     * Three system prompts of two 64-token blocks (hash ids 2g, 2g+1), four requests each, and six requests of
     * their own blocks, 40 ms apart so that each prefill ends before the next request arrives. The simulator counts
     * a prompt's full 16-token blocks found in its prefix cache: a grouped request after the first of its group
     * finds its 3 template tokens + 128 shared tokens, 8 full blocks = 128 tokens. Expected hit rate
     * 9 x 128 / (12 x 200 + 6 x 150) = 1152 / 3300; one request missing its hits would give 1024 / 3300.
     */
    @Test
    void promptsHaveTheirTraceLengthsAndSharedHashIdsHitThePrefixCache() throws Exception {
        List<String> lines = new ArrayList<>();
        long t = 0;
        for (int k = 0; k < 4; k++) {
            for (int g = 0; g < 3; g++) {
                lines.add(line(t, 200, 4, (2 * g) + ", " + (2 * g + 1) + ", " + (100 + 3 * k + g) * 10));
                t += 40;
            }
            if (k < 3) {
                lines.add(line(t, 150, 4, (1000 + 3 * k) + ", " + (1001 + 3 * k) + ", " + (1002 + 3 * k)));
                t += 40;
                lines.add(line(t, 150, 4, (2000 + 3 * k) + ", " + (2001 + 3 * k) + ", " + (2002 + 3 * k)));
                t += 40;
            }
        }
        Path trace = write(lines);
        assertThat(Trace.read(trace, 64).size()).isEqualTo(18);
        Path runs = dir.resolve("runs");
        double hitRate;
        try (Simulator sim = Kneepoint.simulator("fast")) {
            RunResult r = Kneepoint.replay(Kneepoint.target(sim), trace).traceBlockSize(64).clientWarmup(false)
                    .telemetry(dev.kneepoint.telemetry.Telemetry.off()).outputDir(runs).name("prefix").run();
            assertThat(r.complete()).isTrue();
            hitRate = sim.stats().prefixCacheHitRate();
        }
        List<RequestRecord> rs = loaded(runs).records().stream()
                .sorted(Comparator.comparingLong(RequestRecord::id)).toList();
        assertThat(rs).hasSize(18).allMatch(RequestRecord::isOk);
        Trace parsed = Trace.read(trace, 64);
        for (int i = 0; i < 18; i++) {
            // The simulator's usage.prompt_tokens: exact, template included.
            assertThat(rs.get(i).tokens().promptTokens()).as("prompt tokens of record " + i)
                    .isEqualTo(parsed.inputTokens(i));
            assertThat(rs.get(i).tokens().requestedPromptTokens()).isEqualTo(parsed.inputTokens(i));
        }
        assertThat(hitRate).as("prefix cache hit rate").isBetween(1024.0 / 3300 + 1e-9, 1152.0 / 3300 + 1e-9);
    }

    /**
     * With rates, a trace becomes a ladder: 4 requests at 0, 100, 200, 300 ms (nominal 4 / 0.3 s = 13.3 req/s) at
     * 20 and 40 req/s are the trace time-scaled by 1.5 and 3. Each step has its own text: within a step, requests
     * 2-4 find the first one's two shared 64-token blocks (8 simulator blocks of 16 = 128 tokens each), but step 2
     * finds nothing of step 1. Expected hit rate 2 x 3 x 128 / (8 x 200) = 0.48; had step 2 sent step 1's text,
     * every one of its prompts would hit 192 tokens (12 full blocks), 0.72 in all.
     */
    @Test
    void aTraceLadderReplaysTheTraceAtEachRateWithTextOfItsOwn() throws Exception {
        List<String> lines = new ArrayList<>();
        for (int i = 0; i < 4; i++) {
            lines.add(line(100L * i, 200, 4, "7, 8, " + (50 + i)));
        }
        Path trace = write(lines);
        Path runs = dir.resolve("runs");
        double hitRate;
        RunResult r;
        try (Simulator sim = Kneepoint.simulator("fast")) {
            r = Kneepoint.replay(Kneepoint.target(sim), trace).traceBlockSize(64).rates(20, 40).clientWarmup(false)
                    .telemetry(dev.kneepoint.telemetry.Telemetry.off()).outputDir(runs).name("ladder").run();
            hitRate = sim.stats().prefixCacheHitRate();
        }
        assertThat(r.steps()).extracting(x -> x.info().label()).containsExactly("rate=20", "rate=40");
        assertThat(r.steps()).extracting(x -> x.info().arrival()).allMatch(a -> a.startsWith("trace(scale="));
        assertThat(r.steps().get(1).info().rateRps()).isCloseTo(40, within(1e-9));
        List<RequestRecord> rs = loaded(runs).records().stream()
                .sorted(Comparator.comparingLong(RequestRecord::id)).toList();
        assertThat(rs).hasSize(8).allMatch(RequestRecord::isOk);
        long start2 = r.steps().get(1).window().stepStartNanos();
        for (int i = 0; i < 4; i++) {
            // 100 ms x i / 3, rounded to the nanosecond; the scale 40 / (4 / 0.3) is 3 up to a double's last bit.
            assertThat((double) (rs.get(4 + i).timing().intendedNanos() - start2)).isCloseTo(1e8 * i / 3, within(1.0));
            assertThat(rs.get(4 + i).tokens().promptTokens()).isEqualTo(200);
        }
        assertThat(hitRate).as("prefix cache hit rate").isBetween(640.0 / 1600 - 1e-9, 768.0 / 1600 + 1e-9);
    }

    /**
     * A window of the trace: 10 requests 100 ms apart, warm-up 200 ms and 500 ms measured. The plan holds the
     * instants before 700 ms: 0 and 100 ms as warm-up, 200 ... 600 ms measured; 700 ... 900 ms are never sent.
     * With maxRequestsPerStep(2) instead, the two warm-up requests and 2 measured ones.
     */
    @Test
    void warmupAndStepDurationCutAWindowOfTheTrace() throws Exception {
        List<String> lines = new ArrayList<>();
        for (int i = 0; i < 10; i++) {
            lines.add(line(100L * i, 20, 2, ""));
        }
        Path trace = write(lines);
        try (Simulator sim = Kneepoint.simulator("fast")) {
            var t = Kneepoint.target(sim);
            StepResult s = Kneepoint.replay(t, trace).warmup(Duration.ofMillis(200)).stepDuration(Duration.ofMillis(500))
                    .clientWarmup(false).telemetry(dev.kneepoint.telemetry.Telemetry.off()).outputDir(null).run()
                    .steps().get(0);
            assertThat(s.counts().warmupRequests()).isEqualTo(2);
            assertThat(s.counts().requestsOk()).isEqualTo(5);
            assertThat(s.window().startNanos() - s.window().stepStartNanos()).isEqualTo(200_000_000L);
            assertThat(s.info().durationNanos()).isEqualTo(500_000_000L);
            StepResult counted = Kneepoint.replay(t, trace).maxRequestsPerStep(2).warmup(Duration.ofMillis(200))
                    .clientWarmup(false).telemetry(dev.kneepoint.telemetry.Telemetry.off()).outputDir(null).run()
                    .steps().get(0);
            assertThat(counted.counts().warmupRequests()).isEqualTo(2);
            assertThat(counted.counts().requestsOk()).isEqualTo(2);
        }
    }

    @Test
    void badTraceSettingsAreReportedWithTheOtherProblems() throws Exception {
        Path bad = write(List.of(line(10, 5, 1, ""), line(5, 5, 1, "")));
        TargetConfigHolder t = new TargetConfigHolder();
        assertThatThrownBy(() -> Kneepoint.replay(t.target, bad).concurrency(2).timeScale(-1).run())
                .hasMessageContaining("3 problems")
                .hasMessageContaining("drop the concurrency levels")
                .hasMessageContaining("timeScale must be a finite number > 0")
                .hasMessageContaining("line 2: timestamp 5 ms is before the previous request's 10 ms");
        Path good = write(List.of(line(0, 5, 1, ""), line(100, 5, 1, "")));
        assertThatThrownBy(() -> Kneepoint.replay(t.target, good).warmup(Duration.ofSeconds(1)).run())
                .hasMessageContaining("warmup PT1S covers the whole trace (0.100 s at trace(scale=1))");
        assertThatThrownBy(() -> Kneepoint.replay(t.target, good).rates(5).timeScale(2).run())
                .hasMessageContaining("give a timeScale or rates for a trace, not both");
    }

    /** A target nothing listens on: these sweeps are refused before anything is sent. */
    private static final class TargetConfigHolder {
        final dev.kneepoint.client.TargetConfig target = Kneepoint.target("http://127.0.0.1:9", "m");
    }
}
