package dev.kneepoint.workload;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.util.function.DoubleUnaryOperator;
import org.junit.jupiter.api.Test;

/** Distributions match their parameters: fixed seeds, so each test is deterministic; thresholds at alpha = 0.01 or stricter. */
class LengthsTest {
    private static final int N = 20_000;
    private static final long SEED = 11;

    private static int[] samples(LengthDistribution d) {
        int[] v = new int[N];
        for (int i = 0; i < N; i++) {
            v[i] = d.sample(SEED, i);
        }
        return v;
    }

    /** Kolmogorov-Smirnov distance between the samples and a continuous CDF with continuity correction (P(X<=k) = F(k+0.5)). */
    private static double ks(int[] v, DoubleUnaryOperator cdf) {
        int[] sorted = v.clone();
        java.util.Arrays.sort(sorted);
        double d = 0;
        for (int i = 0; i < N; i++) {
            if (i + 1 < N && sorted[i + 1] == sorted[i]) {
                continue;
            }
            double f = cdf.applyAsDouble(sorted[i] + 0.5);
            d = Math.max(d, Math.abs((i + 1) / (double) N - f));
            int lo = i;
            while (lo > 0 && sorted[lo - 1] == sorted[i]) {
                lo--;
            }
            d = Math.max(d, Math.abs(lo / (double) N - cdf.applyAsDouble(sorted[i] - 0.5)));
        }
        return d;
    }

    private static double phi(double z) {
        double x = Math.abs(z) / Math.sqrt(2);
        double t = 1 / (1 + 0.3275911 * x); // Abramowitz-Stegun 7.1.26, |error| < 1.5e-7
        double erf = 1 - ((((1.061405429 * t - 1.453152027) * t + 1.421413741) * t - 0.284496736) * t + 0.254829592)
                * t * Math.exp(-x * x);
        return z >= 0 ? (1 + erf) / 2 : (1 - erf) / 2;
    }

    // KS critical value at alpha = 0.01: 1.63 / sqrt(N) = 0.0115
    private static final double KS_CRIT = 1.63 / Math.sqrt(N);

    @Test
    void normalMatchesItsMeanAndSd() {
        int[] v = samples(Lengths.normal(500, 50));
        assertThat(ks(v, x -> phi((x - 500) / 50))).isLessThan(KS_CRIT);
        double mean = java.util.Arrays.stream(v).average().orElseThrow();
        assertThat(mean).isCloseTo(500, org.assertj.core.data.Offset.offset(4 * 50 / Math.sqrt(N))); // 4 standard errors
    }

    @Test
    void normalIsTruncatedAtOne() {
        int[] v = samples(Lengths.normal(3, 5));
        assertThat(java.util.Arrays.stream(v).min().orElseThrow()).isGreaterThanOrEqualTo(1);
        // the truncated share: P(round(X) < 1) = P(X < 0.5) = phi(-0.5) ~ 0.31 are redrawn, so 1 is common but not dominant
        long ones = java.util.Arrays.stream(v).filter(x -> x == 1).count();
        assertThat(ones / (double) N).isBetween(0.05, 0.2);
    }

    @Test
    void logNormalMatchesTheMeanAndSdOfTheLengths() {
        LengthDistribution.LogNormal d = (LengthDistribution.LogNormal) Lengths.logNormal(512, 128);
        int[] v = samples(d);
        assertThat(ks(v, x -> phi((Math.log(x) - d.mu()) / d.sigma()))).isLessThan(KS_CRIT);
        double mean = java.util.Arrays.stream(v).average().orElseThrow();
        double sd = Math.sqrt(java.util.Arrays.stream(v).mapToDouble(x -> (x - mean) * (x - mean)).sum() / (N - 1));
        assertThat(mean).isCloseTo(512, org.assertj.core.data.Offset.offset(4 * 128 / Math.sqrt(N)));
        // sd of a sample sd ~ sd * sqrt((kurtosis - 1) / 4N); 5% is > 4 such errors for this shape
        assertThat(sd).isCloseTo(128, org.assertj.core.data.Percentage.withPercentage(5));
    }

    @Test
    void uniformIsFlatOverItsInclusiveRange() {
        int[] v = samples(Lengths.uniform(10, 29));
        int[] counts = new int[20];
        for (int x : v) {
            assertThat(x).isBetween(10, 29);
            counts[x - 10]++;
        }
        double expected = N / 20.0;
        double chi2 = 0;
        for (int c : counts) {
            chi2 += (c - expected) * (c - expected) / expected;
        }
        assertThat(chi2).isLessThan(43.8); // chi-square, 19 degrees of freedom, alpha = 0.001
        assertThat(counts[0]).isPositive();
        assertThat(counts[19]).isPositive();
    }

    @Test
    void empiricalDrawsEachValueInProportion() {
        int[] v = samples(Lengths.empirical(100, 200, 200, 400));
        long twos = java.util.Arrays.stream(v).filter(x -> x == 200).count();
        // p = 0.5, standard error 0.0035: 4 standard errors
        assertThat(twos / (double) N).isCloseTo(0.5, org.assertj.core.data.Offset.offset(0.014));
        assertThat(v).containsOnly(100, 200, 400);
    }

    @Test
    void deterministicBySeedAndIndexAndClampable() {
        LengthDistribution d = Lengths.logNormal(100, 80);
        assertThat(d.sample(1, 7)).isEqualTo(d.sample(1, 7));
        assertThat(samples(d)).isNotEqualTo(samples(Lengths.logNormal(100, 80).clamp(1, 50)));
        assertThat(java.util.Arrays.stream(samples(d.clamp(20, 50))).allMatch(x -> x >= 20 && x <= 50)).isTrue();
        assertThat(Lengths.fixed(64).sample(3, 99)).isEqualTo(64);
    }

    @Test
    void invalidParametersAreRefusedWithTheRule() {
        assertThatThrownBy(() -> Lengths.uniform(5, 2)).hasMessageContaining("1 <= min <= max");
        assertThatThrownBy(() -> Lengths.fixed(0)).hasMessageContaining(">= 1");
        assertThatThrownBy(() -> Lengths.logNormal(0.5, 1)).hasMessageContaining("mean >= 1");
        assertThatThrownBy(() -> Lengths.empirical()).hasMessageContaining("at least one");
    }
}
