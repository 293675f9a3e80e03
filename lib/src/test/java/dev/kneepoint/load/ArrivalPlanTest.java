package dev.kneepoint.load;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;
import static org.assertj.core.api.Assertions.within;

import java.util.SplittableRandom;
import org.junit.jupiter.api.Test;

class ArrivalPlanTest {
    private static final long SEC = 1_000_000_000L;
    private static final long MS = 1_000_000L;

    @Test
    void constantFourPerSecondIsEveryQuarterSecond() {
        long[] offsets = ArrivalPlan.constant(4).offsets(2 * SEC, Long.MAX_VALUE);
        // 4 rps over 2 s: 0, 250, ..., 1750 ms; 2000 ms lies on the horizon and is excluded.
        assertThat(offsets).containsExactly(0, 250 * MS, 500 * MS, 750 * MS, 1000 * MS, 1250 * MS, 1500 * MS,
                1750 * MS);
    }

    @Test
    void constantOffsetsAreRoundedFromTheExactSumWithoutDrift() {
        long[] offsets = ArrivalPlan.constant(3).offsets(Long.MAX_VALUE, 3001);
        // 1/3 s = 333,333,333.33 ns: i/3 s rounded, so offset 3000 is exactly 1000 s, not 3000 × 333,333,333.
        assertThat(offsets[1]).isEqualTo(333_333_333L);
        assertThat(offsets[2]).isEqualTo(666_666_667L);
        assertThat(offsets[3000]).isEqualTo(1000 * SEC);
    }

    @Test
    void countBoundAndWarmupCounting() {
        assertThat(ArrivalPlan.constant(10).offsets(Long.MAX_VALUE, 3)).containsExactly(0, 100 * MS, 200 * MS);
        // Warm-up of 250 ms at 10 rps plans 3 warm-up arrivals (0, 100, 200 ms) before 2 measured ones.
        assertThat(ArrivalPlan.constant(10).offsets(Long.MAX_VALUE, 250 * MS, 2))
                .containsExactly(0, 100 * MS, 200 * MS, 300 * MS, 400 * MS);
        // The horizon cuts first when it is shorter.
        assertThat(ArrivalPlan.constant(10).offsets(150 * MS, 0, 100)).containsExactly(0, 100 * MS);
        assertThat(ArrivalPlan.constant(10).offsets(0, 5)).isEmpty();
    }

    @Test
    void anUnboundedPlanIsRefused() {
        assertThatThrownBy(() -> ArrivalPlan.poisson(1, 1).offsets(Long.MAX_VALUE, Long.MAX_VALUE))
                .isInstanceOf(IllegalArgumentException.class).hasMessageContaining("horizon or a count");
    }

    @Test
    void invalidParametersAreNamed() {
        assertThatThrownBy(() -> ArrivalPlan.constant(0)).hasMessageContaining("rate must be a finite number > 0");
        assertThatThrownBy(() -> ArrivalPlan.poisson(-2, 1)).hasMessageContaining("got -2.0");
        assertThatThrownBy(() -> ArrivalPlan.constant(Double.NaN)).hasMessageContaining("got NaN");
        assertThatThrownBy(() -> ArrivalPlan.constant(Double.POSITIVE_INFINITY)).hasMessageContaining("Infinity");
        assertThatThrownBy(() -> ArrivalPlan.gamma(-1, 0, 1))
                .hasMessageContaining("rate must be").hasMessageContaining("cv (coefficient of variation");
        assertThatThrownBy(() -> ArrivalPlan.gamma(1, Double.NaN, 1)).hasMessageContaining("cv");
    }

    @Test
    void labelsAndDeterminism() {
        assertThat(ArrivalPlan.constant(4).label()).isEqualTo("constant");
        assertThat(ArrivalPlan.poisson(4, 1).label()).isEqualTo("poisson");
        assertThat(ArrivalPlan.gamma(4, 2.0, 1).label()).isEqualTo("gamma(cv=2)");
        assertThat(ArrivalPlan.gamma(4, 0.5, 7).withRate(8)).isEqualTo(ArrivalPlan.gamma(8, 0.5, 7));
        long[] a = ArrivalPlan.poisson(100, 42).offsets(SEC, Long.MAX_VALUE);
        long[] b = ArrivalPlan.poisson(100, 42).offsets(SEC, Long.MAX_VALUE);
        long[] c = ArrivalPlan.poisson(100, 43).offsets(SEC, Long.MAX_VALUE);
        assertThat(a).isEqualTo(b).isNotEqualTo(c);
        assertThat(a[0]).isZero();
        assertThat(a).isSorted();
    }

