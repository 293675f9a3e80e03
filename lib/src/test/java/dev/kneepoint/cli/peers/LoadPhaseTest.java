package dev.kneepoint.cli.peers;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.within;

import dev.kneepoint.cli.peers.PeerComparison.ToolSummary;
import dev.kneepoint.io.PeerPoint;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

class LoadPhaseTest {

    /**
     * Start-up burns 3 s of CPU before any token, report writing 2 s after the last: the window is strictly
     * inside the load (first sample above the start count to last sample below the final count).
     */
    @Test
    void windowLeavesStartUpAndTeardownOut(@TempDir Path dir) throws IOException {
        Path f = dir.resolve("cpu_samples.tsv");
        Files.writeString(f, """
                t_s\tcpu_s\tgenerated_tokens
                10.0\t0.00\t500
                10.1\t1.50\tnan
                10.2\t3.00\t500
                10.3\t3.05\t1500
                10.4\t3.10\t3500
                10.5\t3.15\t5500
                10.6\t3.20\t7500
                10.7\t3.25\t8500
                10.8\t5.25\t8500
                """);
        LoadPhase p = LoadPhase.read(f);
        // window: 10.3 (1,500) .. 10.6 (7,500): 0.15 s of CPU for 6,000 tokens = 25,000 ns per token
        assertThat(p.tokens()).isEqualTo(6000);
        assertThat(p.cpuS()).isCloseTo(0.15, within(1e-9));
        assertThat(p.seconds()).isCloseTo(0.3, within(1e-9));
        assertThat(p.cpuNsPerToken()).isCloseTo(25_000, within(1e-6));
        assertThat(p.samples()).as("the nan sample (no /metrics answer) is skipped").isEqualTo(8);
    }

    @Test
    void noWindowWithoutTokensOrSamples(@TempDir Path dir) throws IOException {
        assertThat(LoadPhase.read(dir.resolve("absent.tsv"))).isNull();
        Path f = dir.resolve("cpu_samples.tsv");
        Files.writeString(f, "t_s\tcpu_s\tgenerated_tokens\n1.0\t0.5\t100\n1.1\t0.9\t100\n1.2\t1.0\t100\n");
        assertThat(LoadPhase.read(f)).as("the counter never rose").isNull();
        // rose once only: no sample strictly inside the load
        Files.writeString(f, "t_s\tcpu_s\tgenerated_tokens\n1.0\t0.5\t100\n1.1\t0.9\t5000\n1.2\t1.0\t5000\n");
        assertThat(LoadPhase.read(f)).isNull();
        assertThat(new LoadPhase(0.1, 1999, 1, 3).cpuNsPerToken()).as("below MIN_TOKENS").isNaN();
    }

    @Test
    void loadPhaseIsPreferredToTheMarginalFitAndKeptBesideIt() {
        // marginal: (4.0 - 2.0) / 10,000 = 200,000 ns; load phase of the long run: 0.5 s / 10,000 = 50,000 ns
        PeerRun small = closed("t-short", 2.0, 1000, null);
        PeerRun large = closed("t-long", 4.0, 11000, new LoadPhase(0.5, 10_000, 3, 40));
        ToolSummary t = PeerComparison.summarise("t", List.of(small, large));
        assertThat(t.cpuMethod()).isEqualTo("load phase");
        assertThat(t.cpuNsPerToken()).isCloseTo(50_000, within(1e-6));
        assertThat(t.marginalCpuNsPerToken()).isCloseTo(200_000, within(1e-6));

        // open loop: every open run sampled -> their load-phase CPU / tokens = (0.3 + 0.1) / (6,000 + 2,000)
        PeerRun o1 = open("t-r1", new LoadPhase(0.3, 6000, 2, 20));
        PeerRun o2 = open("t-r2", new LoadPhase(0.1, 2000, 2, 20));
        assertThat(PeerComparison.summarise("t", List.of(small, large, o1, o2)).openCpuNsPerToken())
                .isCloseTo(50_000, within(1e-6));
        String md = PeerReport.markdown(java.util.Map.of(), List.of(small, large), PeerComparison.of(List.of(small, large)));
        assertThat(md).contains("| t | 50.0 | - | load phase | 200.0 |").contains("| 0.50 / 10000 / 3.0 |");
    }

