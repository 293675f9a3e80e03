package dev.kneepoint.sweep;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;
import static org.assertj.core.api.Assertions.within;

import dev.kneepoint.Kneepoint;
import dev.kneepoint.analysis.Knee;
import dev.kneepoint.analysis.Tables;
import dev.kneepoint.io.LoadedRun;
import dev.kneepoint.io.RunLoader;
import dev.kneepoint.metrics.RequestRecord;
import dev.kneepoint.metrics.StepResult;
import dev.kneepoint.sim.SimConfig;
import dev.kneepoint.sim.Simulator;
import dev.kneepoint.telemetry.Telemetry;
import dev.kneepoint.workload.ToolUse;
import java.nio.file.Path;
import java.time.Duration;
import java.util.List;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * {@code Sweep.batch} / {@code --batch} on the pooling APIs, end to end against the simulator: each request carries
 * its batch, the answer's items are counted, the step reports items/s, and a batch-size ladder grows the prefill the
 * simulator charges (METRICS.md "Pooling requests").
 */
class SweepPoolingTest {
    @TempDir
    Path dir;

    private Sweep sweep(Simulator sim, String api, String name) {
        return Kneepoint.sweep(Kneepoint.target(sim)).api(api).inputTokens(32).warmup(Duration.ZERO)
                .stepDuration(Duration.ofSeconds(30)).telemetry(Telemetry.off()).outputDir(dir).name(name);
    }

    @Test
    void embeddingBatchesAreOkWithTheirItemsAndTheStepCountsItemsPerSecond() {
        try (Simulator sim = Simulator.start(SimConfig.presetBuilder("fast").build())) {
            // the client warm-up on, as a user runs it: it warms the pooling path on its own simulator
            LoadedRun run = RunLoader.load(sweep(sim, "embeddings", "emb").concurrency(2).batch(4)
                    .maxRequestsPerStep(20).run().directory().orElseThrow());
            assertThat(run.records()).hasSize(20).allSatisfy(r -> {
                assertThat(r.isOk()).as("%s", r.outcome()).isTrue();
                assertThat(r.response().items()).isEqualTo(4);
                assertThat(r.tokens().promptTokens()).isEqualTo(4 * 32); // calibrated: 32 server tokens each
                assertThat(r.tokens().outputTokens()).isZero();
                assertThat(r.ttftNanos()).isEqualTo(r.e2eNanos());
            });
            StepResult step = run.result().steps().get(0);
            // every OK request returned 4 items, so items/s is exactly 4 x requests/s over the same window
            assertThat(step.rates().itemsPerS()).isCloseTo(4 * step.rates().requestsPerS(), within(1e-9));
            assertThat(step.rates().outputTokensPerS()).isZero();
            assertThat(run.summary().orElseThrow().get("steps").get(0).get("items_per_s").asDouble())
                    .isCloseTo(step.rates().itemsPerS(), within(1e-6));
            assertThat(Tables.steps(run.result()).doubleColumn("items_per_s").get(0))
                    .isCloseTo(step.rates().itemsPerS(), within(1e-9));
            assertThat(run.manifest().get("config").get("batch").toString()).isEqualTo("[4]");
        }
    }

    @Test
    void aBatchSizeLadderRunsOneStepPerSizeAndTheLargerBatchCostsMorePrefill() {
        // 50 us of prefill per token (fast preset otherwise): 16 documents of 32 + 32 tokens are 1,024 prefill tokens
        // in one step (51 ms + 2 ms overhead), one document 64 (3.2 ms + 2): the ratio is ~10; 3 leaves room for a
        // noisy machine's scheduling without letting a ladder that sent one size everywhere pass
        SimConfig config = SimConfig.presetBuilder("fast").prefillNanosPerToken(50_000).build();
        try (Simulator sim = Simulator.start(config)) {
            LoadedRun run = RunLoader.load(sweep(sim, "rerank", "ladder").concurrency(2).batch(1, 4, 16)
                    .maxRequestsPerStep(12).clientWarmup(false).run().directory().orElseThrow());
            List<StepResult> steps = run.result().steps();
            assertThat(steps).extracting(s -> s.info().label()).containsExactly("b=1", "b=4", "b=16");
            assertThat(steps).allSatisfy(s -> assertThat(s.info().concurrency()).isEqualTo(2));
            for (int size : new int[] {1, 4, 16}) {
                List<RequestRecord> of = run.records().stream().filter(r -> r.step().equals("b=" + size)).toList();
                assertThat(of).hasSize(12).allSatisfy(r -> {
                    assertThat(r.isOk()).as("%s", r.outcome()).isTrue();
                    assertThat(r.response().items()).isEqualTo(size);
                    assertThat(r.tokens().promptTokens()).isEqualTo(size * (32 + 32)); // each pair: query + document
                });
            }
            assertThat(steps.get(2).latency().e2e().p50()).isGreaterThan(3 * steps.get(0).latency().e2e().p50());
            // the knee of a pooling run is judged on items/s: its output-token throughput is zero by construction
            assertThat(Knee.analyze(run.result()).throughputColumn()).isEqualTo("items_per_s");
        }
    }

    @Test
    void poolingSettingsAreCheckedAgainstTheApi() {
        Sweep chat = Kneepoint.sweep(Kneepoint.target("http://127.0.0.1:9", "m")).concurrency(1).batch(8);
        assertThatThrownBy(chat::validate).hasMessageContaining("a batch of inputs applies to the pooling APIs")
                .hasMessageContaining("chat");
        Sweep ladder = Kneepoint.sweep(Kneepoint.target("http://127.0.0.1:9", "m")).api("embeddings")
                .concurrency(1, 2).batch(1, 8).tools(ToolUse.builtin()).multiTurn(2);
        assertThatThrownBy(ladder::validate).hasMessageContaining("a batch-size ladder [1, 8] runs closed loop at one"
                        + " concurrency level, got levels [1, 2]")
                .hasMessageContaining("tools, structured output and media do not apply")
                .hasMessageContaining("chat sessions do not apply");
        assertThatThrownBy(() -> Kneepoint.sweep(Kneepoint.target("http://127.0.0.1:9", "m")).api("score")
                .concurrency(1).batch(0).validate()).hasMessageContaining("batch sizes must be 1 or more");
    }
}
