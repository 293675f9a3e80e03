package dev.kneepoint.plot;

import static dev.kneepoint.analysis.Ladders.run;
import static dev.kneepoint.analysis.Ladders.s;
import static org.assertj.core.api.Assertions.assertThat;

import dev.kneepoint.analysis.SloCapacity;
import java.nio.file.Files;
import java.nio.file.Path;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

class SloSearchPlotTest {
    @Test
    void probesArePassingOrFailingPointsWithTheirIntervalsAndTheTarget(@TempDir Path dir) throws Exception {
        var r = run("search", s(1, 100, 100), s(2, 200, 100), s(4, 400, 100).ok(60), s(8, 400, 900).good(0.6),
                s(6, 400, 700).good(0.9), s(5, 400, 300).good(0.97));
        SloCapacity c = SloCapacity.of(r, new SloCapacity.Goal(SloCapacity.CONCURRENCY, 0.99, 0.05));
        var chart = Plots.sloSearch(c);
        assertThat(chart.getSeriesMap()).containsKeys("passes", "fails", "target", "interval c=4");
        assertThat(chart.getSeriesMap().get("passes").getXData()).containsExactly(1.0, 2.0, 4.0);
        assertThat(chart.getSeriesMap().get("fails").getYData()).containsExactly(97.0, 90.0, 60.0);
        // c=4's 60 requests all passed: its interval reaches down to 94.0% (Wilson), the bar drawn from there.
        assertThat(chart.getSeriesMap().get("interval c=4").getYData()[0]).isBetween(93.9, 94.1);
        Path png = dir.resolve("slo_search.png");
        ChartFiles.write(chart, png);
        assertThat(Files.size(png)).isPositive();
        Files.copy(png, Path.of(System.getProperty("java.io.tmpdir"), "kneepoint-slo-search.png"),
                java.nio.file.StandardCopyOption.REPLACE_EXISTING);
    }
}
