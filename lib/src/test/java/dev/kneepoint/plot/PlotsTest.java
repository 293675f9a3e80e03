package dev.kneepoint.plot;

import static dev.kneepoint.analysis.Ladders.run;
import static dev.kneepoint.analysis.Ladders.s;
import static dev.kneepoint.metrics.TestRecords.ok;
import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;
import static org.assertj.core.api.Assertions.within;

import dev.kneepoint.analysis.LatencyMetric;
import dev.kneepoint.analysis.Tables;
import dev.kneepoint.metrics.RequestRecord;
import dev.kneepoint.metrics.RunResult;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.knowm.xchart.XYChart;
import org.knowm.xchart.XYSeries;
import tech.tablesaw.api.Table;

class PlotsTest {

    static RunResult sharp() {
        return run("sharp", s(1, 100, 100), s(2, 200, 100), s(4, 400, 100), s(8, 800, 100), s(16, 1600, 100),
                s(32, 1600, 200), s(64, 1600, 400));
    }

    private static XYSeries series(XYChart c, String name) {
        assertThat(c.getSeriesMap()).containsKey(name);
        return c.getSeriesMap().get(name);
    }

    @Test
    void kneeChartMarksTheKneeAndTheEfficientZone() {
        XYChart c = Plots.knee(sharp());
        assertThat(c.getTitle()).isEqualTo("Throughput vs latency: sharp (synthetic)");
        assertThat(c.getXAxisTitle()).isEqualTo("output tokens (tokens/s)");
        assertThat(c.getYAxisTitle()).isEqualTo("e2e_sched p99 (ms)");
        assertThat(series(c, "steps").getXData()).containsExactly(100, 200, 400, 800, 1600, 1600, 1600);
        // 100/200/400 ms are kept by HdrHistogram within 0.1%.
        assertThat(series(c, "steps").getYData()[6]).isCloseTo(400, within(0.4));
        assertThat(series(c, "knee").getXData()).containsExactly(1600);
        assertThat(series(c, "knee").getYData()[0]).isCloseTo(100, within(0.1));
        assertThat(series(c, "efficient zone").getXData()).containsExactly(100, 200, 400, 800, 1600);
        assertThat(series(c, "recommended").getXData()).containsExactly(1600);
        assertThat(c.getStyler().isYAxisLogarithmic()).isFalse();
    }

    @Test
    void percentilesVsLoadHasOneSeriesPerPercentile() {
        XYChart c = Plots.percentilesVsLoad(sharp(), LatencyMetric.E2E);
        assertThat(c.getSeriesMap()).containsOnlyKeys("p50", "p90", "p99");
        // A doubling ladder: a log axis, drawn as log2 of the load and ticked at the loads themselves.
        assertThat(series(c, "p99").getXData()).containsExactly(new double[] {0, 1, 2, 3, 4, 5, 6}, within(1e-12));
        assertThat(c.getXAxisTitle()).isEqualTo("concurrency (users, log scale)");
        XYChart even = Plots.percentilesVsLoad(run("even", s(10, 100, 100), s(20, 200, 100), s(30, 300, 100)),
                LatencyMetric.E2E);
        assertThat(series(even, "p99").getXData()).containsExactly(10, 20, 30);
        assertThat(even.getXAxisTitle()).isEqualTo("concurrency (users)");
        assertThat(c.getYAxisTitle()).isEqualTo("E2E (ms)");
    }

    @Test
    void cdfIsMonotoneFromZeroToOneAndSpectrumHasALogTail() {
        XYChart cdf = Plots.cdf(sharp(), LatencyMetric.E2E);
        assertThat(cdf.getSeriesMap()).hasSize(7);
        double[] y = series(cdf, "c=64").getYData();
        for (int i = 1; i < y.length; i++) {
            assertThat(y[i]).isGreaterThanOrEqualTo(y[i - 1]);
        }
        assertThat(y[y.length - 1]).isEqualTo(1.0);
        assertThat(cdf.getStyler().getYAxisMax()).isEqualTo(1.0);
        XYChart sp = Plots.spectrum(sharp(), LatencyMetric.E2E);
        assertThat(sp.getStyler().isXAxisLogarithmic()).isTrue();
        assertThat(sp.getStyler().getxAxisTickLabelsFormattingFunction().apply(1000.0)).isEqualTo("99.9%");
        assertThat(sp.getStyler().getxAxisTickLabelsFormattingFunction().apply(1.0)).isEqualTo("0%");
        // 1000 samples per step: the spectrum's x (1 / (1 - p)) is capped at the count.
        assertThat(java.util.Arrays.stream(series(sp, "c=1").getXData()).boxed().toList())
                .allSatisfy(x -> assertThat(x).isBetween(1.0, 1000.0));
    }

    static List<RequestRecord> records() {
        List<RequestRecord> l = new ArrayList<>();
        for (int i = 0; i < 40; i++) {
            String step = i < 20 ? "c=1" : "c=2";
            RequestRecord.Builder b = ok(i, step, i * 100, i * 100, new double[] {i * 100 + 10 + (i % 2) * 30,
                i * 100 + 60}, new int[] {1, 5});
            b.promptTokens = i % 2 == 0 ? 128 : 2048;
            l.add(b.build());
        }
        return l;
    }

