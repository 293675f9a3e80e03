package dev.kneepoint.cli.bench;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;
import static org.assertj.core.api.Assertions.within;

import java.io.IOException;
import java.io.InputStream;
import java.nio.charset.StandardCharsets;
import java.util.List;
import java.util.Map;
import java.util.function.Function;
import java.util.stream.Collectors;
import org.junit.jupiter.api.Test;

/**
 * Parsing of the four benches' outputs into figures and verdicts. {@code *-loaded} fixtures are recorded
 * from {@code bin/kneepoint bench --all --quick} on the shared 2-core machine (load average 6-13); the
 * {@code *-quiet} ones are the quiet-machine figures of bench/reference/performance-history.md written in each bench's print
 * format. Expected numbers are copied from the fixtures; tolerances only absorb floating-point rounding.
 */
class BenchOutputsTest {
    private static final double EPS = 1e-9;

    static String fixture(String name) throws IOException {
        try (InputStream in = BenchOutputsTest.class.getResourceAsStream("/benchall/" + name)) {
            assertThat(in).as(name).isNotNull();
            return new String(in.readAllBytes(), StandardCharsets.UTF_8);
        }
    }

    static Map<String, Figure> byKey(List<Figure> figures) {
        return figures.stream().collect(Collectors.toMap(Figure::key, Function.identity()));
    }

    @Test
    void clientOnAQuietMachineMeetsItsTargets() throws IOException {
        Map<String, Figure> f = byKey(BenchOutputs.client(fixture("client-quiet.out"), 2000));
        assertThat(f.get("client.dispatch.schedule_lag_p99_ms").value()).isCloseTo(0.312, within(EPS));
        assertThat(f.get("client.dispatch.schedule_lag_p99_ms").verdict()).isEqualTo(Verdict.MET);
        assertThat(f.get("client.dispatch.schedule_lag_p99_ms").ratio()).isCloseTo(0.312, within(EPS)); // / 1 ms
        assertThat(f.get("client.dispatch.schedule_lag_p99_ms").note()).isEqualTo("p50 0.017, p99.9 2.770, max 3.8 ms");
        // 1,999 held of 2,000: within the stated 1 % (bound 1,980); ratio against the nominal 2,000
        assertThat(f.get("client.streams.concurrency_mean").verdict()).isEqualTo(Verdict.MET);
        assertThat(f.get("client.streams.concurrency_mean").ratio()).isCloseTo(1999 / 2000.0, within(EPS));
        assertThat(f.get("client.streams.itl_p50_over_step").value()).isCloseTo(1.0, within(EPS)); // 100.0 / 100 ms
        assertThat(f.get("client.streams.itl_p50_over_step").verdict()).isEqualTo(Verdict.MET);
        assertThat(f.get("client.streams.itl_p50_over_step").ratio()).isCloseTo(1.0, within(EPS)); // nominal 1.0, bound 1.1
        // the better of the two ingest rows (c=64: 100,196 over c=16: 81,028)
        assertThat(f.get("client.ingest.tokens_per_s_per_core").value()).isCloseTo(100196, within(EPS));
        assertThat(f.get("client.ingest.tokens_per_s_per_core").note()).contains("closed c=64");
        assertThat(f.get("client.streams.cpu_ns_per_token").value()).isCloseTo(24517, within(EPS));
        assertThat(f.get("client.streams.cpu_ns_per_token").verdict()).isEqualTo(Verdict.NO_TARGET);
        assertThat(f.get("client.dispatch.cpu_ns_per_token").value()).isCloseTo(162419, within(EPS));
    }

    @Test
    void clientOnTheLoadedMachineMissesAndSaysSo() throws IOException {
        Map<String, Figure> f = byKey(BenchOutputs.client(fixture("client-quick-loaded.out"), 2000));
        assertThat(f.get("client.dispatch.schedule_lag_p99_ms").value()).isCloseTo(105.710, within(EPS));
        assertThat(f.get("client.dispatch.schedule_lag_p99_ms").verdict()).isEqualTo(Verdict.MISSED);
        assertThat(f.get("client.streams.concurrency_mean").verdict()).isEqualTo(Verdict.MET); // 2000
        // no stream ended inside the 2 s window: ITL is NaN, which never meets a target
        assertThat(f.get("client.streams.itl_p50_over_step").value()).isNaN();
        assertThat(f.get("client.streams.itl_p50_over_step").verdict()).isEqualTo(Verdict.MISSED);
        assertThat(f.get("client.ingest.tokens_per_s_per_core").value()).isCloseTo(71757, within(EPS));
    }

