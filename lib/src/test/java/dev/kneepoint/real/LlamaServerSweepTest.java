package dev.kneepoint.real;

import static org.assertj.core.api.Assertions.assertThat;

import dev.kneepoint.Kneepoint;
import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import dev.kneepoint.analysis.SloCapacity;
import dev.kneepoint.analysis.TrialTables;
import dev.kneepoint.client.ApiKind;
import dev.kneepoint.client.TargetConfig;
import dev.kneepoint.io.RunLoader;
import dev.kneepoint.metrics.RequestRecord;
import dev.kneepoint.metrics.RunResult;
import dev.kneepoint.metrics.Slo;
import dev.kneepoint.metrics.Trials;
import dev.kneepoint.report.RunReport;
import dev.kneepoint.telemetry.Telemetry;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.Comparator;
import java.util.List;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.Assumptions;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Tag;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * Sweeps through the facade against the real llama-server (run by {@code .ci/real-server.sh}, like
 * {@link LlamaServerTest}): {@code calibrate(true)} makes synthetic and trace prompts exact in SmolLM2's own tokens,
 * chat template included, where the words of the synthetic vocabulary alone are some other number of tokens.
 */
@Tag("real-server")
@Tag("llama-server")
class LlamaServerSweepTest {
    private static RealServer server;
    private static final RealServerSupport.Session<RealServer> SESSION =
            RealServerSupport.llamaSession("real-server-sweep-report.txt");

    @TempDir
    Path dir;

    @BeforeAll
    static void connect() {
        server = SESSION.connect();
    }

    @BeforeEach
    void requireServer() {
        SESSION.require();
        // The fallback llama_cpp.server streams no usage, so there is no server prompt count to compare with.
        Assumptions.assumeTrue(server.kind() != RealServer.Kind.LLAMA_CPP_PYTHON,
                "the fallback llama_cpp.server streams no usage (docs/REAL-SERVER.md, fallback section)");
    }

    @AfterAll
    static void close() throws IOException {
        SESSION.close();
    }

    private static TargetConfig target(ApiKind kind) {
        return Kneepoint.targetBuilder().baseUrl(server.baseUrl()).model(server.model()).apiKind(kind)
                .firstTokenTimeout(Duration.ofSeconds(30)).totalTimeout(Duration.ofSeconds(60)).build();
    }

    private static List<Integer> promptTokens(RunResult r) {
        return RunLoader.load(r.directory().orElseThrow()).records().stream()
                .sorted(Comparator.comparingLong(RequestRecord::id)).map(rec -> rec.tokens().promptTokens()).toList();
    }

    @Test
    void calibratedSyntheticPromptsHaveTheRequestedTokenCount() {
        for (ApiKind kind : List.of(ApiKind.COMPLETIONS, ApiKind.CHAT)) {
            RunResult plain = Kneepoint.sweep(target(kind)).concurrency(1).inputTokens(100).outputTokens(4)
                    .maxRequestsPerStep(3).warmup(Duration.ZERO).stepDuration(Duration.ofSeconds(60))
                    .telemetry(Telemetry.off()).calibrate(false).outputDir(dir).name("plain").run();
            RunResult auto = Kneepoint.sweep(target(kind)).concurrency(1).inputTokens(100).outputTokens(4)
                    .maxRequestsPerStep(3).warmup(Duration.ZERO).stepDuration(Duration.ofSeconds(60))
                    .telemetry(Telemetry.off()).outputDir(dir).name("auto").run();
            RunResult exact = Kneepoint.sweep(target(kind)).concurrency(1).inputTokens(100).outputTokens(4)
                    .maxRequestsPerStep(3).warmup(Duration.ZERO).stepDuration(Duration.ofSeconds(60))
                    .telemetry(Telemetry.off()).calibrate(true).outputDir(dir).name("exact").run();
            SESSION.report(kind + " prompt tokens for 100 requested: plain " + promptTokens(plain)
                    + ", calibrated " + promptTokens(exact));
            assertThat(promptTokens(exact)).as("%s calibrated", kind).hasSize(3).containsOnly(100);
            // Left alone, a sweep calibrates where the server can tokenize, as llama-server can.
            assertThat(promptTokens(auto)).as("%s by default", kind).hasSize(3).containsOnly(100);
            // The synthetic words are not one SmolLM2 token each: uncalibrated, the count is off.
            assertThat(promptTokens(plain)).as("%s uncalibrated", kind).hasSize(3).doesNotContain(100);
        }
    }