    @Test
    void timeSeriesPutsEachUnitOnItsOwnAxisAndOverlaysTelemetry() {
        Table ts = Tables.timeSeries(records(), Duration.ofSeconds(1));
        XYChart c = Plots.timeSeries(ts, new Overlay("gpu_util", "%", new double[] {0.5, 1.5}, new double[] {40, 80}));
        assertThat(series(c, "output_tokens_per_s").getYAxisGroup()).isZero();
        assertThat(series(c, "in_flight_mean").getYAxisGroup()).isEqualTo(1);
        assertThat(series(c, "ttft_p99_ms").getYAxisGroup()).isEqualTo(2);
        assertThat(series(c, "gpu_util").getYAxisGroup()).isEqualTo(3);
        assertThat(series(c, "gpu_util").getYData()).containsExactly(40, 80);
        assertThat(c.getYAxisGroupTitle(3)).isEqualTo("gpu_util (%)");
        assertThat(c.getYAxisGroupTitle(2)).as("an axis two columns share names both").isEqualTo("ttft p99, itl p99 (ms)");
        assertThat(Units.axis(List.of("ttft_p99_ms", "output_tokens_per_s"))).as("different units: each its own")
                .isEqualTo("ttft p99 (ms), output tokens (tokens/s)");
        // 10 requests start per second, 6 tokens each: 60 tokens/s in the first interval (midpoint 0.5 s).
        assertThat(series(c, "output_tokens_per_s").getXData()[0]).isEqualTo(0.5);
        assertThat(series(c, "output_tokens_per_s").getYData()[0]).isCloseTo(60, within(1e-9));
    }

    @Test
    void promptLengthCurvesDrawOneLinePerPromptLength() {
        RunResult run = run("pl", s(1, 100, 100), s(2, 200, 100));
        XYChart c = Plots.promptLengthCurves(Tables.requests(records()), run);
        assertThat(c.getSeriesMap()).containsOnlyKeys("prompt 128 tokens", "prompt 2048 tokens");
        assertThat(series(c, "prompt 128 tokens").getXData()).containsExactly(1, 2);
        // Even ids (128-token prompts) have TTFT 10 ms, odd ids 40 ms.
        assertThat(series(c, "prompt 128 tokens").getYData()).containsExactly(new double[] {10, 10}, within(1e-9));
        assertThat(series(c, "prompt 2048 tokens").getYData()).containsExactly(new double[] {40, 40}, within(1e-9));
    }

    @Test
    void comparisonOverlayHasOneCurvePerRun() {
        RunResult b = run("faster", s(1, 100, 90), s(2, 200, 90), s(4, 400, 95));
        XYChart c = Plots.compare(sharp(), b);
        assertThat(c.getSeriesMap()).containsKeys("sharp", "faster", "sharp knee");
        assertThat(series(c, "faster").getXData()).containsExactly(100, 200, 400);
        // Two runs with a knee each: the second's line and knee share its colour too (the marker series used to shift
        // the automatic colour cycle, so the second run's knee had another run's colour).
        RunResult later = run("later", s(1, 100, 100), s(2, 200, 100), s(4, 400, 100), s(8, 800, 100),
                s(16, 1600, 100), s(32, 1600, 200), s(64, 1600, 400));
        XYChart two = Plots.compare(sharp(), later);
        assertThat(series(two, "later knee").getMarkerColor()).as("a run's knee in its line's colour")
                .isEqualTo(series(two, "later").getLineColor());
        assertThat(series(two, "sharp knee").getMarkerColor()).isEqualTo(series(two, "sharp").getLineColor());
        assertThat(series(two, "later").getLineColor()).isNotEqualTo(series(two, "sharp").getLineColor());
    }

    @Test
    void goodputCurveHasGoodputAndRequestRateVsLoad() {
        Table g = dev.kneepoint.analysis.Goodput.recorded(sharp());
        XYChart c = Plots.goodput(g, false);
        assertThat(c.getSeriesMap()).containsOnlyKeys("goodput_rps", "requests_per_s");
        assertThat(series(c, "goodput_rps").getXData()).containsExactly(1, 2, 4, 8, 16, 32, 64);
        // Ladders: 1000 OK requests in a 60 s window, all good.
        assertThat(series(c, "goodput_rps").getYData()[0]).isCloseTo(1000 / 60.0, within(1e-9));
    }

    @Test
    void encodersProduceValidPngAndSvg(@TempDir Path dir) throws Exception {
        XYChart c = Plots.knee(sharp());
        byte[] png = ChartFiles.png(c);
        assertThat(png).startsWith(0x89, 'P', 'N', 'G', 0x0D, 0x0A, 0x1A, 0x0A);
        var image = javax.imageio.ImageIO.read(new java.io.ByteArrayInputStream(png));
        assertThat(image.getWidth()).isEqualTo(ChartStyle.WIDTH);
        assertThat(image.getHeight()).isEqualTo(ChartStyle.HEIGHT);
        String svg = new String(ChartFiles.svg(c), StandardCharsets.UTF_8);
        assertThat(svg).startsWith("<?xml").contains("<svg").endsWith("</svg>\n");
        javax.xml.parsers.DocumentBuilderFactory f = javax.xml.parsers.DocumentBuilderFactory.newInstance();
        f.setFeature("http://apache.org/xml/features/nonvalidating/load-external-dtd", false);
        assertThat(f.newDocumentBuilder().parse(new java.io.ByteArrayInputStream(svg.getBytes(StandardCharsets.UTF_8)))
                .getDocumentElement().getNodeName()).isEqualTo("svg");
        Path p = ChartFiles.write(c, dir.resolve("sub/knee.png"));
        assertThat(Files.readAllBytes(p)).isEqualTo(png);
        assertThat(Files.readString(ChartFiles.write(c, dir.resolve("knee.svg")))).contains("<svg");
        assertThatThrownBy(() -> ChartFiles.write(c, dir.resolve("knee.gif"))).hasMessageContaining(".png or .svg");
    }
}
