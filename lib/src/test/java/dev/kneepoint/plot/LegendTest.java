package dev.kneepoint.plot;

import static org.assertj.core.api.Assertions.assertThat;

import org.junit.jupiter.api.Test;
import org.knowm.xchart.XYChart;
import org.knowm.xchart.style.Styler;

/** The legend sits below the plot: in one row while its entries fit the chart's width, one entry a row otherwise. */
class LegendTest {
    private static XYChart chart(String... names) {
        XYChart c = ChartStyle.chart("t", "x", "y", ChartStyle.WIDTH, ChartStyle.HEIGHT);
        for (String n : names) {
            c.addSeries(n, new double[] {1, 2}, new double[] {1, 2});
        }
        return c;
    }

    @Test
    void aFewShortEntriesShareOneRowAndLongOnesTakeARowEach() {
        XYChart few = chart("p50", "p90", "p99");
        ChartFiles.png(few);
        assertThat(few.getStyler().getLegendPosition()).isEqualTo(Styler.LegendPosition.OutsideS);
        assertThat(few.getStyler().getLegendLayout()).isEqualTo(Styler.LegendLayout.Horizontal);

        // Two runs and their knees, named as run directories are: one row would run past the chart's edge.
        XYChart runs = chart("20261204-203551-seqs-64", "20261204-203551-seqs-64 knee", "20261204-203606-seqs-256",
                "20261204-203606-seqs-256 knee");
        ChartFiles.svg(runs);
        assertThat(runs.getStyler().getLegendLayout()).isEqualTo(Styler.LegendLayout.Vertical);
    }
}
