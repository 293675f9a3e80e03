package dev.kneepoint.metrics;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.within;

import java.util.ArrayList;
import java.util.Collections;
import java.util.List;
import java.util.Random;
import org.junit.jupiter.api.Test;

class TrendSumsTest {
    private static final long MS = 1_000_000L;

    private static LatencyTrend fit(List<long[]> points) {
        TrendSums s = new TrendSums();
        points.forEach(p -> s.add(p[0], p[1]));
        return s.trend();
    }

    @Test
    void aQueueThatGrowsLinearlyIsItsSlopeExactly() {
        List<long[]> points = new ArrayList<>();
        for (int i = 0; i <= 100; i++) { // one start every 50 ms for 5 s; latency 100 ms + 0.5 s per s of start
            long start = 3_600_000 * MS + i * 50 * MS; // an hour into the run: large x, exact sums
            points.add(new long[] {start, 100 * MS + i * 25 * MS});
        }
        LatencyTrend t = fit(points);
        assertThat(t.requests()).isEqualTo(101);
        assertThat(t.spanS()).isEqualTo(5.0);
        assertThat(t.slopeMsPerS()).isCloseTo(500, within(1e-9));
        assertThat(t.riseMs()).isCloseTo(2500, within(1e-6));
        assertThat(t.meanMs()).isCloseTo(1350, within(1e-9));
        assertThat(t.t()).isEqualTo(LatencyTrend.T_CAP);
    }

    @Test
    void noiseAroundAFlatLineHasASmallSlopeAndT() {
        Random rnd = new Random(7);
        List<long[]> points = new ArrayList<>();
        for (int i = 0; i < 2000; i++) {
            points.add(new long[] {i * 10 * MS, (long) ((200 + 40 * rnd.nextGaussian()) * MS)});
        }
        LatencyTrend t = fit(points);
        assertThat(Math.abs(t.riseMs())).isLessThan(10); // 40 ms noise: the fitted line moves a few ms at most
        assertThat(Math.abs(t.t())).isLessThan(3.5);
        assertThat(t.meanMs()).isCloseTo(200, within(3.0));
    }

    @Test
    void theOrderOfTheRecordsDoesNotChangeOneBit() {
        Random rnd = new Random(11);
        List<long[]> points = new ArrayList<>();
        for (int i = 0; i < 5000; i++) {
            points.add(new long[] {rnd.nextLong(1L << 45), rnd.nextLong(1L << 36)});
        }
        LatencyTrend inOrder = fit(points);
        Collections.shuffle(points, new Random(3));
        assertThat(fit(points)).isEqualTo(inOrder);
    }

    @Test
    void tooFewRequestsOrOneInstantFitNoLine() {
        List<long[]> few = new ArrayList<>();
        for (int i = 0; i < LatencyTrend.MIN_REQUESTS - 1; i++) {
            few.add(new long[] {i * MS, (100 + i) * MS});
        }
        assertThat(fit(few).measured()).isFalse();
        assertThat(fit(few).requests()).isEqualTo(LatencyTrend.MIN_REQUESTS - 1);
        List<long[]> burst = new ArrayList<>();
        for (int i = 0; i < 50; i++) {
            burst.add(new long[] {7 * MS, (100 + i) * MS});
        }
        assertThat(fit(burst).measured()).isFalse();
        assertThat(fit(List.of())).isEqualTo(LatencyTrend.NONE);
    }

    @Test
    void unmeasuredTimesAreLeftOut() {
        TrendSums s = new TrendSums();
        s.add(-1, 5 * MS);
        s.add(5 * MS, -1);
        assertThat(s.trend()).isEqualTo(LatencyTrend.NONE);
    }
}
