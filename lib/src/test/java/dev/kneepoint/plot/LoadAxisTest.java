package dev.kneepoint.plot;

import static dev.kneepoint.analysis.Ladders.s;
import static org.assertj.core.api.Assertions.assertThat;

import dev.kneepoint.analysis.Ladders;
import org.junit.jupiter.api.Test;

/** The load axis is logarithmic when the ladder grows geometrically, linear when it is even. */
class LoadAxisTest {
    @Test
    void aDoublingLadderGetsALogAxisAnEvenOneALinearOne() {
        assertThat(LoadPlot.geometric(new double[] {1, 2, 4, 8, 16, 32, 64, 128, 256})).isTrue();
        assertThat(LoadPlot.geometric(new double[] {1, 8, 64, 256})).isTrue();
        // A baseline step at the first load does not spoil it.
        assertThat(LoadPlot.geometric(new double[] {1, 1, 4, 16})).isTrue();
        assertThat(LoadPlot.geometric(new double[] {10, 20, 30, 40, 50})).isFalse(); // even
        assertThat(LoadPlot.geometric(new double[] {1, 2, 4})).isFalse();              // a factor of 4 only
        assertThat(LoadPlot.geometric(new double[] {1, 64})).isFalse();                // two points
        assertThat(LoadPlot.geometric(new double[] {0, 2, 4, 8, 16})).isFalse();       // a zero load

        var doubling = Ladders.run("d", s(1, 100, 10), s(8, 700, 12), s(64, 3000, 40), s(256, 3200, 400));
        assertThat(LoadPlot.logLoadAxis(LoadPlot.of(doubling).build())).isTrue();
        var even = Ladders.run("e", s(10, 100, 10), s(20, 200, 12), s(30, 290, 14), s(40, 350, 30));
        assertThat(LoadPlot.logLoadAxis(LoadPlot.of(even).build())).isFalse();
        // Asked for explicitly, the axis is what was asked.
        assertThat(LoadPlot.logLoadAxis(LoadPlot.of(doubling).logLoad(false).build())).isFalse();
        // The ticks read the loads: 2^x of each position, to 3 significant digits.
        assertThat(LoadPlot.loadLabel(Math.pow(2, Math.log(64) / Math.log(2)))).isEqualTo("64");
        assertThat(LoadPlot.loadLabel(35.942)).isEqualTo("35.9");
        assertThat(LoadPlot.loadLabel(0.5)).isEqualTo("0.5");
        assertThat(LoadPlot.loadLabel(512)).isEqualTo("512");
    }
}
