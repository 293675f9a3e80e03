package dev.kneepoint.sweep;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import com.fasterxml.jackson.databind.JsonNode;
import dev.kneepoint.Kneepoint;
import dev.kneepoint.io.LoadedRun;
import dev.kneepoint.io.RunLoader;
import dev.kneepoint.metrics.RequestRecord;
import dev.kneepoint.metrics.RunResult;
import dev.kneepoint.sim.SimConfig;
import dev.kneepoint.sim.Simulator;
import dev.kneepoint.telemetry.Telemetry;
import java.nio.file.Path;
import java.time.Duration;
import java.util.List;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * {@code Sweep.multiTurn(turns)} / {@code --multi-turn}: the synthetic prompts become chat sessions whose turns carry
 * the real history. One closed-loop user runs its sessions one after the other, so requests 0-2 are one session's
 * turns: each prompt holds the one before, its answer and a new user message.
 */
class SweepMultiTurnTest {
    @TempDir
    Path dir;

    @Test
    void eachTurnCarriesTheHistoryExactlyInTheServersTokens() {
        try (Simulator sim = Simulator.start(SimConfig.presetBuilder("fast").build())) {
            RunResult run = Kneepoint.sweep(Kneepoint.target(sim)).concurrency(1).inputTokens(40).outputTokens(6)
                    .multiTurn(3).maxRequestsPerStep(6).warmup(Duration.ZERO).stepDuration(Duration.ofSeconds(30))
                    .clientWarmup(false).telemetry(Telemetry.off()).outputDir(dir).name("sessions").run();
            LoadedRun loaded = RunLoader.load(run.directory().orElseThrow());
            List<RequestRecord> r = loaded.records();
            assertThat(r).hasSize(6).allSatisfy(x -> assertThat(x.isOk()).isTrue());
            int[] prompt = r.stream().mapToInt(x -> x.tokens().promptTokens()).toArray();
            // turn k+1 = turn k's prompt + its 6-token answer (and the template's message tokens) + 40 new tokens
            assertThat(prompt[1]).isGreaterThan(prompt[0] + 6 + 40);
            assertThat(prompt[2] - prompt[1]).isEqualTo(prompt[1] - prompt[0]);
            assertThat(prompt[3]).isEqualTo(prompt[0]); // a new session starts over
            JsonNode w = loaded.manifest().get("config").get("workload");
            assertThat(w.get("kind").asText()).isEqualTo("multi_turn");
            assertThat(w.get("turns").asInt()).isEqualTo(3);
        }
    }

    @Test
    void turnsBelowOneOrBesideAPrefixAreRefused() {
        var t = Kneepoint.target("http://127.0.0.1:9", "m");
        assertThatThrownBy(() -> Kneepoint.sweep(t).concurrency(1).multiTurn(0).validate())
                .hasMessageContaining("multiTurn takes 1 or more turns");
        assertThatThrownBy(() -> Kneepoint.sweep(t).concurrency(1).multiTurn(2).sharedPrefix(8, 1).validate())
                .hasMessageContaining("multiTurn and sharedPrefix do not combine");
    }
}
