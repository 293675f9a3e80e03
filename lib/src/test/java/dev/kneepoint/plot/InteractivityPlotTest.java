package dev.kneepoint.plot;

import static dev.kneepoint.analysis.Ladders.run;
import static dev.kneepoint.analysis.Ladders.s;
import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.within;

import dev.kneepoint.analysis.Knee;
import dev.kneepoint.analysis.KneeReport;
import dev.kneepoint.metrics.RunResult;
import dev.kneepoint.metrics.Slo;
import java.nio.file.Files;
import java.nio.file.Path;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.knowm.xchart.XYChart;

/** System tok/s against one user's tok/s, one point a step, with the knee and both operating points. */
class InteractivityPlotTest {

    @Test
    void eachStepIsAPointOfUserRateAgainstSystemRateWithTheOperatingPointsMarked(@TempDir Path dir) throws Exception {
        Slo slo = Slo.builder().ttftMs(100).build();
        // TPOT 10 -> 12.5 -> 20 -> 40 ms: 100, 80, 50 and 25 tok/s per user while the system rate rises.
        RunResult run = run("ia", s(20, 2000, 40).open().achieved(20).itl(10).slo(slo),
                s(40, 4000, 50).open().achieved(40).itl(12.5).slo(slo),
                s(80, 6000, 90).open().achieved(80).itl(20).slo(slo),
                s(100, 6200, 400).open().achieved(80).itl(40).slo(slo));
        KneeReport report = Knee.analyze(run);
        XYChart c = InteractivityPlot.of(run, report).build();
        assertThat(c.getSeriesMap()).containsKeys("steps", "latency-first", "throughput-first");
        double[] x = c.getSeriesMap().get("steps").getXData();
        double[] expected = {100, 80, 50, 25}; // within HdrHistogram's 3 significant digits of the TPOTs
        for (int i = 0; i < expected.length; i++) {
            assertThat(x[i]).isCloseTo(expected[i], within(0.05));
        }
        assertThat(c.getSeriesMap().get("steps").getYData()).containsExactly(2000.0, 4000.0, 6000.0, 6200.0);
        // throughput-first: rate=80 (rate=100 fell behind); latency-first: 60 req/s, halfway between 40 and 80.
        assertThat(report.operatingPoints().latencyFirst().load()).isEqualTo(60);
        assertThat(c.getSeriesMap().get("throughput-first").getXData()[0]).isEqualTo(x[2]);
        assertThat(c.getSeriesMap().get("latency-first").getXData()[0]).isCloseTo((x[1] + x[2]) / 2, within(1e-9));
        assertThat(c.getSeriesMap().get("latency-first").getYData()[0]).isCloseTo(5000, within(1e-9));
        Path png = dir.resolve("interactivity.png");
        ChartFiles.write(c, png);
        assertThat(Files.size(png)).isPositive();
    }

    @Test
    void theFrontierKeepsTheStepsNoOtherBeatsOnBothAxesAndPerGpuDividesTheSystemRate() {
        // Points (user tok/s, system tok/s): (100, 2000), (80, 4000), (50, 6000), (40, 5000): the last is dominated
        // by (50, 6000), faster for each user and more throughput.
        double[][] f = InteractivityPlot.frontier(new double[] {100, 80, 50, 40}, new double[] {2000, 4000, 6000, 5000});
        assertThat(f[0]).containsExactly(50, 80, 100);
        assertThat(f[1]).containsExactly(6000, 4000, 2000);
        RunResult run = run("pareto", s(1, 800, 40).itl(10), s(8, 4000, 50).itl(20), s(16, 4000, 90).itl(40));
        XYChart c = InteractivityPlot.of(run, Knee.analyze(run)).perGpu(4).build();
        assertThat(c.getSeriesMap().get("steps").getYData()).containsExactly(200.0, 1000.0, 1000.0);
        // c=16 equals c=8 on throughput and is slower per user: off the frontier.
        assertThat(c.getSeriesMap().get("frontier").getYData()).containsExactly(1000.0, 200.0);
        assertThat(c.getYAxisTitle()).isEqualTo("output tok/s per GPU (4 GPUs)");
    }
}
