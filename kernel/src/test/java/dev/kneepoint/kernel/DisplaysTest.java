package dev.kneepoint.kernel;

import static org.assertj.core.api.Assertions.assertThat;

import dev.kneepoint.analysis.Knee;
import dev.kneepoint.analysis.KneeReport;
import dev.kneepoint.kernel.render.Html;
import dev.kneepoint.kernel.render.ResultRenderer;
import dev.kneepoint.sweep.SweepProgress;
import dev.kneepoint.kernel.render.SpectrumRenderer;
import dev.kneepoint.metrics.Distribution;
import dev.kneepoint.metrics.RunResult;
import dev.kneepoint.metrics.Slo;
import dev.kneepoint.metrics.StepInfo;
import dev.kneepoint.metrics.StepResult;
import dev.kneepoint.metrics.StepWindow;
import io.github.spencerpark.jupyter.kernel.display.DisplayData;
import io.github.spencerpark.jupyter.kernel.display.Renderer;
import io.github.spencerpark.jupyter.kernel.display.mime.MIMEType;
import java.time.Instant;
import java.util.Base64;
import java.util.List;
import java.util.Map;
import org.HdrHistogram.Histogram;
import org.knowm.xchart.QuickChart;
import org.knowm.xchart.XYChart;
import org.junit.jupiter.api.Test;
import tech.tablesaw.api.DoubleColumn;
import tech.tablesaw.api.IntColumn;
import tech.tablesaw.api.Table;

class DisplaysTest {
    final Displays displays = new Displays(new Renderer(), 50);

    static String html(DisplayData d) {
        return (String) d.getData(MIMEType.TEXT_HTML);
    }

    @Test
    void tablesRenderAsHtmlWithARowCapAndANote() {
        int[] c = new int[60];
        double[] tps = new double[60];
        for (int i = 0; i < 60; i++) {
            c[i] = i + 1;
            tps[i] = 10.0 * (i + 1);
        }
        Table t = Table.create("ladder", IntColumn.create("concurrency", c), DoubleColumn.create("tok_s", tps));
        DisplayData d = displays.render(t);
        assertThat(html(d)).contains("<th>concurrency</th><th>tok_s</th>").contains("<td>50</td><td>500</td>")
                .doesNotContain("<td>51</td>").contains("Showing 50 of 60 rows × 2 columns.");
        assertThat((String) d.getData(MIMEType.TEXT_PLAIN)).contains("showing 50 of 60 rows");
    }

    @Test
    void decimalsRenderWithAboutFourSignificantDigits() {
        Table t = Table.create("steps", IntColumn.create("c", new int[]{1, 8}),
                DoubleColumn.create("good_fraction", new double[]{0.9955459187467254, Double.NaN}),
                DoubleColumn.create("tok_s", new double[]{160.65337843667376, 2373.25}));
        String h = html(displays.render(t));
        assertThat(h).contains("<td>1</td><td>0.996</td><td>160.7</td>").contains("<td>8</td><td></td><td>2373.3</td>")
                .doesNotContain("0.9955459");
        assertThat(t.doubleColumn("tok_s").getDouble(0)).isEqualTo(160.65337843667376); // the data keeps it all
    }

    @Test
    void chartsRenderAsPngAndSvg() {
        XYChart chart = QuickChart.getChart("knee", "concurrency", "tok/s", "tok/s", new double[]{1, 2, 4, 8},
                new double[]{100, 190, 350, 420});
        DisplayData d = displays.render(chart);
        byte[] png = Base64.getDecoder().decode((String) d.getData(MIMEType.parse("image/png")));
        assertThat(png).startsWith(0x89, 'P', 'N', 'G');
        String svg = (String) d.getData(MIMEType.parse("image/svg+xml"));
        // Fits its output area: the root follows the container's width, up to the chart's own, keeping its viewBox.
        String root = svg.substring(svg.indexOf("<svg"), svg.indexOf('>', svg.indexOf("<svg")));
        assertThat(root).contains("width=\"100%\"").contains("max-width:" + chart.getWidth() + "px")
                .contains("viewBox=").doesNotContain("height=\"");
        assertThat((String) d.getData(MIMEType.TEXT_PLAIN)).startsWith("XYChart[knee");
    }