    // Statistical tests. N = 200,000 inter-arrival gaps per case; with fixed seeds the results are
    // deterministic, and the tolerances are ~4 standard errors so that a correct sampler passes for any
    // seed while a wrong mean or shape (even off by 5 %) fails.

    private static final int N = 200_000;

    private static double[] gaps(ArrivalPlan plan) {
        long[] o = plan.offsets(Long.MAX_VALUE, N + 1);
        double[] g = new double[N];
        for (int i = 0; i < N; i++) {
            g[i] = o[i + 1] - o[i];
        }
        return g;
    }

    private static double mean(double[] x) {
        double s = 0;
        for (double v : x) {
            s += v;
        }
        return s / x.length;
    }

    private static double cv(double[] x) {
        double m = mean(x);
        double s = 0;
        for (double v : x) {
            s += (v - m) * (v - m);
        }
        return Math.sqrt(s / (x.length - 1)) / m;
    }

    @Test
    void poissonHasTheRequestedRateAndExponentialGaps() {
        double[] g = gaps(ArrivalPlan.poisson(50, 12345));
        // Mean gap 20 ms. Relative standard error of the mean = cv/sqrt(N) = 0.22 %; tolerance 1 % (~4.5 SE).
        assertThat(mean(g) / 20e6).isCloseTo(1.0, within(0.01));
        // Sample std of an exponential: relative SE ≈ sqrt((kurtosis-1)/(4N)) = sqrt(8/(4N)) = 0.32 %; tolerance 1.5 %.
        assertThat(cv(g)).isCloseTo(1.0, within(0.015));
        // Exponential shape: P(gap < mean) = 1 − 1/e = 0.632; binomial SE = 0.0011, tolerance 0.005.
        long below = java.util.Arrays.stream(g).filter(v -> v < 20e6).count();
        assertThat(below / (double) N).isCloseTo(1 - Math.exp(-1), within(0.005));
    }

    @Test
    void gammaHasTheRequestedRateAndCoefficientOfVariation() {
        // cv = 2: shape 0.25 (exercises the shape < 1 boost). Relative SE of the mean = 2/sqrt(N) = 0.45 %,
        // tolerance 2 %; kurtosis 3 + 6/0.25 = 27, SE of the sample std ≈ sqrt(26/(4N)) = 0.57 %, tolerance 3 %.
        double[] bursty = gaps(ArrivalPlan.gamma(10, 2.0, 99));
        assertThat(mean(bursty) / 100e6).isCloseTo(1.0, within(0.02));
        assertThat(cv(bursty)).isCloseTo(2.0, within(2.0 * 0.03));
        // cv = 0.5: shape 4 (the plain Marsaglia–Tsang path). SEs 0.11 % and ~0.2 %; tolerances 0.5 % and 1 %.
        double[] smooth = gaps(ArrivalPlan.gamma(10, 0.5, 99));
        assertThat(mean(smooth) / 100e6).isCloseTo(1.0, within(0.005));
        assertThat(cv(smooth)).isCloseTo(0.5, within(0.5 * 0.01));
        // cv = 1 is distributed like Poisson.
        assertThat(cv(gaps(ArrivalPlan.gamma(10, 1.0, 5)))).isCloseTo(1.0, within(0.015));
    }

    @Test
    void gammaSamplerMatchesTheoreticalMomentsPerShape() {
        SplittableRandom r = new SplittableRandom(3);
        for (double shape : new double[] {0.3, 1.0, 2.5, 9.0}) {
            double s = 0;
            double s2 = 0;
            for (int i = 0; i < N; i++) {
                double x = ArrivalPlan.gammaUnitScale(r, shape);
                s += x;
                s2 += x * x;
            }
            double m = s / N;
            double var = s2 / N - m * m;
            // Gamma(k, 1): mean k, variance k. SE of the mean = sqrt(k/N); tolerance 5 SE.
            assertThat(m).as("mean for shape %s", shape).isCloseTo(shape, within(5 * Math.sqrt(shape / N)));
            assertThat(var / shape).as("variance/k for shape %s", shape).isCloseTo(1.0, within(0.04));
        }
    }
}