    @Test
    void clientWithoutADispatchRowNamesIt() throws IOException {
        String noDispatch = fixture("client-quiet.out").lines().filter(l -> !l.startsWith("| dispatch"))
                .collect(Collectors.joining("\n"));
        assertThatThrownBy(() -> BenchOutputs.client(noDispatch, 2000)).isInstanceOf(IllegalArgumentException.class)
                .hasMessageContaining("'dispatch'");
        assertThatThrownBy(() -> BenchOutputs.client(fixture("client-quiet.out").replace("| 2001 | 162419 |", "| 2001 | fast |"), 2000))
                .isInstanceOf(IllegalArgumentException.class).hasMessageContaining("not a number: 'fast'");
    }

    @Test
    void sim() throws IOException {
        Map<String, Figure> quiet = byKey(BenchOutputs.sim(fixture("sim-quiet.out")));
        assertThat(quiet.get("sim.emitted_tokens_per_s").value()).isCloseTo(49858, within(EPS));
        // 49,858 >= 0.98 * 50,000 = 49,000 (the case is paced at exactly 50,000)
        assertThat(quiet.get("sim.emitted_tokens_per_s").verdict()).isEqualTo(Verdict.MET);
        assertThat(quiet.get("sim.emitted_tokens_per_s").ratio()).isCloseTo(49858 / 50000.0, within(EPS));
        assertThat(quiet.get("sim.emission_lag_p99_ms").value()).isCloseTo(1.21, within(EPS));
        assertThat(quiet.get("sim.emission_lag_p99_ms").verdict()).isEqualTo(Verdict.MET);
        assertThat(quiet.get("sim.concurrency_mean").verdict()).isEqualTo(Verdict.MET);
        assertThat(quiet.get("sim.cpu_us_per_token").value()).isCloseTo(16.3, within(EPS));
        assertThat(quiet.get("sim.cpu_us_per_token").note()).startsWith("client-nio 7.6, sim-engine 7.8");

        Map<String, Figure> loaded = byKey(BenchOutputs.sim(fixture("sim-quick-loaded.out")));
        assertThat(loaded.get("sim.emitted_tokens_per_s").value()).isCloseTo(2882, within(EPS));
        assertThat(loaded.get("sim.emitted_tokens_per_s").verdict()).isEqualTo(Verdict.MISSED);
        assertThat(loaded.get("sim.emission_lag_p99_ms").value()).isCloseTo(2772.43, within(EPS));
        assertThat(loaded.get("sim.emission_lag_p99_ms").verdict()).isEqualTo(Verdict.MISSED);
        assertThat(loaded.get("sim.emitted_tokens_per_s").note()).contains("received 2,825 tok/s (0.980 of emitted)");
        assertThatThrownBy(() -> BenchOutputs.sim("transport NIO\n")).hasMessageContaining("case row");

        // bench-sim after it gained the GC, allocation and load columns (quiet machine, 2026-11-29 15:05 UTC):
        // the columns are found by name, so the added ones do not shift the parse
        Map<String, Figure> gc = byKey(BenchOutputs.sim(fixture("sim-quiet-gc-columns.out")));
        assertThat(gc.get("sim.emission_lag_p99_ms").value()).isEqualTo(1.39);
        assertThat(gc.get("sim.emitted_tokens_per_s").value()).isEqualTo(50002);
        assertThat(gc.get("sim.concurrency_mean").value()).isEqualTo(2000);
        assertThat(gc.get("sim.cpu_us_per_token").value()).isEqualTo(16.8);
    }

