package dev.kneepoint.cli.peers;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.within;

import dev.kneepoint.cli.peers.PeerComparison.ToolSummary;
import dev.kneepoint.io.PeerPoint;
import java.io.IOException;
import java.net.URISyntaxException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * Parsing of real tool outputs (recorded against the simulator with AIPerf 0.13.0, GuideLLM 0.8.1 and
 * Kneepoint, then trimmed: a few per-request records kept, unused metrics dropped) and the ratio code.
 * Expected values are copied from the fixture files or computed by hand from them (shown in comments);
 * tolerances only absorb floating-point rounding.
 */
class PeerOutputsTest {
    private static final double EPS = 1e-6;

    private static Path fixtures() throws URISyntaxException {
        return Path.of(PeerOutputsTest.class.getResource("/peers").toURI());
    }

    @Test
    void readsAiperf() throws Exception {
        PeerRun r = PeerOutputs.read(fixtures().resolve("aiperf-c8-n100"));
        assertThat(r.error()).isNull();
        assertThat(r.tool()).isEqualTo("aiperf");
        assertThat(r.cpuS()).isCloseTo(13.35, within(EPS)); // time.txt: 10.35 user + 3.00 sys
        assertThat(r.wallS()).isCloseTo(56.13, within(EPS));
        PeerPoint p = r.points().get(0);
        assertThat(p.mode()).isEqualTo("closed");
        assertThat(p.load()).isEqualTo(8); // run.properties load=8:100
        assertThat(p.requestsOk()).isEqualTo(100);
        assertThat(p.requestsFailed()).isZero();
        assertThat(p.outputTokens()).isEqualTo(12800);
        assertThat(p.ttftP50Ms()).isCloseTo(9.3296835, within(EPS));
        assertThat(p.ttftP99Ms()).isCloseTo(819.09952612, within(EPS));
        assertThat(p.tpotP50Ms()).isCloseTo(2.1614806141732283, within(EPS)); // AIPerf's ITL = our TPOT
        assertThat(p.outputTokensPerS()).isCloseTo(2522.2183003194564, within(EPS));
        assertThat(p.lagP99Ms()).isCloseTo(119.67407872000008, within(EPS)); // credit_to_start_latency
        // 5 records kept; (5 - 1) / (last - first request_start_ns)
        assertThat(p.dispatchRps()).isCloseTo(242.44240356, within(1e-6));
    }

    @Test
    void readsGuidellmClosedAndOpen() throws Exception {
        PeerRun closed = PeerOutputs.read(fixtures().resolve("guidellm-c8-n100"));
        assertThat(closed.error()).isNull();
        PeerPoint p = closed.points().get(0);
        assertThat(p.mode()).isEqualTo("closed");
        assertThat(p.load()).isEqualTo(8); // strategy.streams
        assertThat(p.requestsOk()).isEqualTo(100);
        assertThat(p.outputTokens()).isEqualTo(12800);
        assertThat(p.ttftP50Ms()).isCloseTo(8.924007415771484, within(EPS));
        assertThat(p.ttftP99Ms()).isCloseTo(42.847394943237305, within(EPS));
        assertThat(p.tpotP50Ms()).isCloseTo(2.155091818862074, within(EPS)); // GuideLLM's ITL = our TPOT
        assertThat(p.outputTokensPerS()).isCloseTo(12800 / 3.892622709274292, within(1e-6));
        // request_dispatch_delay of the 4 kept requests, ms: 9.268, 5.913, 6.940, 21.523 -> p50 = (6.940 + 9.268) / 2
        assertThat(p.lagP50Ms()).isCloseTo((6.940364837646484 + 9.26828384399414) / 2, within(1e-9));

        PeerRun open = PeerOutputs.read(fixtures().resolve("guidellm-rates"));
        assertThat(open.cpuS()).isCloseTo(29.98, within(EPS)); // the status line before "26.63 3.35 138.25" is skipped
        assertThat(open.points()).extracting(PeerPoint::load).containsExactly(20.0, 40.0);
        PeerPoint r20 = open.points().get(0);
        assertThat(r20.requestsOk()).isEqualTo(55);
        assertThat(r20.requestsFailed()).as("54 'incomplete' (cut off by max_duration) are not failures").isZero();
        assertThat(r20.dispatchRps()).isCloseTo(20.4671747, within(1e-6));
        // lags 4.666, 4.730, 5.911, 9.335 ms: p99 at rank 2.97 = 5.911 + 0.97 * (9.335 - 5.911) < 10 ms
        assertThat(r20.lagP99Ms()).isCloseTo(9.2323, within(1e-3));
        assertThat(r20.sustained(PeerComparison.MAX_LAG_P99_MS)).isTrue();
        // 40 req/s: one request was dispatched 99.6 ms late -> lag p99 > 10 ms
        assertThat(open.points().get(1).lagP99Ms()).isGreaterThan(90);
        assertThat(open.points().get(1).sustained(PeerComparison.MAX_LAG_P99_MS)).isFalse();
    }

