package dev.kneepoint.plot;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.within;

import org.junit.jupiter.api.Test;

/** Where step labels go: above their points, apart when two points are close, the top one beside its point. */
class StepLabelsTest {
    @Test
    void labelsSitAboveTheirPointsAndTheTopOneBesideIt() {
        double[] x = {100, 1000, 3000, 5000, 5050};
        double[] y = {400, 480, 700, 2500, 5000};
        double[][] at = ChartStyle.labelPositions(x, y, false);
        double dy = 5000 - 400;
        for (int i = 0; i < 4; i++) {
            assertThat(at[0][i]).as("label %d over its point", i).isEqualTo(x[i]);
            assertThat(at[1][i]).as("label %d just above its point", i).isCloseTo(y[i] + 0.035 * dy, within(1e-9));
        }
        assertThat(at[1][4]).as("the top point's label at its height, not above the plot's edge").isEqualTo(5000);
        assertThat(at[0][4]).as("on the side away from the middle: left of a point on the right").isLessThan(5050);
    }

    @Test
    void aPointCloseToThePreviousOneHasItsLabelBelowAndUnmeasuredPointsNone() {
        double[] x = {100, 110, 2000, Double.NaN};
        double[] y = {400, 405, 3000, 10};
        double[][] at = ChartStyle.labelPositions(x, y, false);
        assertThat(at[1][0]).isGreaterThan(400);
        assertThat(at[1][1]).as("close to the previous point: below").isLessThan(405);
        assertThat(at[0][3]).isNaN();
    }

    @Test
    void onALogAxisTheOffsetIsAnEvenStepOfTheAxis() {
        double[] x = {1, 2, 3};
        double[] y = {10, 100, 10_000};
        double[][] at = ChartStyle.labelPositions(x, y, true);
        // log10 span 3: each label 0.035 * 3 decades above its point
        assertThat(at[1][0] / 10).isCloseTo(Math.pow(10, 0.105), within(1e-9));
        assertThat(at[1][1] / 100).isCloseTo(Math.pow(10, 0.105), within(1e-9));
    }
}