    @Test
    void kernel() throws IOException {
        Map<String, Figure> quiet = byKey(BenchOutputs.kernel(fixture("kernel-quiet.out")));
        assertThat(quiet.get("kernel.cold_start_s").value()).isCloseTo(1.64, within(EPS));
        assertThat(quiet.get("kernel.cold_start_s").verdict()).isEqualTo(Verdict.MET);
        assertThat(quiet.get("kernel.trivial_cell_ms").value()).isCloseTo(27.0, within(EPS));
        assertThat(quiet.get("kernel.trivial_cell_ms").verdict()).isEqualTo(Verdict.MET);
        assertThat(quiet.get("kernel.trivial_cell_ms").note()).isEqualTo("p90 49.0 ms, min 14.0 ms, 150 cells");
        assertThat(quiet.get("kernel.lsmagic_ms").value()).isCloseTo(3.0, within(EPS));

        Map<String, Figure> loaded = byKey(BenchOutputs.kernel(fixture("kernel-loaded.out")));
        assertThat(loaded.get("kernel.cold_start_s").value()).isCloseTo(4.27, within(EPS));
        assertThat(loaded.get("kernel.cold_start_s").verdict()).isEqualTo(Verdict.MISSED); // 4.27 > 3
        assertThat(loaded.get("kernel.cold_start_s").ratio()).isCloseTo(4.27 / 3, within(EPS));
        assertThat(loaded.get("kernel.trivial_cell_ms").value()).isCloseTo(181.6, within(EPS));
        assertThat(loaded.get("kernel.trivial_cell_ms").verdict()).isEqualTo(Verdict.MISSED); // 181.6 > 50
        assertThatThrownBy(() -> BenchOutputs.kernel("cold start to first result: median 1.00 s (runs: 1.00)\n"))
                .hasMessageContaining("kernel trivial cell");
    }

    @Test
    void analysisJudgesOnlyTheSizeTheTargetsAreFor() throws IOException {
        Map<String, Figure> full = byKey(BenchOutputs.analysis(fixture("analysis-1m-quiet.out"), 25.3));
        assertThat(full.get("analysis.total_s").value()).isCloseTo(3.46, within(EPS));
        assertThat(full.get("analysis.total_s").verdict()).isEqualTo(Verdict.MET);
        assertThat(full.get("analysis.total_s").note()).isEqualTo("load 2.86 s + summary 0.030 s + plots 0.57 s; process CPU 6.47 s");
        assertThat(full.get("analysis.heap_bytes_per_request").value()).isCloseTo(143, within(EPS));
        assertThat(full.get("analysis.heap_bytes_per_request").verdict()).isEqualTo(Verdict.MET);
        assertThat(full.get("analysis.idle_2core_estimate_s").value()).isCloseTo(3.05, within(EPS));
        assertThat(full.get("analysis.requests").value()).isCloseTo(1_000_000, within(EPS));
        assertThat(full.get("analysis.requests").note()).contains("1,343,965,898 bytes").contains("took 25.3 s");

        Map<String, Figure> small = byKey(BenchOutputs.analysis(fixture("analysis-50k-loaded.out"), 4.2));
        assertThat(small.get("analysis.total_s").value()).isCloseTo(10.44, within(EPS));
        assertThat(small.get("analysis.total_s").verdict()).isEqualTo(Verdict.NOT_JUDGED);
        assertThat(small.get("analysis.total_s").note()).endsWith("the target is for 1,000,000 requests, this run had 50,000");
        assertThat(small.get("analysis.heap_bytes_per_request").value()).isCloseTo(499, within(EPS));
        assertThat(small.get("analysis.heap_bytes_per_request").verdict()).isEqualTo(Verdict.NOT_JUDGED);
        assertThat(small.get("analysis.requests").verdict()).isEqualTo(Verdict.NO_TARGET);
    }

    @Test
    void targetsAreInclusiveAndNaNNeverMeetsThem() {
        assertThat(Target.atMost(1, "≤ 1 ms").met(1.0)).isTrue();
        assertThat(Target.atMost(1, "≤ 1 ms").met(1.0000001)).isFalse();
        assertThat(Target.atLeast(1980, 2000, "≥ 2,000").met(1980)).isTrue();
        assertThat(Target.atLeast(1980, 2000, "≥ 2,000").met(1979.9)).isFalse();
        assertThat(Target.atMost(1, "≤ 1 ms").met(Double.NaN)).isFalse();
        assertThat(Target.atLeast(1980, 2000, "≥ 2,000").ratio(1000)).isCloseTo(0.5, within(EPS));
    }

    @Test
    void partsAndLoadAverage() {
        assertThat(Part.parseList(" analysis, client ")).containsExactly(Part.CLIENT, Part.ANALYSIS);
        assertThatThrownBy(() -> Part.parseList("client,gpu,Disk")).isInstanceOf(IllegalArgumentException.class)
                .hasMessageContaining("'gpu'").hasMessageContaining("'disk'").hasMessageContaining("client, sim, kernel, analysis");
        assertThatThrownBy(() -> Part.parseList(",")).hasMessageContaining("empty list");
        LoadAverage l = LoadAverage.parse("3.32 2.11 1.46 3/412 9999\n");
        assertThat(l).isEqualTo(new LoadAverage(3.32, 2.11, 1.46));
        assertThat(l.toString()).isEqualTo("3.32 2.11 1.46");
    }
}