    @Test
    void readsVllm() throws Exception {
        PeerRun r = PeerOutputs.read(fixtures().resolve("vllm-c8-n100"));
        assertThat(r.error()).isNull();
        assertThat(r.cpuS()).isCloseTo(10.35, within(EPS)); // 8.67 + 1.68
        PeerPoint p = r.points().get(0);
        assertThat(p.load()).isEqualTo(8);
        assertThat(p.requestsOk()).isEqualTo(100);
        assertThat(p.outputTokens()).isEqualTo(12800);
        assertThat(p.ttftP50Ms()).isCloseTo(12.879098499070096, within(EPS));
        assertThat(p.tpotP50Ms()).isCloseTo(2.163844673226218, within(EPS));
        // 5 requests kept, the 5th marked failed in the fixture: 3 intervals over the first 4 start_times
        assertThat(p.dispatchRps()).isCloseTo(2115.8364, within(1e-3));
        // queue_times of the 4 successful ones, ms: 0.630, 0.850, 0.901, 1.993 -> p50 = (0.850 + 0.901) / 2
        assertThat(p.lagP50Ms()).isCloseTo((0.8495950005453778 + 0.9014539991767379) / 2, within(1e-9));
    }

    @Test
    void readsKneepoint() throws Exception {
        PeerRun r = PeerOutputs.read(fixtures().resolve("kneepoint-c8-n100"));
        assertThat(r.error()).isNull();
        PeerPoint p = r.points().get(0);
        assertThat(p.mode()).isEqualTo("closed");
        assertThat(p.load()).isEqualTo(8);
        assertThat(p.requestsOk()).isEqualTo(100);
        // every record's output_tokens (100 x 128), not the window's 2725.12183 tok/s x 4.601262 s = 12,539
        assertThat(p.outputTokens()).isEqualTo(12800);
        assertThat(p.ttftP50Ms()).isCloseTo(6.545407, within(EPS));
        assertThat(p.lagP99Ms()).isCloseTo(461.897727, within(EPS));
        assertThat(p.dispatchRps()).isCloseTo(23.6958995, within(1e-6)); // 100 dispatches
    }

    @Test
    void comparesWithRatiosToKneepoint() throws Exception {
        List<PeerRun> runs = List.of(PeerOutputs.read(fixtures().resolve("kneepoint-c8-n100")),
                PeerOutputs.read(fixtures().resolve("aiperf-c8-n100")), PeerOutputs.read(fixtures().resolve("guidellm-rates")));
        PeerComparison c = PeerComparison.of(runs);
        ToolSummary kp = c.tool("kneepoint");
        ToolSummary ai = c.tool("aiperf");
        assertThat(kp.cpuMethod()).isEqualTo("total");
        assertThat(kp.cpuNsPerToken()).isCloseTo(4.61e9 / 12800, within(1e-3));
        assertThat(ai.cpuNsPerToken()).isCloseTo(13.35e9 / 12800, within(1e-3));
        // (13.35 / 12800) / (4.61 / 12800) = 2.8959...
        assertThat(PeerComparison.ratio(ai.cpuNsPerToken(), kp.cpuNsPerToken())).isCloseTo(13.35 / 4.61, within(1e-9));
        ToolSummary g = c.tool("guidellm");
        assertThat(g.maxSustainedRps()).isEqualTo(20);
        assertThat(g.firstUnsustainedRps()).isEqualTo(40);
        assertThat(g.maxDispatchedRps()).as("40 req/s was dispatched at 50 req/s, lag ignored").isEqualTo(40);
        assertThat(c.tools()).extracting(ToolSummary::tool).startsWith("kneepoint");

        String md = PeerReport.markdown(Map.of("cpus", "2"), runs, c);
        assertThat(md).contains("| aiperf | 1,043.0 | 2.90× | total |").contains("| guidellm | 40 | 50.1 | 1.252 |");
        assertThat(PeerReport.json(Map.of(), runs, c)).contains("\"cpu_per_token_vs_kneepoint\" : 2.895879")
                .doesNotContain("NaN");
    }