    @Test
    void runResultsRenderOneRowPerStepAndFlagFailures() {
        Distribution ttft = distribution(10, 20, 30, 40, 1000);
        StepResult s1 = step(0, "c=1", 1, ttft, Map.of());
        StepResult s2 = step(1, "c=8", 8, ttft, Map.of("http_503", 3L));
        RunResult run = new RunResult("run-1", List.of(s1, s2), false, Instant.parse("2026-01-01T00:00:00Z"), "sim");
        String h = html(displays.render(run));
        assertThat(h).contains("<b>Run run-1</b> — sim").contains("2 steps").contains("<b>incomplete</b>")
                .contains("<td>c=1</td>").contains("<td>c=8</td>").contains("c=8: http_503 × 3");
        assertThat(html(displays.render(s1))).contains("<td>c=1</td><td>1</td><td>10</td><td>5</td>");
        assertThat(h).doesNotContain("Resent");
        StepResult resent = StepResult.builder().info(s2.info()).window(s2.window()).requestsOk(5).requestsFailed(3)
                .retried(2).build();
        assertThat(html(displays.render(resent))).contains("Resent on a fresh connection").contains("c=8: 2");
        // Every outcome class is shown, the neutral cancellations too (apart from the failures).
        assertThat(h).doesNotContain("Cancelled");
        StepResult stopped = StepResult.builder().info(s2.info()).window(s2.window()).requestsOk(5).cancelled(4).build();
        assertThat(html(displays.render(stopped))).contains("<td>5</td><td>0</td><td>4</td>")
                .contains("Cancelled (stopped on request, not counted as failures) — c=8: 4");
    }

    @Test
    void aRepeatedRunShowsItsTrialsSpread() {
        Distribution ttft = distribution(10, 20, 30, 40, 1000);
        List<StepResult> steps = new java.util.ArrayList<>();
        for (int t = 1; t <= 2; t++) {
            StepResult s = step(t - 1, StepInfo.trialLabel("c=1", t), 1, ttft, Map.of());
            StepInfo i = s.info();
            steps.add(new StepResult(new StepInfo(i.index(), i.label(), i.mode(), i.concurrency(), i.rateRps(),
                    i.arrival(), i.maxInFlight(), i.capPolicy(), i.warmupNanos(), i.durationNanos(), i.maxRequests(), t),
                    s.window(), s.windowS(), s.counts(), s.latency(), s.rates(), s.tokens(), s.slo(), s.clientCheck()));
        }
        RunResult run = new RunResult("rep", steps, true, Instant.parse("2026-01-01T00:00:00Z"), "sim");
        assertThat(html(displays.render(run))).contains("<td>c=1 #1</td>").contains("<td>c=1 #2</td>")
                .contains("repeat trials: mean ± 95 % interval across trials")
                .contains("Repeat trials (2 per load; mean ± 95 % interval of the mean, CV):");
    }

    @Test
    void distributionsShowStatisticsAndTheirSpectrum() {
        Distribution d = distribution(10, 20, 30, 40, 1000);
        String h = html(displays.render(d));
        assertThat(h).contains("<td>5</td>").contains("percentile spectrum");
        assertThat(html(displays.render(Distribution.empty()))).contains("Empty distribution");
    }

    @Test
    void spectrumTicksHalveTheTailUpToTheMaximum() {
        Histogram h = Distribution.newHistogram();
        for (int i = 1; i <= 1000; i++) {
            h.recordValue(i * 1_000_000L); // 1..1000 ms
        }
        List<SpectrumRenderer.Point> p = SpectrumRenderer.spectrum(h);
        assertThat(p.get(0).percentile()).isZero();
        assertThat(p.get(1).percentile()).isEqualTo(50.0);
        // 3 significant digits: values within 0.1% of the exact percentile of 1..1000 ms.
        assertThat(p.get(1).valueMs()).isCloseTo(500.0, org.assertj.core.data.Offset.offset(0.5));
        assertThat(p.get(2).valueMs()).isCloseTo(750.0, org.assertj.core.data.Offset.offset(0.75));
        assertThat(p.get(p.size() - 1).percentile()).isEqualTo(100.0);
        assertThat(p.get(p.size() - 1).valueMs()).isCloseTo(1000.0, org.assertj.core.data.Offset.offset(1.0));
        // Stops once fewer than one sample lies beyond the tick: 1000 / 2^k >= 1 → k <= 9.
        assertThat(p).hasSize(10 + 1);
        assertThat(html(displays.render(h))).contains("<th>percentile</th>");
    }

