package dev.kneepoint;

import static org.assertj.core.api.Assertions.assertThat;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import dev.kneepoint.analysis.SloCapacity;
import dev.kneepoint.metrics.RunResult;
import dev.kneepoint.metrics.Slo;
import dev.kneepoint.report.RunReport;
import dev.kneepoint.sim.SimConfig;
import dev.kneepoint.sim.Simulator;
import dev.kneepoint.telemetry.Telemetry;
import java.nio.file.Path;
import java.time.Duration;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * The SLO capacity search against a server with exactly 4 slots ({@code fast} preset, {@code maxNumSeqs 4}): a 5th
 * user, or arrivals beyond 4 requests per request time, queue, and queueing is what the TTFT objective sees.
 */
class SloSearchTest {
    @TempDir
    Path runs;

    private static Simulator fourSlots() {
        return Simulator.start(SimConfig.presetBuilder("fast").maxNumSeqs(4).build());
    }

    @Test
    void aConcurrencySearchFindsTheSlotCountExactly() throws Exception {
        RunResult r;
        try (Simulator sim = fourSlots()) {
            // 400 tokens of ~2.1 ms: ~0.85 s a request. At 5 users on 4 slots every request waits about a quarter of
            // that (~210 ms) for a slot, far over 150 ms; at 4 users none waits (TTFT ~ one engine step).
            r = Kneepoint.sweep(Kneepoint.target(sim)).sloSearch("concurrency").slo(Slo.builder().ttftMs(150).build())
                    .inputTokens(16).outputTokens(400).warmup(Duration.ofMillis(1200)).stepDuration(Duration.ofSeconds(2))
                    .telemetry(Telemetry.off()).outputDir(runs).name("search-users").run();
        }
        assertThat(r.complete()).isTrue();
        // Doubling 1, 2, 4, 8 (fails), then bisecting 6, 5: six probes, the bracket closed at adjacent users.
        assertThat(r.steps()).extracting(s -> s.info().label()).containsExactly("c=1", "c=2", "c=4", "c=8", "c=6", "c=5");
        SloCapacity c = SloCapacity.of(r, new SloCapacity.Goal(SloCapacity.CONCURRENCY, 0.99, 0.05));
        assertThat(c.maxPassing().step()).isEqualTo("c=4");
        assertThat(c.minFailing().step()).isEqualTo("c=5");
        assertThat(c.closed()).isTrue();
        // Users stagger, so only some requests wait for a slot: measured 75 % within 150 ms, far below 99 %.
        assertThat(c.minFailing().attainment()).isLessThan(0.9);

        // The report reads the search back from the run directory: the answer and analysis.json say the same.
        Path dir = r.directory().orElseThrow();
        String report = RunReport.write(dir);
        assertThat(report).contains("SLO capacity: 4 users (c=4 attains 100.0%");
        JsonNode j = new ObjectMapper().readTree(dir.resolve("analysis.json").toFile());
        assertThat(dir.resolve(RunReport.SLO_SEARCH_CHART)).isNotEmptyFile();
        assertThat(j.at("/slo_search/dimension").asText()).isEqualTo("concurrency");
        assertThat(j.at("/slo_search/max_passing/step").asText()).isEqualTo("c=4");
        assertThat(j.at("/slo_search/min_failing/step").asText()).isEqualTo("c=5");
        assertThat(j.at("/slo_search/closed").asBoolean()).isTrue();
        assertThat(j.at("/slo_search/probes")).hasSize(6);
        assertThat(j.at("/operating_points/throughput_first/step").asText()).isEqualTo("c=4");
        assertThat(j.at("/operating_points/latency_first/load").asDouble()).isEqualTo(3);
    }

    @Test
    void aRateSearchBracketsTheAnalyticCapacity() {
        RunResult r;
        double capacity;
        try (Simulator sim = fourSlots()) {
            // The capacity: 4 users keep the 4 slots full, so their request rate is the most the server completes
            // (each token step carrying 4 sequences and, as at capacity, a new prefill whenever one ends).
            capacity = Kneepoint.ladder(Kneepoint.target(sim), 4).inputTokens(16).outputTokens(200)
                    .warmup(Duration.ofMillis(800)).stepDuration(Duration.ofSeconds(2)).telemetry(Telemetry.off())
                    .outputDir(runs).name("capacity").run().steps().get(0).rates().requestsPerS();
            // Constant arrivals and equal requests: no queue below the capacity, a growing one above it.
            r = Kneepoint.sweep(Kneepoint.target(sim)).sloSearch("rate").slo(Slo.builder().ttftMs(100).build())
                    .arrival("constant").inputTokens(16).outputTokens(200).warmup(Duration.ofMillis(800))
                    .stepDuration(Duration.ofMillis(2500)).telemetry(Telemetry.off()).outputDir(runs)
                    .name("search-rate").run();
        }
        assertThat(r.complete()).isTrue();
        assertThat(r.steps().get(0).info().label()).isEqualTo("synchronous");
        SloCapacity c = SloCapacity.of(r, new SloCapacity.Goal(SloCapacity.RATE, 0.99, 0.05));
        assertThat(c.closed()).as(c.sentence()).isTrue();
        // The bracket holds the capacity, to the search's 5 % tolerance: just above it a queue builds too slowly to
        // break 100 ms within a short window.
        assertThat(c.maxPassing().load()).as(c.sentence()).isLessThanOrEqualTo(capacity * 1.05);
        assertThat(c.minFailing().load()).as(c.sentence()).isGreaterThanOrEqualTo(capacity * 0.95);
    }
}
