package dev.kneepoint.metrics;

import static dev.kneepoint.metrics.TestRecords.ok;
import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import org.junit.jupiter.api.Test;

class SloTest {

    @Test
    void describesItsBoundsInWordsForReports() {
        assertThat(Slo.none().describe()).isEqualTo("no latency bound");
        assertThat(Slo.builder().ttftMs(500).tpotMs(50).build().describe()).isEqualTo("TTFT <= 500 ms, TPOT <= 50 ms");
        assertThat(Slo.builder().itl(95, 80.5).e2eMs(2000).basis(Slo.Basis.SCHED).build().describe())
                .isEqualTo("ITL p95 <= 80.5 ms, E2E <= 2000 ms (sched basis)");
        assertThat(Slo.none()).hasToString("Slo[none]"); // manifests keep the compact form
    }

    @Test
    void builderReportsEveryProblemAtOnce() {
        assertThatThrownBy(() -> Slo.builder().ttftMs(-1).tpotMs(Double.POSITIVE_INFINITY).itl(150, 10).build())
                .isInstanceOf(IllegalArgumentException.class)
                .hasMessageContaining("ttft_ms must be a positive")
                .hasMessageContaining("tpot_ms must be a positive")
                .hasMessageContaining("itl percentile must be in (0, 100], got 150");
    }

    @Test
    void itlPercentileIsNearestRankOverPerTokenSamples() {
        // Gaps: 10 ms (1 token), 40 ms over 4 tokens = 4 x 10 ms, 50 ms (1 token) -> samples 10,10,10,10,10,50.
        RequestRecord r = ok(1, "s", 0, 0, new double[] {0, 10, 50, 100}, new int[] {1, 1, 4, 1}).build();
        assertThat(Slo.itlPercentileNanos(r, 50)).isEqualTo(10_000_000L);
        assertThat(Slo.itlPercentileNanos(r, 83)).isEqualTo(10_000_000L);  // rank ceil(4.98) = 5
        assertThat(Slo.itlPercentileNanos(r, 84)).isEqualTo(50_000_000L);  // rank ceil(5.04) = 6
        assertThat(Slo.builder().itl(99, 20).build().isGood(r, false)).isFalse();
        assertThat(Slo.builder().itl(50, 20).build().isGood(r, false)).isTrue();
        RequestRecord single = ok(2, "s", 0, 0, new double[] {5}, new int[] {3}).build();
        assertThat(Slo.itlPercentileNanos(single, 99)).isEqualTo(-1);
        assertThat(Slo.builder().itl(99, 1).build().isGood(single, false)).isTrue(); // vacuous
    }

    @Test
    void basisSelectsIntendedOrDispatchStart() {
        RequestRecord r = ok(1, "s", 0, 300, new double[] {350, 400}, new int[] {1, 1}).build();
        Slo auto = Slo.builder().ttftMs(100).e2eMs(200).build();
        assertThat(auto.isGood(r, false)).isTrue();   // ttft 50, e2e 100
        assertThat(auto.isGood(r, true)).isFalse();   // ttft_sched 350
        Slo service = Slo.builder().ttftMs(100).basis(Slo.Basis.SERVICE).build();
        assertThat(service.isGood(r, true)).isTrue();
        Slo sched = Slo.builder().ttftMs(100).basis(Slo.Basis.SCHED).build();
        assertThat(sched.isGood(r, false)).isFalse();
        assertThat(Slo.builder().tpotMs(49).build().isGood(r, false)).isFalse(); // tpot 50
        assertThat(Slo.none().isGood(r, true)).isTrue();
    }
}
