package dev.kneepoint.scenario;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;
import static org.assertj.core.api.Assertions.within;

import dev.kneepoint.metrics.Outcome;
import dev.kneepoint.metrics.RequestRecord;
import dev.kneepoint.metrics.StepWindow;
import dev.kneepoint.metrics.TestRecords;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.SplittableRandom;
import java.util.function.IntToDoubleFunction;
import org.junit.jupiter.api.Test;
import tech.tablesaw.api.DoubleColumn;
import tech.tablesaw.api.IntColumn;
import tech.tablesaw.api.Table;

/** The drift test and the burst search on synthetic soaks with fixed seeds. */
class SoakDriftTest {

    /** A 1 s-interval time series of {@code n} rows: throughput, TTFT p50/p99, ITL p50/p99, failures. */
    private static Table series(int n, IntToDoubleFunction tokens, IntToDoubleFunction ttft99, int[] failures) {
        DoubleColumn start = DoubleColumn.create("t_start_s");
        DoubleColumn end = DoubleColumn.create("t_end_s");
        DoubleColumn tok = DoubleColumn.create("output_tokens_per_s");
        DoubleColumn t50 = DoubleColumn.create("ttft_p50_ms");
        DoubleColumn t99 = DoubleColumn.create("ttft_p99_ms");
        DoubleColumn i50 = DoubleColumn.create("itl_p50_ms");
        DoubleColumn i99 = DoubleColumn.create("itl_p99_ms");
        IntColumn f = IntColumn.create("failures");
        for (int i = 0; i < n; i++) {
            start.append(i);
            end.append(i + 1);
            tok.append(tokens.applyAsDouble(i));
            double p99 = ttft99.applyAsDouble(i);
            t50.append(p99 / 3);
            t99.append(p99);
            i50.append(10);
            i99.append(20);
            f.append(failures == null ? 0 : failures[i]);
        }
        return Table.create("ts", start, end, tok, t50, t99, i50, i99, f);
    }

    /** Log-normal noise with about 10% spread around {@code median}. */
    private static double noisy(SplittableRandom r, double median) {
        return median * Math.exp(0.1 * r.nextGaussian());
    }

    @Test
    void mannWhitneyMatchesAHandComputedCase() {
        // a < b completely: U = 25, mean 12.5, var = 25*11/12; z = (25 - 12.5 - 0.5)/4.787 = 2.507,
        // two-sided p = 0.01219 (scipy.stats.mannwhitneyu(..., method='asymptotic') gives 0.01219).
        Stats.MannWhitney mw = Stats.mannWhitney(new double[] {1, 2, 3, 4, 5}, new double[] {6, 7, 8, 9, 10});
        assertThat(mw.u()).isEqualTo(25);
        assertThat(mw.rankBiserial()).isEqualTo(1.0);
        assertThat(mw.pValue()).isCloseTo(0.01219, within(2e-5)); // erfc approximation error is ~1e-7
        // Poisson: P(X >= 3 | 1) = 1 - e^-1 (1 + 1 + 1/2) = 0.080301
        assertThat(Stats.poissonUpperTail(3, 1.0)).isCloseTo(0.080301, within(1e-6));
        // P(X >= 20 | 1) = e^-1/20! (1 + 1/21 + 1/(21*22) + ...) = 1.5121e-19 * 1.04988 = 1.5875e-19: summed from k,
        // where 1 - P(X < 20) would cancel to 0.
        assertThat(Stats.poissonUpperTail(20, 1.0)).isCloseTo(1.5875e-19, within(1e-23));
        assertThat(Stats.hodgesLehmann(new double[] {1, 2, 3}, new double[] {11, 12, 13})).isEqualTo(10.0);
    }

    @Test
    void injectedDriftIsDetectedWithItsSize() {
        SplittableRandom r = new SplittableRandom(7);
        // 60 intervals; TTFT p99 steps up 40% after interval 30, throughput sinks linearly by 30%.
        Table ts = series(60, i -> noisy(r, 1000 * (1 - 0.3 * i / 59.0)), i -> noisy(r, i < 30 ? 200 : 280), null);
        DriftReport d = SoakDrift.analyze(ts, DriftOptions.defaults());

        MetricDrift ttft = d.metric("ttft_p99_ms");
        assertThat(ttft.drifted()).isTrue();
        // The step is 40%; the Hodges-Lehmann estimate over 20 vs 20 noisy values lands within 10 points of it.
        assertThat(ttft.relativeChange()).isBetween(0.30, 0.50);
        assertThat(ttft.pValue()).isLessThan(1e-6);
        assertThat(ttft.rankBiserial()).isGreaterThan(0.9);
        MetricDrift tok = d.metric("output_tokens_per_s");
        assertThat(tok.drifted()).isTrue();
        // Early third averages 1 - 0.3*9.5/59 = 0.952, late third 0.748 of 1000: a change of about -21%.
        assertThat(tok.relativeChange()).isBetween(-0.28, -0.15);
        // Constant ITL: no change, p = 1, not flagged.
        assertThat(d.metric("itl_p50_ms").drifted()).isFalse();
        assertThat(d.drifted()).isTrue();
        assertThat(d.text()).contains("DRIFT").contains("Mann-Whitney");
        assertThat(d.table().rowCount()).isEqualTo(5);
    }

