package dev.kneepoint.sweep;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import com.fasterxml.jackson.databind.JsonNode;
import dev.kneepoint.Kneepoint;
import dev.kneepoint.client.ApiKind;
import dev.kneepoint.client.TargetConfig;
import dev.kneepoint.io.RunLoader;
import dev.kneepoint.io.LoadedRun;
import dev.kneepoint.metrics.RequestRecord;
import dev.kneepoint.metrics.RunResult;
import dev.kneepoint.sim.SimConfig;
import dev.kneepoint.sim.Simulator;
import dev.kneepoint.telemetry.Telemetry;
import dev.kneepoint.workload.ToolUse;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;
import org.junit.jupiter.api.io.TempDir;

/** {@code Sweep.tools(...)} / {@code --tools}: every request offers the functions; the simulator's calls are measured. */
class SweepToolsTest {
    @TempDir
    Path dir;

    private static Sweep sixRequests(TargetConfig target, Path runs, String name) {
        return Kneepoint.sweep(target).concurrency(2).inputTokens(50).outputTokens(12).maxRequestsPerStep(6)
                .warmup(Duration.ZERO).stepDuration(Duration.ofSeconds(30)).clientWarmup(false)
                .telemetry(Telemetry.off()).outputDir(runs).name(name);
    }

    @Test
    void answersThatCallAToolAreOkWithTheirTokensAndFirstCallTime() {
        try (Simulator sim = Simulator.start(SimConfig.presetBuilder("fast").build())) {
            RunResult run = sixRequests(Kneepoint.target(sim), dir, "tools")
                    .tools(ToolUse.builtin().choice("get_weather")).run();
            LoadedRun loaded = RunLoader.load(run.directory().orElseThrow());
            assertThat(loaded.records()).hasSize(6).allSatisfy(r -> {
                assertThat(r.outcome().label()).isEqualTo("OK");
                assertThat(r.tokens().outputTokens()).isEqualTo(12);
                assertThat(r.timing().chunkNanos()).hasSize(12); // one call fragment per simulated token
                assertThat(r.timing().firstToolCallNanos()).isEqualTo(r.timing().firstTokenNanos());
                assertThat(r.ttftNanos()).isPositive();
            });
            assertThat(run.steps().get(0).counts().requestsOk()).isEqualTo(6);
            JsonNode tools = loaded.manifest().get("config").get("tools");
            assertThat(tools.get("source").asText()).isEqualTo("builtin");
            assertThat(tools.get("tool_choice").asText()).isEqualTo("get_weather");
            assertThat(tools.get("functions")).hasSize(4);
        }
    }

    @ParameterizedTest
    @ValueSource(strings = {"responses", "messages"})
    void theTypedEventApisCallToolsToo(String api) {
        // the tools go out in each API's shape, the simulator reads them back and streams its call in that API's
        // events (function_call items and argument deltas; tool_use blocks and input_json deltas)
        try (Simulator sim = Simulator.start(SimConfig.presetBuilder("fast").build())) {
            RunResult run = sixRequests(Kneepoint.target(sim), dir, api).api(api)
                    .tools(ToolUse.builtin().choice("search_web")).run();
            assertThat(RunLoader.load(run.directory().orElseThrow()).records()).hasSize(6).allSatisfy(r -> {
                assertThat(r.outcome().label()).as(r.outcome().detail()).isEqualTo("OK");
                assertThat(r.tokens().outputTokens()).isEqualTo(12);
                assertThat(r.timing().firstToolCallNanos()).isEqualTo(r.timing().firstTokenNanos()).isPositive();
            });
        }
    }

    @Test
    void withoutToolsNoRequestRecordsACall() {
        try (Simulator sim = Simulator.start(SimConfig.presetBuilder("fast").build())) {
            RunResult run = sixRequests(Kneepoint.target(sim), dir, "plain").run();
            assertThat(RunLoader.load(run.directory().orElseThrow()).records()).hasSize(6)
                    .allSatisfy(r -> assertThat(r.timing().firstToolCallNanos()).isEqualTo(RequestRecord.ABSENT));
        }
    }

    @Test
    void toolsNeedTheChatApiAndAToolFileThatHoldsTools() throws Exception {
        TargetConfig completions = TargetConfig.builder().baseUrl("http://127.0.0.1:9").model("m").apiKind(ApiKind.COMPLETIONS).build();
        assertThatThrownBy(() -> Kneepoint.sweep(completions).concurrency(1).tools(ToolUse.builtin()).validate())
                .hasMessageContaining("tools are offered with the chat, responses and messages APIs")
                .hasMessageContaining("completions");
        Path bad = Files.writeString(dir.resolve("tools.json"), "{\"functions\":[]}");
        assertThatThrownBy(() -> ToolUse.read(bad)).hasMessageContaining(bad.toString())
                .hasMessageContaining("\"tools\" array");
        Path noName = Files.writeString(dir.resolve("noname.json"), "[{\"type\":\"function\",\"function\":{}}]");
        assertThatThrownBy(() -> ToolUse.read(noName)).hasMessageContaining("tool 0 needs a \"function\" object with a \"name\"");
        Path ok = Files.writeString(dir.resolve("ok.json"),
                "{\"tools\":[{\"type\":\"function\",\"function\":{\"name\":\"f\"}}],\"tool_choice\":\"required\"}");
        assertThat(ToolUse.read(ok).choice()).isEqualTo("required");
        assertThatThrownBy(() -> ToolUse.read(ok).choice("g")).hasMessageContaining("'g'").hasMessageContaining("[f]");
    }
}