    private static PeerRun closed(String name, double cpuS, long tokens, LoadPhase phase) {
        PeerPoint p = new PeerPoint("closed", 8, tokens / 100, 0, tokens, 1, 1, 1, 1, 1, 1, Double.NaN, Double.NaN, 1);
        return new PeerRun(name, "t", "closed", "8:" + tokens / 100, 0, cpuS, 0, 10, "", List.of(p), null, phase);
    }

    private static PeerRun open(String name, LoadPhase phase) {
        PeerPoint p = new PeerPoint("open", 100, 10, 0, phase.tokens(), 1, 1, 1, 1, 1, 100, 0.1, 1, 100);
        return new PeerRun(name, "t", "open", "100", 0, 9.0, 0, 10, "", List.of(p), null, phase);
    }

    @Test
    void streamsHeldIsTheHighestLevelAtTheEnginesPaceWithEveryRequestDone() {
        // c=250: 500 asked, 500 done, TPOT 101 ms -> held; c=1000: 2000 done but TPOT 135 ms -> not held;
        // c=500: TPOT 104 ms but 990 of 1000 done -> not held
        PeerRun s250 = streams("t-s250", "250:500", streamsPoint(250, 500, 101));
        PeerRun s500 = streams("t-s500", "500:1000", streamsPoint(500, 990, 104));
        PeerRun s1000 = streams("t-s1000", "1000:2000", streamsPoint(1000, 2000, 135));
        ToolSummary t = PeerComparison.summarise("t", List.of(s1000, s250, s500));
        assertThat(t.maxStreamsHeld()).isEqualTo(250);
        assertThat(t.streams()).extracting(PeerPoint::load).containsExactly(250.0, 500.0, 1000.0);
        assertThat(t.closed()).as("streams runs are not the closed-loop agreement point").isNull();
        assertThat(t.cpuMethod()).as("nor CPU-per-token runs").isEqualTo("none");
        // the boundary: TPOT p50 exactly 1.1 x the 100 ms step holds, just above does not
        assertThat(PeerComparison.held(streamsPoint(10, 20, 110.0), 20)).isTrue();
        assertThat(PeerComparison.held(streamsPoint(10, 20, 110.01), 20)).isFalse();
        // at the pace, every request done, but only 1,762 of 4,000 streams in flight (AIPerf at 4,000, run 3): not held
        PeerPoint few = new PeerPoint("closed", 4000, 8000, 0, 320_000, 20, 237.4, 300, 104.8, 1, 407.2,
                Double.NaN, Double.NaN, 1);
        assertThat(PeerComparison.impliedConcurrency(few)).isCloseTo(407.2 * (237.4 + 39 * 104.8) / 1e3, within(1e-9));
        assertThat(PeerComparison.held(few, 8000)).isFalse();
        String md = PeerReport.markdown(java.util.Map.of(), List.of(s250, s500, s1000), PeerComparison.of(List.of(s250, s500, s1000)));
        assertThat(md).contains("| t | 250 | 500 | 0 |").contains("| t | 1000 | 2000 | 0 |");
        assertThat(md.lines().filter(l -> l.startsWith("| t | 1000 |")).findFirst().orElseThrow()).endsWith("| **no** |");
    }

    private static PeerPoint streamsPoint(double c, long ok, double tpotMs) {
        return new PeerPoint("closed", c, ok, 0, ok * 40, 8, 100, 120, tpotMs, 1, c / 4.0, Double.NaN, Double.NaN, 1);
    }

    private static PeerRun streams(String name, String load, PeerPoint p) {
        return new PeerRun(name, "t", "streams", load, 0, 5, 0, 10, "", List.of(p), null, null);
    }
}