    @Test
    void kneeReportsOpenWithTheirAnswerAndFoldTheMethod() {
        Distribution d = distribution(10, 20, 30, 40, 1000);
        RunResult run = new RunResult("run-k", List.of(step(0, "c=1", 1, d, Map.of()), step(1, "c=2", 2, d, Map.of()),
                step(2, "c=4", 4, d, Map.of())), true, Instant.parse("2026-01-01T00:00:00Z"), "sim");
        KneeReport k = Knee.analyze(run);
        DisplayData shown = displays.render(k);
        String h = html(shown);
        assertThat(h).contains("<b>Knee analysis of run-k</b>")
                .contains("<li>" + Html.escape(k.answer().sentences().get(0)) + "</li>")
                .contains("<b>Caveats</b>").contains("fewer than 100 OK requests") // 5 requests a step
                .contains("<th>role</th>").contains("<details><summary>Method and evidence</summary>");
        assertThat(h.indexOf("Peak output throughput")).isLessThan(h.indexOf("<table"));
        assertThat((String) shown.getData(MIMEType.TEXT_PLAIN)).startsWith("Answer:\n  Peak output throughput");
    }

    @Test
    void aSweepsHeadlineSaysStepOfStepsAndTheTimeLeft() {
        var none = java.util.Optional.<dev.kneepoint.metrics.StepProgress>empty();
        assertThat(ResultRenderer.headline(new SweepProgress(0, 0, "", none, 0.2, Double.NaN)))
                .isEqualTo("starting (preparing the first step)");
        assertThat(ResultRenderer.headline(new SweepProgress(3, 6, "c=16", none, 20, 14.4)))
                .isEqualTo("step 3 of 6 (c=16), about 14 s left");
        assertThat(ResultRenderer.headline(new SweepProgress(2, 9, "rate=40", none, 20, 600)))
                .isEqualTo("step 2 of 9 (rate=40), about 10 min left");
        assertThat(ResultRenderer.headline(new SweepProgress(1, 2, "c=1", none, 1, Double.NaN))).isEqualTo("step 1 of 2 (c=1)");
        assertThat(ResultRenderer.headline(new SweepProgress(3, 3, 12, "c=4", none, 30, 120)))
                .isEqualTo("step 3 of at most 12 (c=4), at most about 2 min left");
    }

    @Test
    void otherValuesFallBackToText() {
        assertThat((String) displays.render(List.of(1, 2)).getData(MIMEType.TEXT_PLAIN)).isEqualTo("[1, 2]");
        assertThat((String) displays.render(null).getData(MIMEType.TEXT_PLAIN)).isEqualTo("null");
    }

    static Distribution distribution(long... ms) {
        Histogram h = Distribution.newHistogram();
        for (long m : ms) {
            h.recordValue(m * 1_000_000L);
        }
        return Distribution.of(h);
    }

    static StepResult step(int index, String label, int concurrency, Distribution d, Map<String, Long> failures) {
        StepInfo info = new StepInfo(index, label, StepInfo.CLOSED, concurrency, Double.NaN, "", -1, "", 0, -1, -1);
        long failed = failures.values().stream().mapToLong(Long::longValue).sum();
        return StepResult.builder().info(info).window(new StepWindow(0, 0, 10_000_000_000L, true)).windowS(10.0)
                .requestsOk(5).requestsFailed(failed).failuresByClass(failures).ttft(d).ttftSched(d).itl(d).chunkGap(d)
                .tpot(d).e2e(d).e2eSched(d).outputTokensPerS(123.4).inputTokensPerS(50).requestsPerS(0.5)
                .goodputRps(0.5).goodFraction(1.0).failureRate(0.0).concurrencyMean(1.0).meanPromptTokens(64)
                .meanOutputTokens(32).slo(new Slo(Double.NaN, Double.NaN, Double.NaN, 99, Double.NaN, Slo.Basis.AUTO))
                .build();
    }
}