    @Test
    void calibratedTraceReplayHasTheTraceLengths() throws IOException {
        Path trace = dir.resolve("t.jsonl");
        // Two requests sharing a 64-token block (the second one's prefix), then one of its own.
        Files.write(trace, List.of(
                "{\"timestamp\": 0, \"input_length\": 90, \"output_length\": 4, \"hash_ids\": [7]}",
                "{\"timestamp\": 50, \"input_length\": 120, \"output_length\": 4, \"hash_ids\": [7]}",
                "{\"timestamp\": 100, \"input_length\": 40, \"output_length\": 4}"));
        RunResult r = Kneepoint.replay(target(ApiKind.CHAT), trace).traceBlockSize(64).calibrate(true)
                .telemetry(Telemetry.off()).outputDir(dir).name("trace").run();
        SESSION.report("trace prompt tokens (90, 120, 40 asked): " + promptTokens(r));
        assertThat(promptTokens(r)).containsExactly(90, 120, 40);
    }

    @Test
    void anSloSearchBracketsTheUsersLlamaServerTakesUnderATtftObjective() {
        // llama-server runs 4 slots here (.ci/real-server.sh): past them a user waits for a slot. The TTFT objective
        // is loose enough that one user passes on a busy 2-core machine; where exactly it breaks depends on that
        // machine, so the test checks the search, not a number: doubling, then bisecting, each probe judged.
        RunResult r = Kneepoint.sweep(target(ApiKind.CHAT)).sloSearch("concurrency")
                .slo(Slo.builder().ttftMs(1500).build()).sloAttainment(0.9).sloSearchMaxProbes(6)
                .inputTokens(32).outputTokens(16).warmup(Duration.ofSeconds(1)).stepDuration(Duration.ofSeconds(4))
                .telemetry(Telemetry.off()).outputDir(dir).name("slo-search").run();
        SloCapacity c = SloCapacity.of(r, new SloCapacity.Goal(SloCapacity.CONCURRENCY, 0.9, 0.05));
        SESSION.report("SLO search against llama-server: probes " + r.steps().stream().map(s -> s.info().label())
                .toList() + "; " + c.sentence());
        assertThat(r.complete()).isTrue();
        List<Integer> users = r.steps().stream().map(s -> s.info().concurrency()).toList();
        assertThat(users.get(0)).isEqualTo(1);
        assertThat(users).doesNotHaveDuplicates().hasSizeLessThanOrEqualTo(6);
        for (SloCapacity.Probe p : c.probes()) {
            assertThat(p.requests()).as(p.step()).isPositive();
            assertThat(p.attainment()).as(p.step()).isBetween(p.low(), p.high());
            assertThat(p.passes()).as(p.step()).isEqualTo(p.attainment() >= 0.9);
        }
        // Either the bracket closed at adjacent users, or the probes ran out with the bracket so far.
        if (c.maxPassing() != null && c.minFailing() != null) {
            assertThat(c.maxPassing().load()).isLessThan(c.minFailing().load());
            assertThat(c.closed() || users.size() == 6).isTrue();
        }
        assertThat(c.sentence()).startsWith("SLO capacity");
        assertThat(RunReport.write(r.directory().orElseThrow())).contains("SLO capacity search (concurrency");
    }

    @Test
    void repeatTrialsAndCostFiguresRunAgainstLlamaServer() throws IOException {
        // Two trials of two loads, interleaved, with a price: the report pools each load's trials, gives the spread
        // across them and the cost per million tokens of what llama-server streamed.
        RunResult r = Kneepoint.sweep(target(ApiKind.CHAT)).concurrency(1, 2).repeat(2).cost(1, 1.0)
                .inputTokens(32).outputTokens(16).warmup(Duration.ofMillis(500)).stepDuration(Duration.ofSeconds(2))
                .telemetry(Telemetry.off()).outputDir(dir).name("repeat").run();
        assertThat(r.steps()).extracting(s -> s.info().label()).containsExactly("c=1 #1", "c=2 #1", "c=1 #2", "c=2 #2");
        List<Trials.Load> loads = Trials.of(r);
        assertThat(loads).extracting(Trials.Load::load).containsExactly("c=1", "c=2");
        for (Trials.Load l : loads) {
            Trials.Stat out = l.metric("output_tokens_per_s");
            assertThat(out.n()).as(l.load()).isEqualTo(2);
            assertThat(out.mean()).as(l.load()).isPositive();
        }
        Path run = r.directory().orElseThrow();
        String report = RunReport.write(run);
        SESSION.report("repeat trials against llama-server:\n" + TrialTables.text(r));
        assertThat(report).contains("Repeat trials (2 per load").contains("Cost and energy (1 GPU(s), given; $1.00 per hour");
        JsonNode analysis = new ObjectMapper().readTree(run.resolve("analysis.json").toFile());
        assertThat(analysis.at("/efficiency/steps/0/usd_per_mtok_output").asDouble()).isPositive();
        assertThat(analysis.at("/steps")).hasSize(2); // one point per load: the trials pooled
    }
}