    @Test
    void stationarySoaksAreFlaggedAtTheStatedRate() {
        // 400 stationary series (iid noise, fixed seeds). With alpha = 0.05 and no practical threshold, the
        // test must reject about 5% of the time: binomial(400, 0.05) has mean 20, sd 4.4; accept 8..34 (±3 sd).
        DriftOptions plain = DriftOptions.builder().alpha(0.05).minRelativeChange(0).metrics("ttft_p99_ms").build();
        int rejected = 0;
        int flaggedWithDefaults = 0;
        for (int seed = 0; seed < 400; seed++) {
            SplittableRandom r = new SplittableRandom(1000 + seed);
            Table ts = series(60, i -> noisy(r, 1000), i -> noisy(r, 200), null);
            rejected += SoakDrift.analyze(ts, plain).metric("ttft_p99_ms").drifted() ? 1 : 0;
            flaggedWithDefaults += SoakDrift.analyze(ts, DriftOptions.defaults()).drifted() ? 1 : 0;
        }
        assertThat(rejected).isBetween(8, 34);
        // Defaults (alpha 0.01 per metric on 5 metrics, and a 10% change needed where the noise of a median of
        // 20 values is ~2.5%): essentially never; allow 2 of 400.
        assertThat(flaggedWithDefaults).isLessThanOrEqualTo(2);
    }

    @Test
    void failureBurstIsFoundAndStationaryFailuresAreNot() {
        SplittableRandom r = new SplittableRandom(3);
        int[] failures = new int[100];
        for (int i = 0; i < 100; i++) {
            failures[i] = poisson(r, 0.2);
        }
        failures[40] += 6;
        failures[41] += 5;
        DriftReport d = SoakDrift.analyze(series(100, i -> 1000, i -> 200, failures), DriftOptions.defaults());
        assertThat(d.bursts()).hasSize(1);
        FailureBurst b = d.bursts().get(0);
        assertThat(b.startS()).isEqualTo(40.0);
        assertThat(b.endS()).isEqualTo(42.0);
        assertThat(b.failures()).isGreaterThanOrEqualTo(11);
        assertThat(b.expected()).isLessThan(1.0); // two intervals at ~0.2 each
        assertThat(d.stable()).isFalse();

        // 200 stationary failure series at 0.5 per interval: a family-wise level of 0.001 per run means about 0.2
        // expected false bursts in 200 runs; allow 2.
        int falseBursts = 0;
        for (int seed = 0; seed < 200; seed++) {
            SplittableRandom s = new SplittableRandom(500 + seed);
            int[] f = new int[100];
            for (int i = 0; i < 100; i++) {
                f[i] = poisson(s, 0.5);
            }
            falseBursts += SoakDrift.analyze(series(100, i -> 1000, i -> 200, f), DriftOptions.defaults()).bursts().size();
        }
        assertThat(falseBursts).isLessThanOrEqualTo(2);
    }

    private static int poisson(SplittableRandom r, double lambda) {
        double l = Math.exp(-lambda);
        int k = 0;
        double p = r.nextDouble();
        while (p > l) {
            k++;
            p *= r.nextDouble();
        }
        return k;
    }

    @Test
    void recordsOverAWindowGiveTheSameVerdict() {
        // A soak of 40 s, one request every 100 ms; TTFT 50 ms for 20 s then 80 ms; 10 failures at 30-31 s.
        List<RequestRecord> records = new ArrayList<>();
        for (int i = 0; i < 400; i++) {
            double t = i * 100.0;
            if (i >= 300 && i < 310) {
                records.add(TestRecords.failed(i, "soak", t, t + 5, new Outcome.HttpError(503, "overloaded")));
                continue;
            }
            double ttft = t < 20_000 ? 50 : 80;
            records.add(TestRecords.ok(i, "soak", t, t, new double[] {t + ttft, t + ttft + 10, t + ttft + 20},
                    new int[] {1, 1, 1}).build());
        }
        StepWindow window = new StepWindow(0, 0, TestRecords.nanos(40_000), true);
        DriftReport d = SoakDrift.analyze(records, window, Duration.ofSeconds(1));
        assertThat(d.intervals()).isEqualTo(40);
        assertThat(d.metric("ttft_p50_ms").drifted()).isTrue();
        assertThat(d.metric("ttft_p50_ms").relativeChange()).isCloseTo(0.6, within(0.03)); // 50 -> 80 ms, 2-digit histograms
        assertThat(d.bursts()).hasSize(1);
        assertThat(d.bursts().get(0).startS()).isEqualTo(30.0);
        assertThat(d.totalFailures()).isEqualTo(10);
    }

    @Test
    void tooFewIntervalsAndUnknownColumnsAreReportedTogether() {
        Table ts = series(4, i -> 1, i -> 1, null);
        assertThatThrownBy(() -> SoakDrift.analyze(ts, DriftOptions.builder().metrics("nope").build()))
                .hasMessageContaining("at least 6 intervals").hasMessageContaining("no column 'nope'");
        assertThatThrownBy(() -> DriftOptions.builder().alpha(2).segmentFraction(0.9).build())
                .hasMessageContaining("2 problems");
    }
}
