package dev.kneepoint.sweep;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;
import static org.assertj.core.api.Assertions.within;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import dev.kneepoint.Kneepoint;
import dev.kneepoint.analysis.Knee;
import dev.kneepoint.analysis.KneeReport;
import dev.kneepoint.client.TargetConfig;
import dev.kneepoint.load.GateDecision;
import dev.kneepoint.metrics.RunResult;
import dev.kneepoint.metrics.StepInfo;
import dev.kneepoint.metrics.StepResult;
import dev.kneepoint.metrics.StepWindow;
import dev.kneepoint.sweep.Sweep;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.stream.Stream;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** {@link Sweep#rateSweep(int)} on the embedded simulator: rates planned from the two measured probes. */
class RateSweepTest {
    @TempDir
    Path runs;

    private static Sweep shortSweep(TargetConfig target, int openSteps) {
        // Short steps keep the test to a few seconds of a loaded 2-core machine; 16 output tokens on the fast preset
        // are ~35 ms a request, so even the synchronous step completes ~10 requests in its 0.5 s window.
        return Kneepoint.rateSweep(target, openSteps).inputTokens(32).outputTokens(16)
                .stepDuration(Duration.ofMillis(500)).warmup(Duration.ofMillis(100)).maxRequestsPerStep(200)
                .clientWarmup(false).outputDir(null);
    }

    private JsonNode manifest() throws Exception {
        try (Stream<Path> list = Files.list(runs)) {
            return new ObjectMapper().readTree(list.findFirst().orElseThrow().resolve("manifest.json").toFile());
        }
    }

    @Test
    void openStepsRunAtRatesEvenlySpacedStrictlyBetweenTheMeasuredSynchronousAndThroughputRates() throws Exception {
        RunResult r;
        try (dev.kneepoint.sim.Simulator sim = Kneepoint.simulator("fast")) {
            r = shortSweep(Kneepoint.target(sim), 3).throughputConcurrency(32).outputDir(runs).name("rs").run();
        }
        // The throughput probe doubles its users until throughput stops rising (at most 3 times): 2 to 4 probes.
        List<StepResult> probes = r.steps().stream().filter(s -> s.info().label().startsWith("throughput")).toList();
        assertThat(probes.size()).isBetween(2, 4);
        assertThat(r.steps()).hasSize(1 + probes.size() + 3);
        assertThat(r.steps()).extracting(s -> s.info().mode()).containsExactlyElementsOf(
                Stream.concat(Stream.generate(() -> "closed").limit(1 + probes.size()),
                        Stream.generate(() -> "open").limit(3)).toList());
        StepResult sync = r.step("synchronous");
        assertThat(sync.info().concurrency()).isEqualTo(1);
        assertThat(probes).extracting(s -> s.info().concurrency())
                .containsExactlyElementsOf(Stream.iterate(32, u -> u * 2).limit(probes.size()).toList());
        double rSync = sync.rates().requestsPerS();
        double rMax = probes.stream().mapToDouble(s -> s.rates().requestsPerS()).max().orElseThrow();
        assertThat(rMax).isGreaterThan(rSync * 1.05);

        JsonNode rs = manifest().at("/config/rate_sweep");
        assertThat(manifest().at("/config/mode").asText()).isEqualTo("rate-sweep");
        // The manifest records the very numbers the plan used: the probes' request throughput, exactly.
        assertThat(rs.get("synchronous_rps").asDouble()).isEqualTo(rSync);
        assertThat(rs.get("throughput_rps").asDouble()).isEqualTo(rMax);
        JsonNode sat = rs.get("saturation");
        assertThat(sat.get("probes")).hasSize(probes.size());
        assertThat(sat.get("verdict").asText()).containsAnyOf("saturated: ", "NOT saturated: ");
        if (probes.size() < 4) { // stopped early: the last doubling gained less than 5 %
            double gain = probes.get(probes.size() - 1).rates().requestsPerS()
                    / probes.get(probes.size() - 2).rates().requestsPerS() - 1;
            assertThat(gain).isLessThan(0.05);
            assertThat(sat.get("saturated").asBoolean()).isTrue();
        }
        List<Double> planned = new ArrayList<>();
        rs.get("planned_rates_rps").forEach(n -> planned.add(n.asDouble()));
        assertThat(planned).hasSize(3);
        double gap = (rMax - rSync) / 4;
        for (int k = 0; k < 3; k++) {
            double rate = planned.get(k);
            assertThat(rate).isGreaterThan(rSync).isLessThan(rMax);
            // Evenly spaced: r_sync + (k+1)(r_max - r_sync)/4, up to the rounding to 5 significant digits (half a
            // unit in the 5th digit is at most 5e-5 of the rate; 1e-4 leaves a factor of two).
            assertThat(rate).isCloseTo(rSync + (k + 1) * gap, within(1e-4 * rate));
            StepResult open = r.steps().get(1 + probes.size() + k);
            // Each open step is planned at exactly the recorded rate, with the default Poisson arrivals.
            assertThat(open.info().rateRps()).isEqualTo(rate);
            assertThat(open.info().arrival()).startsWith("poisson");
            assertThat(open.counts().requestsOk()).isPositive();
        }
        // The knee is computed over the open steps only: a concurrency of 1 or 32 is no point of the rate axis.
        KneeReport knee = Knee.analyze(r);
        assertThat(knee.steps().rowCount()).isEqualTo(3);
        assertThat(manifest().get("ending").asText()).startsWith("completed: all " + r.steps().size() + " steps completed");
    }

    @Test
    void aTargetWhoseProbeFailsStopsAfterItWithTheReason() throws Exception {
        // Nothing listens on port 9: every request of the synchronous step fails (connection refused), fast.
        RunResult r = shortSweep(Kneepoint.target("http://127.0.0.1:9", "m"), 4).maxRequestsPerStep(20)
                .telemetry(dev.kneepoint.telemetry.Telemetry.off()).outputDir(runs).name("down").preflight(false).run();
        assertThat(r.steps()).extracting(s -> s.info().label()).containsExactly("synchronous");
        assertThat(r.step("synchronous").counts().requestsOk()).isZero();
        JsonNode m = manifest();
        assertThat(m.get("ending").asText()).startsWith("gate_stopped: stopped after step 'synchronous':"
                + " the rate sweep's synchronous step completed no request (");
        assertThat(m.at("/config/rate_sweep/planned_rates_rps").isNull()).isTrue();
    }

    /** A probe's result with {@code ok} and {@code failed} requests and a request throughput of {@code rps}. */
    private static StepResult probe(int index, String label, int users, double rps, long ok, long failed) {
        StepInfo info = new StepInfo(index, label, StepInfo.CLOSED, users, Double.NaN, "", -1, "", 0, 1_000_000_000L, -1);
        return StepResult.builder().info(info).window(new StepWindow(0, 0, 1_000_000_000L, true))
                .requestsOk(ok).requestsFailed(failed).requestsPerS(rps).build();
    }

    @Test
    void theThroughputStepMustBeMoreThanFivePercentAboveTheSynchronousOneAndNeitherMayFailMostRequests() {
        SweepSpec s = Kneepoint.rateSweep(Kneepoint.target("http://127.0.0.1:9", "m"), 3).throughputConcurrency(8)
                .validate();
        SweepSpec.Mode.RateSweep m = (SweepSpec.Mode.RateSweep) s.mode();
        StepResult sync = probe(0, "synchronous", 1, 10.0, 10, 0);
        assertThat(SweepRates.plan(s, m, List.of(sync), new LinkedHashMap<>())).isInstanceOf(GateDecision.Proceed.class);

        // 10.4 req/s is 4% above 10: no headroom (a server that serves one request at a time, up to noise).
        Map<String, Object> record = new LinkedHashMap<>();
        GateDecision flat = SweepRates.plan(s, m, List.of(sync, probe(1, "throughput", 8, 10.4, 10, 0)), record);
        assertThat(flat).isInstanceOf(GateDecision.Stop.class);
        assertThat(((GateDecision.Stop) flat).reason()).startsWith("no headroom to sweep: the throughput step (8 users)"
                + " completed 10.400 requests/s, not more than 5% above the synchronous step's 10.000 requests/s");
        assertThat(record).containsEntry("synchronous_rps", 10.0).containsEntry("throughput_rps", 10.4)
                .doesNotContainKey("planned_rates_rps");

        // 10.6 is 6% above: enough headroom, and the next probe doubles the users to see whether 8 saturated.
        record.clear();
        StepResult first = probe(1, "throughput", 8, 10.6, 10, 0);
        GateDecision more = SweepRates.plan(s, m, List.of(sync, first), record);
        assertThat(more).isInstanceOf(GateDecision.Extend.class);
        assertThat(((GateDecision.Extend) more).more()).extracting(st -> st.info(0).label(), st -> st.info(0).concurrency())
                .containsExactly(org.assertj.core.groups.Tuple.tuple("throughput-16", 16));
        assertThat(record).doesNotContainKey("planned_rates_rps");

        // 16 users gain under 5% (10.6 -> 11.0: +3.8%): saturated; r_max is the highest, three rates at 10 + k 1.0 / 4.
        record.clear();
        GateDecision ok = SweepRates.plan(s, m, List.of(sync, first, probe(2, "throughput-16", 16, 11.0, 10, 0)), record);
        assertThat(ok).isInstanceOf(GateDecision.Extend.class);
        assertThat(((GateDecision.Extend) ok).more()).extracting(st -> st.info(0).rateRps())
                .containsExactly(10.25, 10.5, 10.75);
        assertThat(record.get("planned_rates_rps")).isEqualTo(List.of(10.25, 10.5, 10.75));
        assertThat(record).containsEntry("throughput_rps", 11.0).containsEntry("throughput_users", 16);
        assertThat(((GateDecision.Extend) ok).note()).contains("saturated: +4% from 8 to 16 users");

        // Still rising after three doublings (8, 16, 32, 64 users): planned up to the last, said to be a lower bound.
        record.clear();
        GateDecision rising = SweepRates.plan(s, m, List.of(sync, first, probe(2, "throughput-16", 16, 14, 10, 0),
                probe(3, "throughput-32", 32, 20, 10, 0), probe(4, "throughput-64", 64, 30, 10, 0)), record);
        assertThat(((GateDecision.Extend) rising).more()).allSatisfy(st -> assertThat(st.info(0).isOpenLoop()).isTrue());
        assertThat(record).containsEntry("throughput_rps", 30.0);
        assertThat(((GateDecision.Extend) rising).note()).contains("NOT saturated: +50% from 32 to 64 users after 3"
                + " doublings, so r_max is a lower bound");

        // A doubled probe failing most of its requests saturated the server: r_max is the probe before it.
        record.clear();
        GateDecision broke = SweepRates.plan(s, m, List.of(sync, first, probe(2, "throughput-16", 16, 30, 4, 6)), record);
        assertThat(record).containsEntry("throughput_rps", 10.6).containsEntry("throughput_probe", "throughput");
        assertThat(((GateDecision.Extend) broke).note()).contains("saturated: the probe at 16 users failed most requests");

        // 6 of 10 failed on the first throughput probe: more than half, the rate is not trusted.
        GateDecision failing = SweepRates.plan(s, m, List.of(sync, probe(1, "throughput", 8, 40, 4, 6)), record);
        assertThat(((GateDecision.Stop) failing).reason()).startsWith("the rate sweep's throughput step failed 6 of 10");
        // 5 of 10 is not most: probing goes on.
        assertThat(SweepRates.plan(s, m, List.of(sync, probe(1, "throughput", 8, 40, 5, 5)), record))
                .isInstanceOf(GateDecision.Extend.class);
    }

    @Test
    void invalidRateSweepSettingsAreAllReportedAtOnce() {
        TargetConfig nowhere = Kneepoint.target("http://127.0.0.1:9", "m");
        assertThatThrownBy(() -> Kneepoint.rateSweep(nowhere, 1).concurrency(1, 2).rates(3).baseline(true)
                .throughputConcurrency(1).thinkTime(Duration.ofMillis(5))
                .backgroundPerStep(i -> dev.kneepoint.request.RequestSpec.of("bg", 4), 1, 2).outputDir(null).run())
                .isInstanceOf(IllegalArgumentException.class)
                .hasMessageContaining("6 problems")
                .hasMessageContaining("per-step rates cannot follow a rate sweep")
                .hasMessageContaining("rateSweep takes 2 to 50 open-loop steps, got 1")
                .hasMessageContaining("remove the concurrency levels and the request rates")
                .hasMessageContaining("remove baseline(true)")
                .hasMessageContaining("throughputConcurrency must be >= 2")
                .hasMessageContaining("thinkTime does not apply");
        assertThatThrownBy(() -> Kneepoint.rateSweep(nowhere, 51).trace(Path.of("t.jsonl")).outputDir(null).run())
                .hasMessageContaining("got 51").hasMessageContaining("remove the a trace");
        assertThatThrownBy(() -> Kneepoint.ladder(nowhere, 1).throughputConcurrency(64).outputDir(null).run())
                .hasMessageContaining("throughputConcurrency applies to a rate sweep only");
    }

    @Test
    void plannedRatesAreTheInteriorPointsOfAnEvenGrid() {
        // Hand-derived: between 2 and 10 with 3 steps, the gap is 8/4 = 2.
        assertThat(SweepRates.between(2, 10, 3)).containsExactly(4.0, 6.0, 8.0);
        // 1/3-spaced: 1 + k/3 rounded to 5 significant digits.
        assertThat(SweepRates.between(1, 2, 2)).containsExactly(1.3333, 1.6667);
    }
}
