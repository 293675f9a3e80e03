package dev.kneepoint;

import static org.assertj.core.api.Assertions.assertThat;

import com.fasterxml.jackson.databind.JsonNode;
import dev.kneepoint.client.TargetConfig;
import dev.kneepoint.io.LoadedRun;
import dev.kneepoint.io.RunLoader;
import dev.kneepoint.metrics.RequestRecord;
import dev.kneepoint.metrics.RunResult;
import dev.kneepoint.metrics.StepResult;
import dev.kneepoint.sim.FaultConfig;
import dev.kneepoint.sim.FaultKind;
import dev.kneepoint.sim.SimConfig;
import dev.kneepoint.sim.SimStats;
import dev.kneepoint.sim.Simulator;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.List;
import java.util.Map;
import java.util.TreeMap;
import java.util.concurrent.TimeUnit;
import java.util.stream.Collectors;
import java.util.stream.Stream;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.api.io.TempDir;

/**
 * A short open-loop ladder against the embedded simulator injecting every per-request fault at random:
 * every request the server saw has exactly one record, each injected fault shows as its own outcome class,
 * the counts add up per step (issued = OK + each failure class + cancelled), {@code summary.json} equals the
 * counts recomputed from {@code requests.jsonl}, and the run directory is complete and loads cleanly.
 */
class RunUnderFaultsTest {
    @TempDir
    Path runs;

    /** Which client outcome each injected simulator fault must produce (docs/RELIABILITY.md). */
    private static final Map<FaultKind, String> EXPECTED = Map.of(
            FaultKind.HTTP_429, "HTTP_ERROR(429)",
            FaultKind.HTTP_500, "HTTP_ERROR(500)",
            FaultKind.HTTP_503, "HTTP_ERROR(503)",
            FaultKind.CONNECTION_RESET, "CONNECTION_ERROR",
            FaultKind.STREAM_STALL, "TIMEOUT(idle)",
            FaultKind.SLOW_FIRST_BYTE, "TIMEOUT(first_token)",
            FaultKind.MALFORMED_EVENT, "STREAM_ERROR",
            FaultKind.ERROR_IN_STREAM, "STREAM_ERROR",
            FaultKind.NO_DONE, "TRUNCATED");