    @Test
    void marginalCpuCancelsStartup() {
        // short run: 1,000 tokens for 2.0 s of CPU; long run: 11,000 tokens for 4.0 s
        // -> 2.0 s / 10,000 tokens = 200,000 ns per token, and 2.0 - 0.0002 * 1,000 = 1.8 s of start-up
        PeerRun small = run("t-short", 2.0, 1000);
        PeerRun large = run("t-long", 4.0, 11000);
        ToolSummary t = PeerComparison.summarise("t", List.of(large, small));
        assertThat(t.cpuMethod()).isEqualTo("marginal");
        assertThat(t.cpuNsPerToken()).isCloseTo(200_000, within(1e-6));
        assertThat(t.startupCpuS()).isCloseTo(1.8, within(1e-9));
        assertThat(t.closed().outputTokens()).isEqualTo(11000);
        assertThat(t.openCpuNsPerToken()).as("no open-loop runs").isNaN();

        // with an open-loop run of 3.8 s and 20,000 tokens: (3.8 - 1.8) / 20,000 = 100,000 ns per token
        PeerRun open20k = new PeerRun("t-open", "t", "open", "100", 0, 3.8, 0, 10, "",
                List.of(new PeerPoint("open", 100, 156, 0, 20000, 6, 1, 1, 1, 1, 100, 0.1, 1, 100)), null);
        assertThat(PeerComparison.summarise("t", List.of(small, large, open20k)).openCpuNsPerToken())
                .isCloseTo(100_000, within(1e-6));
    }

    @Test
    void aColdFirstRateDoesNotHideTheHigherOnesSustained() {
        // 25 req/s: lag p99 76 ms (cold JVM); 50 and 100: fine; 200: lag p99 15 ms; all dispatched on time
        PeerRun r = new PeerRun("k", "k", "open", "25,50,100,200", 0, 1, 0, 1, "", List.of(open(25, 75.7),
                open(50, 6.2), open(100, 6.0), open(200, 15.5)), null);
        ToolSummary t = PeerComparison.summarise("k", List.of(r));
        assertThat(t.maxSustainedRps()).isEqualTo(100);
        assertThat(t.firstUnsustainedRps()).isEqualTo(200);
        assertThat(t.maxDispatchedRps()).isEqualTo(200);
    }

    private static PeerPoint open(double rate, double lagP99Ms) {
        return new PeerPoint("open", rate, 100, 0, 12800, 1, 1, 1, 1, 1, rate, 0.1, lagP99Ms, rate);
    }

    @Test
    void missingOutputIsAnErrorNotAnException(@TempDir Path dir) throws IOException {
        Files.writeString(dir.resolve("run.properties"), "tool=aiperf\nkind=closed\nload=8:10\nrc=1\n");
        PeerRun r = PeerOutputs.read(dir);
        assertThat(r.points()).isEmpty();
        assertThat(r.error()).contains("profile_export_aiperf.json");
        assertThat(r.cpuS()).isNaN();
        ToolSummary t = PeerComparison.summarise("aiperf", List.of(r));
        assertThat(t.errors()).containsKey(dir.getFileName().toString());
        assertThat(t.cpuMethod()).isEqualTo("none");
    }

    @Test
    void percentileAndRate() {
        assertThat(dev.kneepoint.io.PeerResults.percentile(new double[] {4, 1, 3, 2}, 50)).isEqualTo(2.5);
        assertThat(dev.kneepoint.io.PeerResults.percentile(new double[] {Double.NaN}, 50)).isNaN();
        assertThat(dev.kneepoint.io.PeerResults.rate(new double[] {2.0, 0.0, 1.0})).isEqualTo(1.0); // 2 intervals over 2 s
        assertThat(dev.kneepoint.io.PeerResults.rate(new double[] {1.0})).isNaN();
    }

    private static PeerRun run(String name, double cpuS, long tokens) {
        PeerPoint p = new PeerPoint("closed", 8, tokens / 100, 0, tokens, 1, 1, 1, 1, 1, 1, Double.NaN, Double.NaN, 1);
        return new PeerRun(name, "t", "closed", "8:" + tokens / 100, 0, cpuS, 0, 10, "", List.of(p), null);
    }
}
