package dev.kneepoint.metrics;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;
import static org.assertj.core.api.Assertions.within;
import static org.assertj.core.api.Assertions.withinPercentage;

import org.HdrHistogram.Histogram;
import org.junit.jupiter.api.Test;

class DistributionTest {

    @Test
    void percentilesOfOneToAThousandMillisecondsWithinThreeSignificantDigits() {
        Histogram h = Distribution.newHistogram();
        for (int ms = 1; ms <= 1000; ms++) {
            h.recordValue(ms * 1_000_000L);
        }
        Distribution d = Distribution.of(h);
        // Tolerance 0.1%: HdrHistogram with 3 significant digits keeps every value within 1 part in 1000.
        assertThat(d.count()).isEqualTo(1000);
        assertThat(d.p50()).isCloseTo(500, withinPercentage(0.1));
        assertThat(d.p90()).isCloseTo(900, withinPercentage(0.1));
        assertThat(d.p95()).isCloseTo(950, withinPercentage(0.1));
        assertThat(d.p99()).isCloseTo(990, withinPercentage(0.1));
        assertThat(d.p999()).isCloseTo(999, withinPercentage(0.1));
        assertThat(d.max()).isCloseTo(1000, withinPercentage(0.1));
        assertThat(d.min()).isCloseTo(1, withinPercentage(0.1));
        assertThat(d.mean()).isCloseTo(500.5, withinPercentage(0.1));
        // Population stddev of 1..1000 is sqrt((1000^2-1)/12) = 288.675.
        assertThat(d.stddev()).isCloseTo(288.675, withinPercentage(0.1));
        assertThat(d.percentile(25)).isCloseTo(250, withinPercentage(0.1));
    }

    @Test
    void heldHistogramIsACopyAndToStringLeavesItOut() {
        Histogram h = Distribution.newHistogram();
        h.recordValue(5_000_000L);
        Distribution d = Distribution.of(h);
        h.recordValue(7_000_000L);
        assertThat(d.histogram().getTotalCount()).isEqualTo(1);
        assertThat(d.toString()).contains("p99=5.00").doesNotContain("Histogram");
    }

    @Test
    void emptyDistributionHasCountZeroAndNaNStatistics() {
        Distribution d = Distribution.empty();
        assertThat(d.count()).isZero();
        assertThat(d.mean()).isNaN();
        assertThat(d.p99()).isNaN();
        assertThat(d.max()).isNaN();
        assertThat(d.percentile(50)).isNaN();
        assertThatThrownBy(() -> d.percentile(0)).hasMessageContaining("(0, 100]");
    }

    @Test
    void sampleAboveAnHourStillFits() {
        Histogram h = Distribution.newHistogram();
        h.recordValue(2 * 3_600_000_000_000L);
        assertThat(Distribution.of(h).max()).isCloseTo(7_200_000, within(7_200_000 * 0.001));
    }
}