    @Test
    @Timeout(value = 60, unit = TimeUnit.SECONDS)
    void everyRequestHasExactlyOneOutcomeAndTheCountsAddUp() throws Exception {
        FaultConfig.Builder faults = FaultConfig.builder().faultDuration(Duration.ofMillis(2000));
        // 4 % each of 9 kinds: about a third of the requests fail, every class a few times in ~150 requests
        EXPECTED.keySet().forEach(k -> faults.probability(k, 0.04));
        try (Simulator sim = Simulator.start(SimConfig.presetBuilder("fast").seed(11).faults(faults.build()).build())) {
            // stalls and slow headers last 2 s: the 800 ms idle and first-token limits turn them into timeouts,
            // far enough above the simulator's normal few-ms gaps that a loaded machine does not add false ones
            TargetConfig target = Kneepoint.targetBuilder().baseUrl(sim.url()).model("sim-fast")
                    .idleTimeout(Duration.ofMillis(800)).firstTokenTimeout(Duration.ofMillis(800)).build();
            RunResult run = Kneepoint.rateLadder(target, 30, 60).inputTokens(32).outputTokens(16)
                    .stepDuration(Duration.ofMillis(1500)).warmup(Duration.ZERO).outputDir(runs).name("faults")
                    .preflight(false) // every request the simulator sees must be a measured one
                    .run();
            SimStats stats = sim.stats();

            assertThat(run.complete()).isTrue();
            Path dir;
            try (Stream<Path> list = Files.list(runs)) {
                dir = list.filter(Files::isDirectory).findFirst().orElseThrow();
            }
            LoadedRun loaded = RunLoader.load(dir);
            assertThat(loaded.complete()).isTrue();
            assertThat(loaded.problems()).isEmpty();
            assertThat(loaded.truncatedLastLine()).isFalse();
            List<RequestRecord> records = loaded.records();

            // Issued: every request the simulator received has exactly one record (ids unique), no more.
            List<RequestRecord> dispatched = records.stream().filter(RequestRecord::dispatched).toList();
            assertThat(records).extracting(RequestRecord::id).doesNotHaveDuplicates();
            assertThat((long) dispatched.size()).isEqualTo(stats.requestsReceived());
            assertThat(dispatched.size()).as("requests in the run").isGreaterThan(100);

            // Each injected fault is one failure of its class; everything else is OK.
            Map<String, Long> byLabel = count(records);
            Map<String, Long> expected = new TreeMap<>();
            stats.faultsInjected().forEach((kind, n) -> {
                if (n > 0) {
                    expected.merge(EXPECTED.get(kind), n, Long::sum);
                }
            });
            expected.put("OK", stats.requestsReceived() - stats.faultsTotal());
            assertThat(byLabel).isEqualTo(expected);
            assertThat(stats.faultsInjected().keySet()).as("fault kinds seen").hasSizeGreaterThanOrEqualTo(6);

            // Per step: records = OK + failures + cancelled; failure classes match; summary.json says the same.
            JsonNode summarySteps = loaded.summary().orElseThrow().path("steps");
            assertThat(run.steps()).hasSize(2);
            for (int i = 0; i < run.steps().size(); i++) {
                StepResult s = run.steps().get(i);
                String label = s.info().label();
                List<RequestRecord> mine = records.stream().filter(r -> r.step().equals(label) && !r.warmup()).toList();
                Map<String, Long> classes = count(mine);
                long ok = classes.getOrDefault("OK", 0L);
                long cancelled = classes.getOrDefault("CANCELLED", 0L);
                classes.remove("OK");
                classes.remove("CANCELLED");
                assertThat(s.counts().requestsOk()).as(label + " ok").isEqualTo(ok);
                assertThat(s.counts().cancelled()).as(label + " cancelled").isZero();
                assertThat(cancelled).isZero();
                assertThat(s.counts().failuresByClass()).as(label + " failures").isEqualTo(classes);
                assertThat(s.counts().requestsFailed())
                        .isEqualTo(classes.values().stream().mapToLong(Long::longValue).sum());
                assertThat(s.counts().requestsOk() + s.counts().requestsFailed() + s.counts().cancelled())
                        .isEqualTo(mine.size());

                JsonNode js = summarySteps.get(i);
                assertThat(js.path("label").asText()).isEqualTo(label);
                assertThat(js.path("requests_ok").asLong()).isEqualTo(ok);
                assertThat(js.path("requests_failed").asLong()).isEqualTo(s.counts().requestsFailed());
                assertThat(js.path("cancelled").asLong()).isZero();
                Map<String, Long> jsonClasses = new TreeMap<>();
                js.path("failures_by_class").properties().forEach(e -> jsonClasses.put(e.getKey(), e.getValue().asLong()));
                assertThat(jsonClasses).isEqualTo(classes);
                // the directory read back aggregates to the same counts
                StepResult again = loaded.result().steps().get(i);
                assertThat(again.counts().requestsOk()).isEqualTo(ok);
                assertThat(again.counts().failuresByClass()).isEqualTo(classes);
            }
            assertThat(records.stream().filter(r -> !r.warmup()).count())
                    .isEqualTo(run.steps().stream()
                            .mapToLong(s -> s.counts().requestsOk() + s.counts().requestsFailed() + s.counts().cancelled())
                            .sum());
        }
    }

    private static Map<String, Long> count(List<RequestRecord> records) {
        return records.stream().collect(Collectors.groupingBy(r -> r.outcome().label(), TreeMap::new, Collectors.counting()));
    }
}
