package dev.kneepoint.cli.bench;

import static org.assertj.core.api.Assertions.assertThat;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import java.time.Instant;
import java.util.List;
import org.junit.jupiter.api.Test;

/** results.md and results.json of a report built from recorded outputs: the machine, verdicts, skipped parts, NaN. */
class BenchReportTest {
    private static final Machine MACHINE = new Machine("AMD EPYC", 2, 25_232_105_472L, "Debian GNU/Linux 12 (bookworm)",
            "Linux 6.18.0 amd64", "Temurin-25.0.3+9 25.0.3+9-LTS", "G1 Young Generation, G1 Concurrent GC, G1 Old Generation",
            "a30b1a8e6f00", true, Instant.parse("2026-11-29T13:44:00Z"));

    private static BenchReport report() throws Exception {
        LoadAverage l1 = new LoadAverage(6.41, 3.76, 2.22);
        LoadAverage l2 = new LoadAverage(11.3, 5.18, 2.74);
        PartResult client = new PartResult(Part.CLIENT, PartResult.Status.OK, "", "5 s each",
                BenchOutputs.client(BenchOutputsTest.fixture("client-quick-loaded.out"), 2000), l1, l2, 25.7,
                List.of("java -cp \"$CP\" dev.kneepoint.cli.Main bench --seconds 5"), List.of("client.out", "client.err"));
        PartResult kernel = PartResult.skipped(Part.KERNEL, "no project virtual env; run 'bin/kneepoint kernel install'", "1 launch", l2);
        PartResult analysis = new PartResult(Part.ANALYSIS, PartResult.Status.OK, "", "1,000,000 requests",
                BenchOutputs.analysis(BenchOutputsTest.fixture("analysis-1m-quiet.out"), 25.3), l2, l2, 31.0, List.of(), List.of());
        return new BenchReport(false, MACHINE, "lib/target/kneepoint-lib.jar:lib/target/lib/*", List.of(client, kernel, analysis), l1, l2);
    }

    @Test
    void jsonHoldsMachineFiguresAndVerdicts() throws Exception {
        JsonNode j = new ObjectMapper().readTree(report().json());
        assertThat(j.get("format").asText()).isEqualTo("kneepoint-bench-all/1");
        assertThat(j.get("mode").asText()).isEqualTo("full");
        assertThat(j.at("/machine/git_dirty").asBoolean()).isTrue();
        assertThat(j.at("/machine/cores").asInt()).isEqualTo(2);
        assertThat(j.at("/machine/load_average_start/0").asDouble()).isEqualTo(6.41);
        // client: 1 met (streams held), 2 missed (lag, ITL NaN), 3 without target; analysis: 2 met, 2 without target
        assertThat(j.at("/summary/met").asInt()).isEqualTo(3);
        assertThat(j.at("/summary/missed").asInt()).isEqualTo(2);
        assertThat(j.at("/summary/no_target").asInt()).isEqualTo(5);
        assertThat(j.at("/parts/1/status").asText()).isEqualTo("skipped");
        assertThat(j.at("/parts/1/reason").asText()).contains("bin/kneepoint kernel install");
        JsonNode lag = find(j.at("/parts/0/figures"), "client.dispatch.schedule_lag_p99_ms");
        assertThat(lag.get("value").asDouble()).isEqualTo(105.71);
        assertThat(lag.at("/target/op").asText()).isEqualTo("<=");
        assertThat(lag.at("/target/bound").asDouble()).isEqualTo(1.0);
        assertThat(lag.get("verdict").asText()).isEqualTo("missed");
        JsonNode itl = find(j.at("/parts/0/figures"), "client.streams.itl_p50_over_step");
        assertThat(itl.get("value").isNull()).isTrue(); // NaN is written as null, never as "NaN"
        assertThat(itl.get("ratio").isNull()).isTrue();
        assertThat(find(j.at("/parts/0/figures"), "client.streams.cpu_ns_per_token").get("target").isNull()).isTrue();
    }

    @Test
    void markdownShowsMachineTargetsAndSkips() throws Exception {
        BenchReport r = report();
        String md = r.markdown();
        assertThat(md).startsWith("# Kneepoint benchmark: all parts\n");
        assertThat(md).contains("3 met, 2 missed, 0 not judged, 5 without target.");
        assertThat(md).contains("| git commit | a30b1a8e6f00 (dirty: uncommitted changes) |");
        assertThat(md).contains("| memory | 23.5 GiB |");
        assertThat(md).contains("| client | open-loop dispatch accuracy: schedule_lag p99 (open 1000 req/s constant) | 106 ms | ≤ 1 ms | 105.71 | **missed** |");
        assertThat(md).contains("| analysis | heap held per request after GC | 143 B | ≤ 200 B | 0.72 | met |");
        assertThat(md).contains("| client not the bottleneck: ITL p50 / engine step (100 ms) | n/a |");
        assertThat(md).contains("| kernel | skipped: no project virtual env; run 'bin/kneepoint kernel install' |");
        assertThat(md).contains("```\nCP=\"lib/target/kneepoint-lib.jar:lib/target/lib/*\"\njava -cp \"$CP\" dev.kneepoint.cli.Main bench");
        assertThat(r.noPartFailed()).isTrue();
        BenchReport quick = new BenchReport(true, MACHINE, "", List.of(new PartResult(Part.SIM, PartResult.Status.FAILED,
                "sim exited with 1; see sim.err", "", List.of(), r.loadAtStart(), r.loadAtEnd(), 1, List.of(), List.of())),
                r.loadAtStart(), r.loadAtEnd());
        assertThat(quick.markdown()).contains("(--quick smoke run)").contains("| sim | failed: sim exited with 1; see sim.err |");
        assertThat(quick.noPartFailed()).isFalse();
    }

    private static JsonNode find(JsonNode figures, String key) {
        for (JsonNode f : figures) {
            if (f.get("key").asText().equals(key)) {
                return f;
            }
        }
        throw new AssertionError("no figure " + key);
    }
}
